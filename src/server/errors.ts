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
