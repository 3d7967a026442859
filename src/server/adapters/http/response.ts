// The response side of the guarded client: error translation, byte ceilings, reading a body whole.
// Own file so http-client.ts keeps to the request policy.
import { Transform, pipeline, type Readable } from 'node:stream';
import { HttpClientError } from './http-errors.js';
import { releaseChunk } from './slabs.js';
import type { UpstreamResponse } from './bulk-transport.js';
import { relayableType } from './media-type.js';

export const PAGE_MAX_BYTES = 8 * 1024 * 1024;

export interface HttpResponse {
  status: number;
  url: string;
  redirects: string[];
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  header(name: string): string | undefined;
  text(limit?: number): Promise<string>;
  json<T = unknown>(limit?: number): Promise<T>;
  /** The whole body as bytes (binary answers, e.g. a DER certificate). */
  bytes(limit?: number): Promise<Buffer>;
  /**
   * The type a relay may send this body with (media-type.ts): a video, sound or raster picture
   * type, `fallback` when the site named none; anything else throws `upstream.not_media` and cuts
   * the transfer.
   */
  mediaType(fallback: string): string;
  dump(): Promise<void>;
  /** The bytes of a body chunk have left the process (written out): its buffer may be reused. */
  release(chunk: Buffer): void;
}

export function blocked(
  variant?: Extract<ConstructorParameters<typeof HttpClientError>, ['blocked', ...unknown[]]>[1],
) {
  return new HttpClientError('blocked', variant);
}

export function translate(err: unknown, signal?: AbortSignal): Error {
  if (signal?.aborted) return err instanceof Error ? err : new Error('aborted');
  if (err instanceof HttpClientError) return err;
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (code === 'EPRIVATEADDR') return blocked('private');
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return new HttpClientError('timeout');
  return new HttpClientError('unavailable', 'unreachable');
}

export function wrap(
  res: UpstreamResponse,
  url: string,
  redirects: string[],
  o: { maxBytes?: number; signal?: AbortSignal },
): HttpResponse {
  let body: Readable = res.body;
  if (o.maxBytes !== undefined) {
    // pipeline (not pipe) so an upstream error or disconnect reaches the consumer too.
    const ceiling = byteCeiling(o.maxBytes, () => res.body.destroy());
    pipeline(res.body, ceiling, () => {});
    body = ceiling;
  }
  body.on('error', () => {}); // consumers get errors through their own pipeline; never crash the process
  const readAll = async (limit: number) => {
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > limit) {
          body.destroy();
          res.body.destroy();
          throw new HttpClientError('too_large', 'page');
        }
        chunks.push(chunk);
      }
    } catch (err) {
      throw translate(err, o.signal);
    }
    return Buffer.concat(chunks);
  };
  const header = (name: string) => {
    const v = res.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return {
    status: res.statusCode,
    url,
    redirects,
    headers: res.headers,
    body,
    header,
    mediaType(fallback) {
      try {
        return relayableType(header('content-type'), fallback);
      } catch (err) {
        body.destroy();
        res.body.destroy();
        throw err;
      }
    },
    async text(limit = PAGE_MAX_BYTES) {
      return (await readAll(limit)).toString('utf8');
    },
    async json<T>(limit = PAGE_MAX_BYTES) {
      return JSON.parse((await readAll(limit)).toString('utf8')) as T;
    },
    bytes: (limit = PAGE_MAX_BYTES) => readAll(limit),
    release: releaseChunk,
    async dump() {
      body.resume();
      await new Promise<void>((r) => {
        body.once('end', r);
        body.once('close', r);
        body.once('error', () => r());
      });
    },
  };
}

function byteCeiling(max: number, onExceed: () => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > max) {
        // Fail this stream first, then cut the upstream: its premature close must not hide the cause.
        cb(new HttpClientError('too_large'));
        return onExceed();
      }
      cb(null, chunk);
    },
  });
}
