// Temporary work directories that are always removed: on success, on errors and when the client
// disconnects (the job's finally runs after the killed process has exited).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { AppError, fail, infrastructureError } from '../../errors.js';

export async function withTempDir<T>(root: string, fn: (dir: string) => Promise<T>): Promise<T> {
  await fsp.mkdir(root, { recursive: true });
  const dir = await fsp.mkdtemp(path.join(root, 'job-'));
  try {
    return await fn(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes a download to a file so ffmpeg can seek (moov-at-end MP4s fail on a pipe). Enforces a
 * byte limit and, when the upstream announced a length, that every byte arrived.
 */
export async function streamToFile(
  source: Readable,
  file: string,
  opts: { maxBytes: number; expectedBytes?: number | null; signal?: AbortSignal },
): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > opts.maxBytes) return cb(fail('media.too_large'));
      cb(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, fs.createWriteStream(file), { signal: opts.signal });
  } catch (err) {
    if (err instanceof AppError) throw err;
    const ours = infrastructureError(err);
    if (ours) throw ours; // disk full here is ours, not an incomplete upstream file
    if (opts.signal?.aborted) throw fail('request.aborted');
    throw fail('upstream.incomplete');
  }
  if (opts.expectedBytes && bytes < opts.expectedBytes) {
    throw fail('upstream.incomplete');
  }
  if (bytes === 0) throw fail('media.empty');
  return bytes;
}
