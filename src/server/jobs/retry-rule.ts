// The one rule for every kind of background work (issue 30): what is transient (another try after
// a pause may succeed) and what is final (the same answer would come again). A kind says how
// many tries it gets and how long the first pause is; this file alone says which failures use them.
import { AppError, infrastructureError } from '../errors.js';

export interface RetryRule {
  /** Further attempts after the first (0: never retried). */
  retries: number;
  /** Pause before the first retry; each next pause doubles (pg-boss's retryBackoff). */
  backoffSeconds: number;
}

/** Codes about the link or the file itself (too large, not media at all): the same answer again. */
const FINAL_UPSTREAM = new Set(['upstream.blocked', 'upstream.too_large', 'upstream.not_media']);

/**
 * Our own faults that another try would meet again: a tool killed under a job (the operator, or the
 * kernel out of memory) is reported as such (503 media.interrupted), never quietly run twice.
 */
const FINAL_OURS = new Set(['media.interrupted']);

/**
 * True when a failure is worth another try: the platform not answering, slow, limiting us, or
 * cutting a transfer short (`upstream.*`: 424, 429 and 5xx alike); our own passing faults (503: the
 * database restarting, a full line, the store not answering; 502: a broken transfer); and errors we
 * cannot name (a socket reset deep in a library). Answers about the link (4xx) are final.
 */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof AppError)) return (infrastructureError(err)?.status ?? 503) === 503;
  if (err.code.startsWith('upstream.')) return !FINAL_UPSTREAM.has(err.code);
  if (FINAL_OURS.has(err.code)) return false;
  return err.status === 429 || err.status === 502 || err.status === 503;
}

/** What a dispatcher knows of the attempt it runs. */
export interface Attempt {
  signal: AbortSignal;
  /** False on the last attempt: a failure now is final. */
  willRetry: boolean;
}

/**
 * Runs one attempt of a job under the rule, for both dispatchers (jobs/dispatcher.ts and the media
 * queue's): cancelled or this node stopping, or a transient failure with tries left, goes back to the
 * queue (after `retrying`); any other failure is the job's final answer, made by `ended`.
 */
export async function underRetryRule<T>(
  attempt: Attempt,
  run: () => Promise<T>,
  on: { ended: (err: unknown) => T | Promise<T>; retrying?: () => Promise<void> },
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (attempt.signal.aborted || (isTransient(err) && attempt.willRetry)) {
      await on.retrying?.();
      throw err;
    }
    return on.ended(err);
  }
}
