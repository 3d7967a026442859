// Errors of the guarded HTTP client (own file: both transports raise them). Their texts are the
// catalogue's `upstream.*` entries (shared/error-messages.ts); `variant` picks the wording.
import { AppError, catalogued } from '../../errors.js';
import type { ErrorCode, ErrorParams } from '../../../shared/error-messages.js';

const CODES = {
  blocked: 'upstream.blocked',
  too_large: 'upstream.too_large',
  timeout: 'upstream.timeout',
  unavailable: 'upstream.unavailable',
} as const;
export type HttpErrorKind = keyof typeof CODES;

type Variant<C extends ErrorCode> = Extract<ErrorParams<C>, { variant: string }>['variant'];
/** A kind with one of its code's variants (undefined: the default wording). */
type HttpErrorArgs = { [K in HttpErrorKind]: [kind: K, variant?: Variant<(typeof CODES)[K]>] }[HttpErrorKind];

export class HttpClientError extends AppError {
  readonly kind: HttpErrorKind;
  constructor(...[kind, variant]: HttpErrorArgs) {
    const e = catalogued(CODES[kind], variant ? { variant } : undefined);
    super(e.status, CODES[kind], e.message, {}, e.headers, e.params);
    this.kind = kind;
    this.name = 'HttpClientError';
  }
}
