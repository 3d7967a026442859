// One error type for every expected failure. The error handler turns it into the API envelope
// `{ message, code }` (plus any extra fields, e.g. `limitReached`).
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'request.invalid') => new AppError(400, code, message);
export const unauthorized = (message = 'Please sign in to continue.', code = 'auth.required') =>
  new AppError(401, code, message);
export const forbidden = (message: string, code: string) => new AppError(403, code, message);
export const notFound = (message = 'Not found.', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code: string) => new AppError(409, code, message);
export const proRequired = () =>
  new AppError(403, 'billing.pro_required', 'This is a Pro feature. Upgrade to use it.');

/**
 * Our own faults, told apart from bugs: the database unreachable or restarting (503) and a full
 * disk (507). Never blamed on the user's input.
 */
export function infrastructureError(err: unknown): AppError | null {
  // A refused or reset connection is the database's only when it surfaced through a query.
  let viaQuery = false;
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') {
      return new AppError(507, 'storage.full', 'The server has run out of storage space. Please try again later.', {}, { 'retry-after': '60' });
    }
    if (typeof message === 'string' && message.startsWith('Failed query')) viaQuery = true;
    const network = viaQuery && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code as string);
    const pgDown = network || (typeof code === 'string' && /^(08|57P0|53300)/.test(code));
    const lost = typeof message === 'string' && /Connection terminated|terminating connection|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(message);
    if (pgDown || lost) {
      return new AppError(503, 'service.database_unavailable', 'The service is briefly unavailable (database). Please try again in a few seconds.', {}, { 'retry-after': '5' });
    }
  }
  return null;
}

/** What a log line may say about an unexpected error: no SQL parameters, no stack. */
export function loggableError(err: unknown): { type: string; message: string; code?: string } {
  const e = (err ?? {}) as { name?: string; message?: string; code?: string; cause?: { message?: string; code?: string } };
  // Drizzle puts the query and its parameters (user text, hashes) in the message; the cause is PostgreSQL's own.
  const raw = e.cause?.message ?? e.message ?? String(err);
  return { type: e.name ?? 'Error', message: raw.split('\n')[0].slice(0, 300), code: e.cause?.code ?? e.code };
}
