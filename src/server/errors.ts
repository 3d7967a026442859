// One error type for every expected failure, built from the error catalogue (shared/error-messages.ts,
// decision 0020). The error handler turns it into the API envelope `{ message, code, params? }`
// (plus any extra fields, e.g. `limitReached`).
import {
  ERROR_CATALOGUE,
  renderError,
  type ErrorCode,
  type ErrorParams,
  type ErrorParamValues,
} from '../shared/error-messages.js';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    /** The catalogue template's params, sent so a client can render (or translate) the text itself. */
    readonly params?: ErrorParamValues,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

type Headers = Record<string, string>;
type Extra = Record<string, unknown>;
/** Params may be left out only when the default template has no placeholder. */
export type FailArgs<C extends ErrorCode> =
  Record<string, never> extends ErrorParams<C>
    ? [params?: ErrorParams<C>, extra?: Extra, headers?: Headers]
    : [params: ErrorParams<C>, extra?: Extra, headers?: Headers];

/** The catalogue's status, message and parts of an error (for subclasses such as HttpClientError). */
export function catalogued(code: ErrorCode, params?: ErrorParamValues, headers: Headers = {}) {
  const message = renderError(code, params);
  // The types make this unreachable; a wrong variant from untyped code must still not send "undefined".
  if (message === undefined) throw new Error(`error catalogue: cannot render ${code} with ${JSON.stringify(params)}`);
  const entry: { status: number; retryAfter?: number } = ERROR_CATALOGUE[code];
  const defaults: Headers = entry.retryAfter ? { 'retry-after': String(entry.retryAfter) } : {};
  const sent = params && Object.keys(params).length ? params : undefined;
  return { status: entry.status, message, headers: { ...defaults, ...headers }, params: sent };
}

/** The one way to raise an expected failure: `throw fail('video.private', { platform: platform.name })`. */
export function fail<C extends ErrorCode>(code: C, ...[params, extra, headers]: FailArgs<C>): AppError {
  const e = catalogued(code, params as ErrorParamValues | undefined, headers);
  return new AppError(e.status, code, e.message, extra, e.headers, e.params);
}

/**
 * An error that crossed a process boundary (a media job's output, decision 0022), rebuilt from the
 * catalogue by its code and params; null when the code is not one of ours.
 */
export function revive(
  e: { code?: unknown; params?: unknown; extra?: unknown; headers?: unknown } | null | undefined,
): AppError | null {
  if (!e || typeof e.code !== 'string' || !(e.code in ERROR_CATALOGUE)) return null;
  const params = (e.params ?? undefined) as ErrorParamValues | undefined;
  if (renderError(e.code as ErrorCode, params) === undefined) return null;
  const c = catalogued(e.code as ErrorCode, params, (e.headers ?? {}) as Headers);
  return new AppError(c.status, e.code, c.message, (e.extra ?? {}) as Extra, c.headers, c.params);
}

/** A Retry-After header of so many seconds (rate limits say how long the wait is). */
export const retryAfter = (seconds: number): Headers => ({ 'retry-after': String(seconds) });

/**
 * Our own faults, told apart from bugs: the database unreachable or restarting (503) and a full
 * disk (507). Never blamed on the user's input.
 */
export function infrastructureError(err: unknown): AppError | null {
  // A refused or reset connection is the database's only when it surfaced through a query.
  let viaQuery = false;
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') {
      return fail('storage.full');
    }
    if (typeof message === 'string' && message.startsWith('Failed query')) viaQuery = true;
    const network = viaQuery && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code as string);
    const pgDown = network || (typeof code === 'string' && /^(08|57P0|53300)/.test(code));
    const lost =
      typeof message === 'string' &&
      (/Connection terminated|terminating connection/i.test(message) ||
        /Client has encountered a connection error|timeout exceeded when trying to connect/i.test(message));
    if (pgDown || lost) {
      return fail('service.database_unavailable');
    }
  }
  return null;
}

/** What a log line may say about an unexpected error: no SQL parameters, no stack. */
export function loggableError(err: unknown): { type: string; message: string; code?: string } {
  const e = (err ?? {}) as {
    name?: string;
    message?: string;
    code?: string;
    cause?: { message?: string; code?: string };
  };
  // Drizzle puts the query and its parameters (user text, hashes) in the message; the cause is PostgreSQL's own.
  const raw = e.cause?.message ?? e.message ?? String(err);
  return { type: e.name ?? 'Error', message: raw.split('\n')[0].slice(0, 300), code: e.cause?.code ?? e.code };
}
