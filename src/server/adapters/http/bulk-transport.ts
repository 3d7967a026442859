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
 * One connection per request (`connection: close`). Responses this transport does not frame
 * itself (`transfer-encoding`) are refused with BulkUnsupported before any body byte is read; the
 * caller then repeats the request through undici.
 */
import net from 'node:net';
import tls from 'node:tls';
import { Readable } from 'node:stream';
import { HttpClientError } from './http-errors.js';

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
}

export class BulkUnsupported extends Error {}

const SLAB = 256 * 1024;
const MIN_READ = 64 * 1024;
const HEAD_MAX = 64 * 1024;
const STALL_FACTOR = 4;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const tooSlow = () => new HttpClientError('timeout', 'The site took too long to answer.');
const broken = () => new HttpClientError('unavailable', 'The site answered with a broken response.');

export function bulkGet(input: BulkGetInput): Promise<UpstreamResponse> {
  const { target, signal } = input;
  for (const [name, value] of Object.entries(input.headers)) {
    // Values come from our code and from cookies a site set: never let one end the request head.
    if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) return Promise.reject(new HttpClientError('blocked', 'A request header is not valid.'));
  }
  if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));

  return new Promise<UpstreamResponse>((resolve, reject) => {
    let slab = Buffer.allocUnsafe(SLAB);
    let offset = 0;
    let head: Buffer | null = Buffer.alloc(0);
    let body: Readable | null = null;
    let expected: number | null = null;
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
        reject(err);
      } else body?.destroy(err);
      socket.destroy();
    };

    const onread = {
      // Successive reads fill one slab; each chunk handed on is a view of it (no copy, no reuse).
      buffer: () => {
        if (SLAB - offset < MIN_READ) {
          slab = Buffer.allocUnsafe(SLAB);
          offset = 0;
        }
        return slab.subarray(offset);
      },
      callback: (n: number, buf: Uint8Array): boolean => {
        const chunk = Buffer.from(buf.buffer, buf.byteOffset, n);
        offset += n;
        if (body) return deliver(chunk);
        head = Buffer.concat([head!, chunk]);
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
        body = new Readable({
          highWaterMark: 128 * 1024,
          read: () => {
            waiting = false;
            clearTimeout(stallTimer);
            if (idleWhileWaiting) socket.setTimeout(input.idleTimeoutMs); // re-arm: an idle timer does not restart by itself
            idleWhileWaiting = false;
            // Returning false from onread stopped the socket handle; the socket is never consumed as
            // a stream, so restart the handle directly rather than through its stream state.
            socket._read(0);
          },
          destroy: (err, cb) => {
            socket.destroy();
            cb(err);
          },
        });
        body.on('error', () => {}); // consumers see errors through their own pipeline
        settled = true;
        resolve({ statusCode: parsed.status, headers: parsed.headers, body });
        return rest.length ? deliver(rest) : expected === 0 ? (finish(), false) : true;
      },
    };

    function deliver(chunk: Buffer): boolean {
      if (expected !== null && received + chunk.length >= expected) {
        // Bytes past the announced length are not part of this file.
        const last = chunk.subarray(0, expected - received);
        received = expected;
        if (last.length) body!.push(last);
        finish();
        return false;
      }
      received += chunk.length;
      waiting = !body!.push(chunk);
      return !waiting;
    }

    function finish() {
      ended = true;
      body!.push(null);
      socket.destroy();
    }

    const options = { host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port) || (target.protocol === 'https:' ? 443 : 80), lookup: input.lookup, onread };
    const socket: net.Socket =
      target.protocol === 'https:'
        ? tls.connect({ ...options, servername: net.isIP(options.host) ? undefined : options.host, ALPNProtocols: ['http/1.1'] })
        : net.connect(options);

    const connectTimer = setTimeout(() => fail(tooSlow()), input.connectTimeoutMs);
    const headTimer = setTimeout(() => fail(tooSlow()), input.connectTimeoutMs + input.headersTimeoutMs);
    socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    socket.setTimeout(input.idleTimeoutMs, () => {
      if (!waiting) return fail(tooSlow());
      // The reader, not the site, is idle. A slow reader still asks for more now and then; one that
      // asks for nothing for STALL_FACTOR idle periods is gone (or hostile): free the connection.
      idleWhileWaiting = true;
      stallTimer = setTimeout(() => fail(new HttpClientError('timeout', 'The download stalled: nothing was read for too long.')), input.idleTimeoutMs * (STALL_FACTOR - 1));
    });
    socket.on('error', (err) => fail(err));
    socket.on('close', () => {
      clearTimeout(connectTimer);
      clearTimeout(stallTimer);
      if (!settled) return fail(new HttpClientError('unavailable', 'The site closed the connection.'));
      if (!body || ended || body.destroyed) return;
      if (expected !== null) return void body.destroy(new Error(`premature close: ${received} of ${expected} bytes`));
      ended = true; // length unknown: the body ends with the connection
      body.push(null);
    });
    const onAbort = () => fail(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('close', () => signal?.removeEventListener('abort', onAbort));

    const lines = [`GET ${input.path} HTTP/1.1`, `host: ${input.host}`, ...Object.entries(input.headers).map(([k, v]) => `${k}: ${v}`), 'connection: close'];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  });
}

/** Status line and header fields; set-cookie stays a list, other repeats are joined. */
export function parseHead(raw: Buffer): { status: number; headers: Record<string, string | string[] | undefined>; length: number | null } {
  const [statusLine, ...fields] = raw.toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
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
  return { status: Number(m[1]), headers, length };
}
