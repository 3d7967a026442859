// Errors of the guarded HTTP client (own file: both transports raise them).
import { AppError } from '../../errors.js';

export type HttpErrorKind = 'blocked' | 'too_large' | 'timeout' | 'unavailable';

export class HttpClientError extends AppError {
  constructor(readonly kind: HttpErrorKind, message: string) {
    const codes = { blocked: [400, 'upstream.blocked'], too_large: [424, 'upstream.too_large'], timeout: [424, 'upstream.timeout'], unavailable: [424, 'upstream.unavailable'] } as const;
    super(codes[kind][0], codes[kind][1], message);
    this.name = 'HttpClientError';
  }
}
