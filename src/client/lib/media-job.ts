// The tools that wait for a media job (audio, captions) ask not to wait (Prefer: respond-async):
// a result ready at once comes back as today; otherwise the answer says where the job stands, the
// page shows it (queued with its place in line, running) and follows it until it is done, then
// asks once more for the result, which the server keeps by then.
import type { MediaJobView } from '@shared/contracts/media-jobs';
import { RESPOND_ASYNC } from '@shared/contracts/media-jobs';

export type JobProgress = Pick<MediaJobView, 'state' | 'position'> | null;

const POLL_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same error shape as apiRequest's ('<status>: <body>'), so serverMessage() reads it. */
async function failed(res: Response): Promise<Error> {
  return new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
}

export async function requestMediaResult<T>(
  url: string,
  body: unknown,
  onProgress: (p: JobProgress) => void,
): Promise<T> {
  try {
    // Twice at most: the first answer may be a job; once it is done the result is kept.
    for (let round = 0; round < 3; round++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: RESPOND_ASYNC },
        body: JSON.stringify(body),
        credentials: 'include',
      });
      if (!res.ok) throw await failed(res);
      if (res.status !== 202) return (await res.json()) as T;
      let job = (await res.json()) as MediaJobView;
      while (job.state === 'queued' || job.state === 'running') {
        onProgress({ state: job.state, position: job.position });
        await sleep(POLL_MS);
        const r = await fetch(`/api/media-jobs/${job.id}`, { credentials: 'include' });
        if (!r.ok) throw await failed(r);
        job = (await r.json()) as MediaJobView;
      }
      if (job.state === 'failed') throw new Error(`500: ${JSON.stringify(job.error ?? {})}`);
    }
    throw new Error('500: {"message":"The result did not arrive. Please try again."}');
  } finally {
    onProgress(null);
  }
}

/** What the form's button says while a job waits or runs. */
export function progressLabel(p: JobProgress, runningLabel: string): string {
  if (p?.state === 'queued')
    return p.position && p.position > 1 ? `Queued: ${p.position - 1} ahead...` : 'Queued: next...';
  return runningLabel;
}

/** The line under the form while a job waits or runs. */
export function progressNote(p: JobProgress): string | undefined {
  if (p?.state === 'queued') return 'Waiting for a free media worker. It starts by itself: keep this page open.';
  if (p?.state === 'running') return 'Working on it. Long videos take a little longer.';
  return undefined;
}
