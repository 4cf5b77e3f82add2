import fs from 'node:fs';

/**
 * Writes every byte of `data` at the file's current position, or throws. `fs.writeSync` may write less than it is
 * given (a disk that fills up mid-write, a file-size limit) and report only the count; a caller that ignores it keeps
 * a truncated file it believes whole. Every write of a file this program must be able to read back goes through here.
 */
export function writeAll(fd: number, data: Uint8Array | string): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < buf.length) {
    const n = fs.writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw Object.assign(new Error(`write stopped after ${off} of ${buf.length} bytes (no space left?)`), { code: 'ENOSPC' });
    off += n;
  }
}
