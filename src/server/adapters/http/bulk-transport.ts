/**
 * A lean HTTP/1.1 GET for relaying large files (a 100 MB video read once, start to end).
 *
 * Why not undici here: its parser copies every body byte into WebAssembly memory and out again,
 * and its 64 KB socket reads cost a stream hop each. Relaying, that made the server spend more CPU
 * per byte than the client downloading it (docs/decisions/0104-bulk-transport.md). This transport
 * parses only the response head; body bytes are read straight from the socket into 256 KB slabs and
 * handed on untouched. Policy stays where it was: the caller (http-client.ts) checks every URL and
 * passes the guarded DNS lookup, so the address checked is the address connected to.
 *
 * Connections are kept alive per origin in a BulkPool (bulk-pool.ts, decision 0105) when the
 * response was read exactly to its content-length. Responses this transport does not frame itself
 * (`transfer-encoding`) are refused with BulkUnsupported before any body byte is read; the caller
 * then repeats the request through undici.
 */
import net from 'node:net';
import tls from 'node:tls';
import { Readable } from 'node:stream';
import { HttpClientError } from './http-errors.js';
import type { BulkPool, PooledConnection, ReadHandler } from './bulk-pool.js';
import { SLAB_SIZE, handOut, takeSlab } from './slabs.js';

export interface UpstreamResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface BulkGetInput {
  /** Where to connect (the real URL, or the UPSTREAM_HOST_MAP origin). */
  target: URL;
  /** Request target and Host header: always the real URL's. */
  path: string;
  host: string;
  headers: Record<string, string>;
  lookup?: net.LookupFunction;
  signal?: AbortSignal;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  /** Kept-alive connections to reuse and return to (none: one connection per request). */
  pool?: BulkPool;
}

export class BulkUnsupported extends Error {}

const MIN_READ = 64 * 1024;
const HEAD_MAX = 64 * 1024;
const STALL_FACTOR = 4;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const tooSlow = () => new HttpClientError('timeout');
const broken = () => new HttpClientError('unavailable', 'broken_response');

export function bulkGet(input: BulkGetInput): Promise<UpstreamResponse> {
  for (const [name, value] of Object.entries(input.headers)) {
    // Values come from our code and from cookies a site set: never let one end the request head.
    if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) return Promise.reject(new HttpClientError('blocked', 'header'));
  }
  if (input.signal?.aborted) return Promise.reject(input.signal.reason ?? new Error('aborted'));
  const key = `${input.target.protocol}//${input.target.host}|${input.lookup ? 'guarded' : 'mapped'}`;
  const kept = input.pool?.take(key);
  if (!kept) return attempt(input, key, null);
  // A site may close a kept connection just as we reuse it: then the GET is repeated on a new one.
  return attempt(input, key, kept).catch((err) =>
    err instanceof StaleConnection ? attempt(input, key, null) : Promise.reject(err),
  );
}

class StaleConnection extends Error {}

function attempt(input: BulkGetInput, key: string, kept: PooledConnection | null): Promise<UpstreamResponse> {
  const { target, signal, pool } = input;
  return new Promise<UpstreamResponse>((resolve, reject) => {
    let lease = takeSlab();
    let offset = 0;
    let head: Buffer | null = Buffer.alloc(0);
    let body: Readable | null = null;
    let expected: number | null = null;
    let reusable = false;
    let received = 0;
    let settled = false;
    let ended = false;
    let waiting = false; // paused because the consumer is slower: not an idle upstream
    let idleWhileWaiting = false;
    let stallTimer: NodeJS.Timeout | undefined;

    const fail = (err: Error) => {
      clearTimeout(headTimer);
      if (!settled) {
        settled = true;
        // Nothing came back on a reused connection: the site had closed it, not refused us.
        reject(
          kept && head?.length === 0 && !signal?.aborted && !(err instanceof HttpClientError && err.kind === 'timeout')
            ? new StaleConnection()
            : err,
        );
      } else body?.destroy(err);
      socket.destroy();
      lease.retire();
    };

    const onread: ReadHandler = {
      // Successive reads fill one slab; each chunk handed on is a view of it (no copy). A slab is
      // reused only once its consumer released every chunk of it (slabs.ts).
      buffer: () => {
        if (SLAB_SIZE - offset < MIN_READ) {
          lease.retire();
          lease = takeSlab();
          offset = 0;
        }
        return lease.buf.subarray(offset);
      },
      callback: (n: number, buf: Uint8Array): boolean => {
        const chunk = Buffer.from(buf.buffer, buf.byteOffset, n);
        offset += n;
        if (body) return deliver(chunk);
        head = head ? Buffer.concat([head, chunk]) : chunk;
        let parsed: ReturnType<typeof parseHead>;
        let rest: Buffer;
        for (;;) {
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) {
            if (head.length > HEAD_MAX) fail(broken());
            return true;
          }
          try {
            parsed = parseHead(head.subarray(0, end));
          } catch (err) {
            fail(err as Error);
            return false;
          }
          rest = head.subarray(end + 4);
          if (parsed.status >= 200) break;
          head = rest; // an informational answer: the real one follows
        }
        head = null;
        clearTimeout(headTimer);
        if (parsed.headers['transfer-encoding'] !== undefined) {
          fail(new BulkUnsupported('transfer-encoding'));
          return false;
        }
        expected = parsed.status === 204 || parsed.status === 304 ? 0 : parsed.length;
        reusable =
          !!pool &&
          expected !== null &&
          parsed.version === '1.1' &&
          !/\bclose\b/i.test(String(parsed.headers.connection ?? ''));
        body = new Readable({
          highWaterMark: 128 * 1024,
          read: () => {
            waiting = false;
            clearTimeout(stallTimer);
            if (idleWhileWaiting) socket.setTimeout(input.idleTimeoutMs); // the idle timer does not restart by itself
            idleWhileWaiting = false;
            // Returning false from onread stopped the socket handle; the socket is never consumed as
            // a stream, so restart the handle directly rather than through its stream state.
            if (!ended) socket._read(0);
          },
          destroy: (err, cb) => {
            if (!ended) socket.destroy();
            cb(err);
          },
        });
        body.on('error', () => {}); // consumers see errors through their own pipeline
        settled = true;
        resolve({ statusCode: parsed.status, headers: parsed.headers, body });
        if (rest.length) return deliver(rest);
        if (expected === 0) finish(false);
        return expected !== 0;
      },
    };

    function deliver(chunk: Buffer): boolean {
      if (!body) return false; // called only once the head is parsed and the body exists
      if (expected !== null && received + chunk.length >= expected) {
        // Bytes past the announced length are not part of this file (and make the connection unusable).
        const last = chunk.subarray(0, expected - received);
        received = expected;
        if (last.length) body.push(handOut(last));
        finish(chunk.length > last.length);
        return false;
      }
      received += chunk.length;
      waiting = !body.push(handOut(chunk));
      return !waiting;
    }

    /** The whole body arrived: end it, and keep the connection when it is exactly where the next response starts. */
    function finish(overrun: boolean) {
      ended = true;
      body?.push(null);
      if (!reusable || overrun || !pool || !conn) {
        socket.destroy();
        return lease.retire();
      }
      clearTimeout(connectTimer);
      clearTimeout(stallTimer);
      socket.off('timeout', onTimeout).off('error', onError).off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      pool.put(conn);
      lease.retire(); // the pooled socket now reads into the pool's own buffer
    }

    const connect = (handler: ReadHandler): net.Socket => {
      const options = {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
        lookup: input.lookup,
        onread: handler,
      };
      return target.protocol === 'https:'
        ? tls.connect({
            ...options,
            servername: net.isIP(options.host) ? undefined : options.host,
            ALPNProtocols: ['http/1.1'],
          })
        : net.connect(options);
    };
    let conn: PooledConnection | null = kept;
    let socket: net.Socket;
    if (kept) {
      kept.handler = onread;
      socket = kept.socket;
    } else if (pool) {
      conn = pool.open(key, connect, onread);
      socket = conn.socket;
    } else socket = connect(onread);

    const connectTimer = kept ? undefined : setTimeout(() => fail(tooSlow()), input.connectTimeoutMs);
    const headTimer = setTimeout(() => fail(tooSlow()), input.connectTimeoutMs + input.headersTimeoutMs);
    if (!kept)
      socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    const onTimeout = () => {
      if (!waiting) return fail(tooSlow());
      // The reader, not the site, is idle. A slow reader still asks for more now and then; one that
      // asks for nothing for STALL_FACTOR idle periods is gone (or hostile): free the connection.
      idleWhileWaiting = true;
      stallTimer = setTimeout(
        () => fail(new HttpClientError('timeout', 'stalled')),
        input.idleTimeoutMs * (STALL_FACTOR - 1),
      );
    };
    const onError = (err: Error) => fail(err);
    const onClose = () => {
      lease.retire();
      clearTimeout(connectTimer);
      clearTimeout(stallTimer);
      signal?.removeEventListener('abort', onAbort);
      if (!settled) return fail(new HttpClientError('unavailable', 'closed'));
      if (!body || ended || body.destroyed) return;
      if (expected !== null) return void body.destroy(new Error(`premature close: ${received} of ${expected} bytes`));
      ended = true; // length unknown: the body ends with the connection
      body.push(null);
    };
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    socket.setTimeout(input.idleTimeoutMs);
    socket.on('timeout', onTimeout).on('error', onError).on('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });

    const lines = [
      `GET ${input.path} HTTP/1.1`,
      `host: ${input.host}`,
      ...Object.entries(input.headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (!pool) lines.push('connection: close');
    socket.write(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    if (kept) socket._read(0); // an idle connection may have stopped reading
  });
}

/** Status line and header fields; set-cookie stays a list, other repeats are joined. */
export function parseHead(raw: Buffer): {
  status: number;
  version: string;
  headers: Record<string, string | string[] | undefined>;
  length: number | null;
} {
  const [statusLine, ...fields] = raw.toString('latin1').split('\r\n');
  const m = /^HTTP\/(1\.[01]) (\d{3})(?: .*)?$/.exec(statusLine);
  if (!m) throw broken();
  const headers: Record<string, string | string[] | undefined> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).toLowerCase();
    if (colon <= 0 || !TOKEN.test(name)) throw broken();
    const value = field.slice(colon + 1).trim();
    const prev = headers[name];
    if (name === 'set-cookie') headers[name] = [...((prev as string[] | undefined) ?? []), value];
    else headers[name] = prev === undefined ? value : `${prev as string}, ${value}`;
  }
  let length: number | null = null;
  const cl = headers['content-length'];
  if (cl !== undefined) {
    // Repeated equal values are tolerated (RFC 9110 8.6); anything else is a broken answer.
    const values = new Set((cl as string).split(',').map((v) => v.trim()));
    const [only] = values;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only)) throw broken();
    length = Number(only);
  }
  return { status: Number(m[2]), version: m[1], headers, length };
}
