// The one rule for naming a file we send (issue 35): `Content-Disposition` built by the
// content-disposition package (RFC 6266 with RFC 8187's `filename*` for names beyond ASCII, an ASCII
// fallback with quotes escaped), so an author's emoji, a quote or a slash in a title can neither
// break the header nor be refused by Node.
import { create } from 'content-disposition';

/** `attachment; filename=…` for `fileName`; `inline` when the file is shown, not saved. */
export function contentDisposition(fileName: string, inline = false): string {
  return inline ? 'inline' : create(fileName);
}

export interface SentFile {
  fileName: string;
  contentType: string;
  /** Bytes, when known. */
  length?: number | null;
  /**
   * A file made while it is sent (a streamed remux, issue 38) has no exact length yet: its size
   * expected from its parts goes in `X-Expected-Length` for the progress bar, never in
   * Content-Length, so a short file can never pass for a whole one.
   */
  expectedLength?: number | null;
  /** Shown in the page (a preview, an image) instead of saved. */
  inline?: boolean;
  /** `no-store` for what is made per request or per person; a max-age for what can be kept. */
  cache: 'no-store' | 'private, no-store' | `private, max-age=${number}`;
}

/** The headers of a file answer: type, name, length, caching, and no sniffing of its type. */
export function downloadHeaders(file: SentFile): Record<string, string> {
  return {
    'content-type': file.contentType,
    'content-disposition': contentDisposition(file.fileName, file.inline),
    'cache-control': file.cache,
    'x-content-type-options': 'nosniff',
    ...(file.length !== null && file.length !== undefined ? { 'content-length': String(file.length) } : {}),
    ...((file.length === null || file.length === undefined) && file.expectedLength
      ? { 'x-expected-length': String(file.expectedLength) }
      : {}),
  };
}
