// The app icons (192 and 512 px PNG) drawn at build time with zlib alone: nothing is downloaded and
// no image library is needed. A pink-to-violet square with a white download arrow, the logo's look.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** RGB pixel for (x, y) in a size×size icon; the arrow stays inside the maskable safe zone. */
function pixel(x, y, size) {
  const u = x / size;
  const v = y / size;
  const t = (u + v) / 2; // diagonal gradient: pink-500 (236,72,153) to violet-600 (124,58,237)
  const bg = [236 + (124 - 236) * t, 72 + (58 - 72) * t, 153 + (237 - 153) * t];
  const stem = u > 0.44 && u < 0.56 && v > 0.26 && v < 0.52;
  const head = v >= 0.46 && v < 0.66 && Math.abs(u - 0.5) < 0.18 * (1 - (v - 0.46) / 0.2);
  const tray = v > 0.7 && v < 0.76 && u > 0.3 && u < 0.7;
  return stem || head || tray ? [255, 255, 255] : bg;
}

export function iconPng(size) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x++) {
      const [r, g, b] = pixel(x, y, size);
      row[1 + x * 3] = Math.round(r);
      row[2 + x * 3] = Math.round(g);
      row[3 + x * 3] = Math.round(b);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function writeIcons(outDir) {
  fs.mkdirSync(path.join(outDir, 'icons'), { recursive: true });
  for (const size of [192, 512]) fs.writeFileSync(path.join(outDir, 'icons', `icon-${size}.png`), iconPng(size));
}
