// A photo post's slides as one ZIP (issue 20): stored, not deflated (JPEGs do not shrink and a
// phone unpacks a stored archive at once), named in order `01.jpg`, `02.jpg`…
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export async function writeZip(
  entries: Array<{ file: string; name: string }>,
  output: string,
  signal?: AbortSignal,
): Promise<number> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addFile(e.file, e.name, { compress: false });
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(output), { signal });
  return fs.statSync(output).size;
}

/**
 * A stored ZIP written while its files are still being made (a repost kit): each entry's file is a
 * promise, and the archive waits for an entry only when it reaches it, so the ZIP is written
 * alongside the work that makes the later entries. Order ready entries first.
 */
export async function writeZipAsReady(
  entries: Array<{ name: string; file: Promise<string> }>,
  output: string,
  signal?: AbortSignal,
): Promise<number> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    zip.addReadStreamLazy(e.name, { compress: false }, (cb) => {
      e.file.then(
        (file) => cb(null, fs.createReadStream(file)),
        (err: Error) => cb(err, undefined as never),
      );
    });
  }
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(output), { signal });
  return fs.statSync(output).size;
}

/**
 * A stored ZIP streamed from files opened one after another (a batch's results, wherever the
 * media store keeps them), with its exact size known before the first byte.
 */
export async function streamZip(
  entries: Array<{ name: string; size: number; open(): Promise<Readable> }>,
): Promise<{ stream: Readable; size: number }> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    zip.addReadStreamLazy(e.name, { compress: false, size: e.size }, (cb) => {
      e.open().then(
        (s) => cb(null, s),
        (err: Error) => cb(err, undefined as never),
      );
    });
  }
  // yazl reports the final size when every entry's size is known (its typings omit the argument).
  const end = zip.end.bind(zip) as unknown as (options: object, sized: (total: number) => void) => void;
  const size = await new Promise<number>((resolve) => end({}, resolve));
  return { stream: zip.outputStream as unknown as Readable, size };
}
