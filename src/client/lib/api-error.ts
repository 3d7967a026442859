// Every failed API call becomes one ApiError: the HTTP status and the error envelope
// `{ message, code, params? }` (shared/contracts/common.ts) as fields, never a string to parse.
// The text shown is rendered from the shared error catalogue by code and params (where a
// translation would plug in), else the server's own `message`.
import type { ApiErrorBody } from '@shared/contracts/common';
import { type ErrorParamValues, renderError } from '@shared/error-messages';

/** The code of a failure that has no envelope: the server could not be reached, or answered something else. */
export const NETWORK_ERROR = 'client.network';
export const NOT_AN_ENVELOPE = 'client.unreadable_answer';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number,
    readonly code: string,
    readonly params: ErrorParamValues | undefined,
    /** The whole envelope as sent (a code may add fields), or null when the answer had none. */
    readonly body: ApiErrorBody | null,
    /** The text for a person: from the envelope, or undefined when the answer had none. */
    readonly serverText: string | undefined,
  ) {
    super(serverText ?? `${status || 'network'} ${code}`);
  }

  /** The ApiError of an answer that is not OK; reads the body once. */
  static async fromResponse(res: Response): Promise<ApiError> {
    const text = await res.text().catch(() => '');
    return ApiError.fromBody(res.status, text);
  }

  /** The ApiError of a status and the text of its body (JSON envelope or anything else). */
  static fromBody(status: number, text: string): ApiError {
    const body = parseEnvelope(text);
    if (!body) return new ApiError(status, NOT_AN_ENVELOPE, undefined, null, undefined);
    return ApiError.fromEnvelope(status, body);
  }

  static fromEnvelope(status: number, body: ApiErrorBody): ApiError {
    return new ApiError(status, body.code, body.params, body, messageFor(body));
  }

  /** fetch itself failed (offline, connection refused, aborted). */
  static network(cause: unknown): ApiError {
    const err = new ApiError(0, NETWORK_ERROR, undefined, null, undefined);
    (err as { cause?: unknown }).cause = cause;
    return err;
  }
}

function parseEnvelope(text: string): ApiErrorBody | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { message, code, params } = value as Record<string, unknown>;
  if (typeof code !== 'string' || (message !== undefined && typeof message !== 'string')) return null;
  const okParams = params && typeof params === 'object' ? (params as ErrorParamValues) : undefined;
  return { ...(value as object), message: (message as string | undefined) ?? '', code, params: okParams };
}

/** The text of an error envelope: rendered from the catalogue by code and params, else its `message`. */
export function messageFor(body: Partial<ApiErrorBody> | null | undefined): string | undefined {
  if (!body) return undefined;
  return renderError(body.code, body.params) ?? (body.message ? body.message : undefined);
}

/** The server's text for a failed call, if it sent one (callers add their own wording otherwise). */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverText : undefined;
}

/** The catalogue code of a failed call, if any. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}
