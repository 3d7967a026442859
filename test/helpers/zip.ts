// Reading the ZIP files the product sends (photo posts, batches), entry by entry, in order.
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  bytes: Buffer;
  /** 0: stored, 8: deflated. */
  method: number;
}

export async function zipEntries(zipBytes: Buffer): Promise<ZipEntry[]> {
  const zip = await new Promise<yauzl.ZipFile>((ok, no) =>
    yauzl.fromBuffer(zipBytes, { lazyEntries: true }, (err, z) => (err ? no(err) : ok(z!))),
  );
  const out: ZipEntry[] = [];
  await new Promise<void>((ok, no) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (err, stream) => {
        if (err) return no(err);
        const parts: Buffer[] = [];
        stream!
          .on('data', (c: Buffer) => parts.push(c))
          .on('end', () => {
            out.push({ name: entry.fileName, bytes: Buffer.concat(parts), method: entry.compressionMethod });
            zip.readEntry();
          });
      }),
    );
    zip.on('end', ok).on('error', no);
    zip.readEntry();
  });
  return out;
}
