// The video's frame size and length, read from the uploaded MP4's own header on the author's PDS
// with byte ranges (a faststart file: one range; `moov` at the end: one more), never the whole
// file. The record's aspectRatio is not the frame size (often a reduced ratio), so the card would
// otherwise say "Unknown". A failure here costs the card its size, never the lookup.
import type { HttpClient } from '../../adapters/http/index.js';
import { type Mp4Frame, walkMp4 } from '../../lib/mp4-frame.js';

const FIRST_RANGE = 64 * 1024;
const MAX_STEPS = 3;

export async function probeVideoFrame(
  http: HttpClient,
  url: string,
  o: { fileSize: number | null; signal?: AbortSignal },
): Promise<Mp4Frame | null> {
  const allow = [new URL(url).hostname];
  let offset = 0;
  let length = FIRST_RANGE;
  let fileSize = o.fileSize;
  for (let step = 0; step < MAX_STEPS; step++) {
    try {
      const res = await http.request(url, {
        allow,
        signal: o.signal,
        maxRedirects: 3,
        headers: { accept: 'video/mp4', range: `bytes=${offset}-${offset + length - 1}` },
      });
      // A server that ignores the range sends the whole file: read no further than asked.
      if (res.status !== 206 && !(res.status === 200 && offset === 0)) {
        res.body.destroy();
        return null;
      }
      const total = /\/(\d+)$/.exec(res.header('content-range') ?? '');
      if (total) fileSize = Number(total[1]);
      const buf = await readUpTo(res.body, length);
      const walk = walkMp4(buf, offset, fileSize);
      if (!walk) return null;
      if ('frame' in walk) return walk.frame;
      ({ offset, length } = walk.next);
    } catch {
      return null;
    }
  }
  return null;
}

/** The first `limit` bytes of a body; the rest is not read (the connection is dropped). */
async function readUpTo(body: NodeJS.ReadableStream & { destroy(): void }, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= limit) break;
  }
  body.destroy();
  return Buffer.concat(chunks, length).subarray(0, limit);
}
