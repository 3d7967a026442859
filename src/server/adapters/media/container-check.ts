// Whether an uploaded file was cut off, judged by the file itself (issue 36): the sizes its container
// declares against the bytes present. An MP4/MOV is a chain of top-level boxes, each with its size, and
// always has a `moov`; a WebM/Matroska file declares its Segment's size (unless it was recorded live).
// The sound's length says nothing about this: phone editors often end the sound before the picture.
import fs from 'node:fs/promises';

/** `unknown`: the container does not say (a live-recorded WebM) or is not one we can walk. */
export type ContainerVerdict = 'whole' | 'cut' | 'unknown';

/** Past this many top-level boxes (a fragmented file has two per fragment) the walk stops: cost stays bounded. */
const MAX_BOXES = 100_000;
const BOX_TYPE = /^[\x20-\x7e]{4}$/;
/** The boxes an MP4 / MOV starts with (as looksLikeVideo in upload-check.ts). */
const FIRST_BOX = /^(ftyp|moov|mdat|wide|free|skip|pnot)$/;

async function readAt(fh: fs.FileHandle, at: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, at);
  return buf.subarray(0, bytesRead);
}

async function isoVerdict(fh: fs.FileHandle, size: number): Promise<ContainerVerdict> {
  let at = 0;
  let moov = false;
  for (let n = 0; n < MAX_BOXES; n++) {
    if (at === size) return moov ? 'whole' : 'cut'; // a cut before `moov` was written (it goes last by default)
    const head = await readAt(fh, at, 16);
    if (head.length < 8) return 'cut'; // a box header itself cut
    const type = head.toString('latin1', 4, 8);
    if (!BOX_TYPE.test(type)) return 'unknown'; // garbage, not a cut MP4
    let boxSize = head.readUInt32BE(0);
    if (boxSize === 1) {
      if (head.length < 16) return 'cut';
      boxSize = Number(head.readBigUInt64BE(8));
    } else if (boxSize === 0) boxSize = size - at; // "to the end of the file"
    if (boxSize < 8) return 'unknown';
    if (at + boxSize > size) return 'cut';
    if (type === 'moov') moov = true;
    at += boxSize;
  }
  return 'unknown';
}

/** An EBML variable-length integer at `at`: its length in bytes and value (null when "unknown size"). */
function vint(buf: Buffer, at: number, keepMarker: boolean): { len: number; value: number | null } | null {
  const first = buf[at];
  if (first === undefined || first === 0) return null;
  const len = Math.clz32(first) - 23;
  if (at + len > buf.length) return null;
  let value = keepMarker ? first : first & (0xff >> len);
  let allOnes = value === 0xff >> len;
  for (let i = 1; i < len; i++) {
    value = value * 256 + buf[at + i];
    allOnes &&= buf[at + i] === 0xff;
  }
  return { len, value: !keepMarker && allOnes ? null : value };
}

async function matroskaVerdict(fh: fs.FileHandle, size: number): Promise<ContainerVerdict> {
  const head = await readAt(fh, 0, 4096);
  const headerId = vint(head, 0, true);
  const headerSize = headerId && vint(head, headerId.len, false);
  if (!headerId || !headerSize || headerSize.value === null) return 'unknown';
  const segmentAt = headerId.len + headerSize.len + headerSize.value;
  const segmentId = vint(head, segmentAt, true);
  if (!segmentId) return segmentAt >= size ? 'cut' : 'unknown';
  if (segmentId.value !== 0x18538067) return 'unknown';
  const segmentSize = vint(head, segmentAt + segmentId.len, false);
  if (!segmentSize) return 'cut';
  if (segmentSize.value === null) return 'unknown'; // live-recorded: the size was never written
  return segmentAt + segmentId.len + segmentSize.len + segmentSize.value > size ? 'cut' : 'whole';
}

export async function containerVerdict(file: string): Promise<ContainerVerdict> {
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const magic = await readAt(fh, 0, 8);
    if (magic.length >= 4 && magic.readUInt32BE(0) === 0x1a45dfa3) return await matroskaVerdict(fh, size);
    if (magic.length >= 8 && FIRST_BOX.test(magic.toString('latin1', 4, 8))) return await isoVerdict(fh, size);
    return 'unknown';
  } finally {
    await fh.close();
  }
}
