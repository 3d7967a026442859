// The one loop that follows a media job (audio, captions, caption projects and renders). The tool
// is asked not to wait (Prefer: respond-async): a result ready at once comes back as is; otherwise
// the answer is the job, followed through GET /api/media-jobs/:id (a long poll: the server answers
// as soon as the job moves on) until it is done. A job whose done status carries the whole result
// (a render: its link) ends there (`fromJob`); otherwise the tool is asked once more for the result,
// which the server keeps by then. Cancelling stops the job on the server too. The status says where
// the job stands and, once done, carries the result (an audio's downloadUrl, a render's url).
import { useCallback, useRef, useState } from 'react';
import { ERROR_CATALOGUE, isErrorCode } from '@shared/error-messages';
import { ApiError } from '../lib/api-error';
import { mediaJobToken } from '@shared/media-job-token';
import { type AsyncAnswer, type MediaJob, mediaJobCancel, mediaJobGet } from '../lib/api';

export type MediaJobStatus<T> =
  | { state: 'idle' }
  | { state: 'queued'; position?: number }
  | { state: 'running'; percent?: number }
  | { state: 'done'; result: T }
  | { state: 'failed'; error: unknown };

export type StartJob<A, T> = (args: A, signal: AbortSignal) => Promise<AsyncAnswer<T>>;

/** How long the server may hold a status request (it answers at once when the job moves on). */
const LONG_POLL_MS = 20_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

/** Follows one job to its result; `onStatus` hears each step. Three rounds at most (the result is kept once done). */
export async function followMediaJob<A, T>(
  start: StartJob<A, T>,
  args: A,
  signal: AbortSignal,
  onStatus: (s: MediaJobStatus<T>) => void,
  pollMs: number,
  fromJob?: (job: MediaJob) => T | undefined,
): Promise<T> {
  let jobId: string | undefined;
  const cancel = () => {
    if (jobId) mediaJobCancel(jobId).catch(() => undefined);
  };
  // A Cancel pressed while a request was on its way wins over what it brought back (even a finished
  // result: the person asked to stop); a job the server has by then is stopped there too.
  const stopIfCancelled = () => {
    if (!signal.aborted) return;
    cancel();
    throw signal.reason;
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (let round = 0; round < 3; round++) {
      const answer = await start(args, signal);
      if (!answer.done) jobId = answer.job.id;
      stopIfCancelled();
      if (answer.done) return answer.result;
      let job = answer.job;
      while (job.state === 'queued' || job.state === 'running') {
        onStatus(
          job.state === 'queued'
            ? { state: 'queued', position: job.position }
            : { state: 'running', percent: job.progress },
        );
        const asked = Date.now();
        const seen = mediaJobToken(job);
        job = await mediaJobGet(job.id, signal, { ms: LONG_POLL_MS, seen });
        stopIfCancelled();
        // An unchanged answer that came back at once (a server that does not hold it): poll gently.
        if (mediaJobToken(job) === seen && Date.now() - asked < pollMs) await sleep(pollMs, signal);
      }
      if (job.state === 'failed') {
        const code = job.error?.code ?? 'internal';
        const status = isErrorCode(code) ? ERROR_CATALOGUE[code].status : 500;
        throw ApiError.fromEnvelope(status, { message: job.error?.message ?? '', code, params: job.error?.params });
      }
      const whole = fromJob?.(job);
      if (whole !== undefined) return whole;
      onStatus({ state: 'running', percent: 100 });
    }
    throw ApiError.fromEnvelope(500, { message: 'The result did not arrive. Please try again.', code: 'internal' });
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/** `run(args)` starts the job and resolves with its result; `cancel()` stops it (here and on the server). */
export function useMediaJob<A, T>(start: StartJob<A, T>, pollMs = 1000, fromJob?: (job: MediaJob) => T | undefined) {
  const [status, setStatus] = useState<MediaJobStatus<T>>({ state: 'idle' });
  const startRef = useRef(start);
  startRef.current = start;
  const ctrl = useRef<AbortController | null>(null);

  const run = useCallback(
    async (args: A): Promise<T> => {
      const c = new AbortController();
      ctrl.current = c;
      setStatus({ state: 'idle' });
      try {
        const result = await followMediaJob(startRef.current, args, c.signal, setStatus, pollMs, fromJob);
        setStatus({ state: 'done', result });
        return result;
      } catch (error) {
        setStatus({ state: 'failed', error });
        throw error;
      } finally {
        if (ctrl.current === c) ctrl.current = null;
      }
    },
    [pollMs, fromJob],
  );
  const cancel = useCallback(() => ctrl.current?.abort(), []);
  return { status, run, cancel };
}

/** What the form's button says while a job waits or runs. */
export function progressLabel(s: MediaJobStatus<unknown>, runningLabel: string): string {
  if (s.state === 'queued')
    return s.position && s.position > 1 ? `Queued: ${s.position - 1} ahead...` : 'Queued: next...';
  return runningLabel;
}

/** The line under the form while a job waits or runs. */
export function progressNote(s: MediaJobStatus<unknown>): string | undefined {
  if (s.state === 'queued') return 'Waiting for a free media worker. It starts by itself: keep this page open.';
  if (s.state === 'running') return 'Working on it. Long videos take a little longer.';
  return undefined;
}
