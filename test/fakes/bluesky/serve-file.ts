// How the fake Bluesky's PDS and CDNs send a file: whole or by byte range, optionally paced, or
// trickled a few bytes at a time (fake-bluesky.ts).
import fs from 'node:fs';
import type http from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Served {
  file: string;
  type: string;
}

export async function send(req: http.IncomingMessage, res: http.ServerResponse, s: Served, bytesPerSecond = 0) {
  const size = fs.statSync(s.file).size;
  const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
  const start = range ? Number(range[1]) : 0;
  const end = range?.[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size) return res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
  res.writeHead(range ? 206 : 200, {
    'content-type': s.type,
    'content-length': end - start + 1,
    ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  const stream = fs.createReadStream(s.file, { start, end, highWaterMark: 256 * 1024 });
  await pipeline(bytesPerSecond ? stream.pipe(pace(bytesPerSecond)) : stream, res).catch(() => res.destroy());
}

export function trickle(
  res: http.ServerResponse,
  s: Served,
  o: { bytes: number; everyMs: number },
  state: { trickling: number },
) {
  const bytes = fs.readFileSync(s.file);
  res.writeHead(200, { 'content-type': s.type, 'content-length': bytes.length }).flushHeaders(); // headers at once
  state.trickling++;
  let sent = 0;
  const timer = setInterval(() => {
    res.write(bytes.subarray(sent, sent + o.bytes));
    sent += o.bytes;
    if (sent >= bytes.length) res.end();
  }, o.everyMs);
  res.once('close', () => {
    clearInterval(timer);
    state.trickling--;
  });
}

/** Paces a stream at `bytesPerSecond` from its first byte. */
function pace(bytesPerSecond: number) {
  const started = Date.now();
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      sent += chunk.length;
      setTimeout(() => cb(null, chunk), Math.max(0, started + (sent / bytesPerSecond) * 1000 - Date.now()));
    },
  });
}
