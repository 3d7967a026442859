// A stand-in for the whisper.cpp model host on 127.0.0.1, speaking as huggingface.co does: the
// file's address answers 302 to its CDN (another host, re-routed here too by UPSTREAM_HOST_MAP),
// which serves the bytes with Range support (206 + Content-Range). `cutAfter` drops the connection
// after that many bytes of the next answer, as a flaky network would; `holdAfter` sends that many
// bytes of the next answer and waits for `release()` before the rest (a download in progress).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeModelHost {
  origin: string;
  /** UPSTREAM_HOST_MAP for the model host and its CDN. */
  hostMap: Record<string, string>;
  /** Range headers received by the CDN, in order ('' when none). */
  ranges: string[];
  /** Every request received, both hosts (the whole count of outbound requests to the model host). */
  requests: string[];
  /** Drop the next answer's connection after this many body bytes. */
  cutAfter(bytes: number): void;
  /** Send this many body bytes of the next answer, then wait for `release()`. */
  holdAfter(bytes: number): void;
  release(): void;
  close(): Promise<void>;
}

export async function startFakeModelHost(files: Record<string, string>): Promise<FakeModelHost> {
  const ranges: string[] = [];
  const requests: string[] = [];
  let cut: number | null = null;
  let hold: number | null = null;
  let released: () => void = () => {};
  let releasedNow = new Promise<void>((r) => {
    released = r;
  });
  const server = http.createServer((req, res) => {
    requests.push(`${req.headers.host}${req.url}`);
    const url = new URL(req.url ?? '/', 'http://x');
    const resolve = url.pathname.match(/^\/ggerganov\/whisper\.cpp\/resolve\/main\/([^/]+)$/);
    if (resolve && req.headers.host === 'huggingface.co') {
      res.writeHead(302, { location: `https://cas-bridge.xethub.hf.co/xet/${resolve[1]}?sig=1` });
      return res.end();
    }
    const cdn = url.pathname.match(/^\/xet\/([^/]+)$/);
    const file = cdn && req.headers.host === 'cas-bridge.xethub.hf.co' ? files[cdn[1]] : undefined;
    if (!file) {
      res.writeHead(404);
      return res.end('Entry not found');
    }
    const size = fs.statSync(file).size;
    const range = String(req.headers.range ?? '');
    ranges.push(range);
    const from = Number(range.match(/^bytes=(\d+)-$/)?.[1] ?? 0);
    if (from >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` });
      return res.end();
    }
    res.writeHead(range ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(size - from),
      ...(range ? { 'content-range': `bytes ${from}-${size - 1}/${size}` } : {}),
    });
    if (hold !== null) {
      const first = Math.min(hold, size - from);
      hold = null;
      const head = fs.createReadStream(file, { start: from, end: from + first - 1 });
      head.pipe(res, { end: false });
      head.on('end', () => {
        void releasedNow.then(() => fs.createReadStream(file, { start: from + first }).pipe(res));
      });
      return;
    }
    const limit = cut;
    cut = null;
    const stream = fs.createReadStream(file, { start: from, end: limit === null ? size - 1 : from + limit - 1 });
    stream.pipe(res, { end: limit === null });
    // end(), not destroy(): the bytes written so far still arrive, then the connection closes early.
    if (limit !== null) stream.on('end', () => res.socket?.end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hostMap: { 'huggingface.co': origin, '*.hf.co': origin },
    ranges,
    requests,
    cutAfter: (bytes) => {
      cut = bytes;
    },
    holdAfter: (bytes) => {
      hold = bytes;
      releasedNow = new Promise<void>((r) => {
        released = r;
      });
    },
    release: () => released(),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
