/**
 * The fake TikTok's media CDN (docs/sources.md 'TikTok video page'): files by path, 403 without the page's
 * `tt_chain_token` cookie and a www.tiktok.com Referer (or once a signed link expired), ranges,
 * pacing, cuts and held last bytes, and a record of every transfer. fake-tiktok.ts routes to it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import type net from 'node:net';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { patternStream } from './media.js';

export type Media = { file: string } | { size: number } | { bytes: Buffer };
export interface Served {
  media: Media;
  contentType: string;
  cookieRule: boolean;
  cutAfterBytes?: number;
  bytesPerSecond?: number;
  /** The response waits for this before its head is sent. */
  answerAfter?: Promise<void>;
  /** The body's last byte waits for this: a transfer a test holds open for as long as it needs. */
  lastByteAfter?: Promise<void>;
  /** Called once a cut response's connection was dropped. */
  onCut?: () => void;
}

/**
 * One CDN response body. `completed`: every byte was written to the socket, which is not proof the
 * client read them: the kernel's socket buffers (several MB on loopback, more on a kept-alive
 * connection whose buffers grew) can hold a whole file the client never reads. `reset`: the client
 * closed the connection with part of this response unread (the kernel answers that with a TCP
 * reset), so it dropped the rest. A file the client took whole is `completed && !reset`.
 */
export interface Transfer {
  path: string;
  status: number;
  bytesSent: number;
  completed: boolean;
  aborted: boolean;
  reset: boolean;
}

export function mediaSize(m: Media): number {
  if ('file' in m) return fs.statSync(m.file).size;
  if ('bytes' in m) return m.bytes.length;
  return m.size;
}

export function createCdn() {
  const served = new Map<string, Served>(); // CDN path -> media
  const expiring = new Set<string>(); // ids whose links the CDN checks for expiry
  const tokens = new Set<string>();
  const transfers: Transfer[] = [];

  /** The cookies a page sets; the CDN accepts the `tt_chain_token` they carry. */
  function setCookies(res: http.ServerResponse) {
    const token = crypto.randomBytes(24).toString('base64url');
    tokens.add(token);
    const exp = new Date(Date.now() + 180 * 86400_000).toUTCString();
    res.setHeader('set-cookie', [
      `tt_chain_token=${token}; Domain=.tiktok.com; Path=/; Secure; Expires=${exp}`,
      `ttwid=1%7C${crypto.randomBytes(12).toString('hex')}; Domain=.tiktok.com; Path=/; Secure; HttpOnly; Expires=${exp}`,
      `tt_csrf_token=${crypto.randomBytes(8).toString('hex')}; Path=/; Secure; HttpOnly; SameSite=Lax`,
    ]);
  }

  async function serveMedia(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, s: Served) {
    const expire = Number(/[?&]expire=(\d+)/.exec(req.url ?? '')?.[1]);
    if ([...expiring].some((id) => pathname.includes(`/${id}/`)) && expire < Date.now() / 1000) {
      res.writeHead(403, { 'content-type': 'text/html' });
      return res.end('<h1>Access Denied</h1>');
    }
    if (s.cookieRule) {
      const cookie = /(?:^|;\s*)tt_chain_token=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      const referer = req.headers.referer ?? '';
      if (!cookie || !tokens.has(cookie) || !/^https:\/\/www\.tiktok\.com\//.test(referer)) {
        res.writeHead(403, { 'content-type': 'text/html' });
        return res.end('<h1>Access Denied</h1>');
      }
    }
    const size = mediaSize(s.media);
    let start = 0;
    let end = size;
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    const headers: Record<string, string | number> = { 'content-type': s.contentType, 'accept-ranges': 'bytes' };
    if (range && (range[1] || range[2])) {
      start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      end = range[1] && range[2] ? Math.min(size, Number(range[2]) + 1) : size;
      if (start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}` });
        return res.end();
      }
      headers['content-range'] = `bytes ${start}-${end - 1}/${size}`;
    }
    headers['content-length'] = end - start;
    if (s.answerAfter) await s.answerAfter;
    res.writeHead(range && (range[1] || range[2]) ? 206 : 200, headers);
    if (req.method === 'HEAD') return res.end();
    const t: Transfer = {
      path: pathname,
      status: res.statusCode,
      bytesSent: 0,
      completed: false,
      aborted: false,
      reset: false,
    };
    transfers.push(t);
    watchReset(req.socket, t);
    const stop = s.cutAfterBytes !== undefined ? Math.min(end, start + s.cutAfterBytes) : end;
    const media = s.media;
    const body = (from: number, to: number) => {
      const source =
        'file' in media
          ? fs.createReadStream(media.file, { start: from, end: to - 1 })
          : 'bytes' in media
            ? patternlessBytes(media.bytes, from, to)
            : patternStream(from, to);
      source.on('data', (c: Buffer) => (t.bytesSent += c.length));
      return s.bytesPerSecond
        ? pipeline(source, throttle(s.bytesPerSecond), res, { end: false })
        : pipeline(source, res, { end: false });
    };
    res.on('close', () => {
      if (!t.completed) t.aborted = true;
    });
    try {
      const held = s.lastByteAfter && stop === end && stop - start > 1 ? stop - 1 : stop;
      await body(start, held);
      if (held < stop) {
        await s.lastByteAfter;
        await body(held, stop);
      }
      if (stop < end) {
        res.destroy(); // cut: the connection drops before Content-Length is reached
        return s.onCut?.();
      }
      t.completed = true;
      res.end();
    } catch {
      t.aborted = true;
    }
  }

  // The latest transfer on each (kept-alive) connection: a reset concerns that one.
  const latest = new WeakMap<net.Socket, Transfer>();
  function watchReset(socket: net.Socket, t: Transfer) {
    if (!latest.has(socket))
      socket.once('close', (hadError) => {
        if (hadError) latest.get(socket)!.reset = true;
      });
    latest.set(socket, t);
  }

  return { served, expiring, transfers, setCookies, serveMedia };
}

function patternlessBytes(buf: Buffer, start: number, end: number) {
  return Readable.from([buf.subarray(start, end)]);
}

/** Paces a body: slices of at most 1/20 s of bytes, each sent when due (a slow CDN trickles, it does not stall). */
function throttle(bytesPerSecond: number) {
  const started = Date.now();
  const slice = Math.max(1024, Math.floor(bytesPerSecond / 20));
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      const next = (at: number) => {
        if (at >= chunk.length) {
          cb();
          return;
        }
        const part = chunk.subarray(at, at + slice);
        sent += part.length;
        const due = started + (sent / bytesPerSecond) * 1000;
        setTimeout(
          () => {
            this.push(part);
            next(at + part.length);
          },
          Math.max(0, due - Date.now()),
        );
      };
      next(0);
    },
  });
}
