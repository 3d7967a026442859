// The frame size and length of an MP4 from its own header (`moov`: the video track's `tkhd`, the
// movie's `mvhd`), read from a few byte ranges of the file instead of the whole of it. Linear in
// the bytes given, bounded nesting; a box that does not add up ends the walk (hostile input).

export interface Mp4Frame {
  width: number | null;
  height: number | null;
  /** Seconds; 0 when the header does not say. */
  duration: number;
}

/**
 * Where to look next: `frame` once `moov` was read; `next` (absolute offset and bytes wanted) when
 * the walk needs bytes past `buf`; null when the file cannot tell (not an MP4, a box that lies).
 */
export type Mp4Walk = { frame: Mp4Frame } | { next: { offset: number; length: number } } | null;

/** The size of `moov` this reader accepts; larger headers (hours of samples) are not read. */
export const MOOV_MAX = 4 * 1024 * 1024;

interface Box {
  type: string;
  start: number; // of its content, relative to buf
  end: number; // relative to buf, may exceed buf.length
  size: number;
}

function boxAt(buf: Buffer, at: number): Box | null {
  if (at + 8 > buf.length) return null;
  let size = buf.readUInt32BE(at);
  const type = buf.toString('latin1', at + 4, at + 8);
  let header = 8;
  if (size === 1) {
    if (at + 16 > buf.length) return null;
    size = Number(buf.readBigUInt64BE(at + 8));
    header = 16;
  }
  if (size < header) return null; // 0 (to the end of the file) or a lie: nothing to walk past
  return { type, start: at + header, end: at + size, size };
}

function* children(buf: Buffer, start: number, end: number): Generator<Box> {
  let at = start;
  while (at + 8 <= end) {
    const box = boxAt(buf, at);
    if (!box || box.end > end) return;
    yield box;
    at = box.end;
  }
}

/** The video track's display size (a 90° rotation turns it), or null when the track is not video. */
function trackSize(buf: Buffer, trak: Box): { width: number; height: number } | null {
  let size: { width: number; height: number } | null = null;
  let video = false;
  for (const box of children(buf, trak.start, trak.end)) {
    if (box.type === 'tkhd') {
      const v1 = buf[box.start] === 1;
      const matrix = box.start + (v1 ? 52 : 40);
      if (matrix + 44 > box.end) continue;
      const a = buf.readInt32BE(matrix);
      const b = buf.readInt32BE(matrix + 4);
      const w = Math.round(buf.readUInt32BE(matrix + 36) / 65536);
      const h = Math.round(buf.readUInt32BE(matrix + 40) / 65536);
      if (w > 0 && h > 0) size = a === 0 && b !== 0 ? { width: h, height: w } : { width: w, height: h };
    }
    if (box.type === 'mdia')
      for (const m of children(buf, box.start, box.end))
        if (m.type === 'hdlr' && m.start + 12 <= m.end)
          video = buf.toString('latin1', m.start + 8, m.start + 12) === 'vide';
  }
  return video ? size : null;
}

function readMoov(buf: Buffer, moov: Box): Mp4Frame {
  const frame: Mp4Frame = { width: null, height: null, duration: 0 };
  for (const box of children(buf, moov.start, moov.end)) {
    if (box.type === 'mvhd' && box.start + 32 <= box.end) {
      const v1 = buf[box.start] === 1;
      const scale = buf.readUInt32BE(box.start + (v1 ? 20 : 12));
      const length = v1 ? Number(buf.readBigUInt64BE(box.start + 24)) : buf.readUInt32BE(box.start + 16);
      if (scale > 0 && Number.isFinite(length / scale)) frame.duration = Math.round((length / scale) * 1000) / 1000;
    }
    if (box.type === 'trak' && frame.width === null) {
      const size = trackSize(buf, box);
      if (size) Object.assign(frame, size);
    }
  }
  return frame;
}

/**
 * Walks the top-level boxes of `buf`, which holds the file's bytes from absolute offset `base`.
 * A `moov` after the media (`mdat`) is asked for by its offset; one cut short by `buf`, whole.
 */
export function walkMp4(buf: Buffer, base: number, fileSize: number | null): Mp4Walk {
  let at = 0;
  while (at < buf.length) {
    if (at + 16 > buf.length) return { next: { offset: base + at, length: 64 * 1024 } };
    const box = boxAt(buf, at);
    if (!box) return null;
    if (box.type === 'moov') {
      if (box.size > MOOV_MAX) return null;
      if (box.end > buf.length) return { next: { offset: base + at, length: box.size } };
      return { frame: readMoov(buf, box) };
    }
    at = box.end; // ftyp, free, mdat...: the next box starts after it
  }
  if (fileSize !== null && base + at >= fileSize) return null;
  return { next: { offset: base + at, length: 64 * 1024 } };
}
