// Renders media/icon.png (128x128, the Marketplace icon; vsce requires PNG) without image dependencies:
// a database cylinder on the banner colour, rasterised with 4x4 supersampling and written with zlib.
import fs from 'node:fs';
import zlib from 'node:zlib';

const N = 128, S = 4;
const bg = [0x1e, 0x2a, 0x3a], fg = [0x5e, 0xc8, 0xf2], fg2 = [0xf2, 0xb8, 0x5e];
const inEllipse = (x, y, cx, cy, rx, ry) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
function colorAt(x, y) {
  const cx = 64, rx = 40, ry = 12;
  const rounded = (x < 8 || x > 120 || y < 8 || y > 120) && Math.hypot(Math.max(8 - x, x - 120, 0), Math.max(8 - y, y - 120, 0)) > 8;
  if (rounded) return null;
  for (const top of [30, 58, 86]) {
    if (inEllipse(x, y, cx, top, rx, ry) && !inEllipse(x, y, cx, top, rx - 4, ry - 3)) return fg;
    if (y >= top && y <= top + 28 && (Math.abs(x - (cx - rx)) < 2.2 || Math.abs(x - (cx + rx)) < 2.2) && top < 86) return fg;
  }
  if (inEllipse(x, y, cx, 114, rx, ry) && y > 114 && !inEllipse(x, y, cx, 114, rx - 4, ry - 3)) return fg;
  if (Math.hypot(x - 96, y - 98) < 13 && Math.hypot(x - 96, y - 98) > 7) return fg2;
  return bg;
}
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) {
  raw[y * (N * 4 + 1)] = 0;
  for (let x = 0; x < N; x++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < S; sy++) for (let sx = 0; sx < S; sx++) {
      const c = colorAt(x + (sx + 0.5) / S, y + (sy + 0.5) / S);
      if (c) { r += c[0]; g += c[1]; b += c[2]; a += 255; }
    }
    const n = S * S, o = y * (N * 4 + 1) + 1 + x * 4;
    const cov = a / 255 || 1;
    raw[o] = r / cov; raw[o + 1] = g / cov; raw[o + 2] = b / cov; raw[o + 3] = a / n;
  }
}
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(N, 0); ihdr.writeUInt32BE(N, 4); ihdr[8] = 8; ihdr[9] = 6;
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
fs.writeFileSync(new URL('../../media/icon.png', import.meta.url), png);
console.log('media/icon.png', png.length, 'bytes');
