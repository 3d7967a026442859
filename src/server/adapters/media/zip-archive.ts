// A photo post's slides as one ZIP (issue 20): stored, not deflated (JPEGs do not shrink and a
// phone unpacks a stored archive at once), named in order `01.jpg`, `02.jpg`…
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export async function writeZip(entries: Array<{ file: string; name: string }>, output: string, signal?: AbortSignal): Promise<number> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addFile(e.file, e.name, { compress: false });
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(output), { signal });
  return fs.statSync(output).size;
}
