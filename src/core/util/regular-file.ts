import fs from 'node:fs';
import path from 'node:path';

/**
 * Files named by the user (a catalog, a PII policy) are read only when they are regular files. A pipe would block the
 * read until a writer comes, in the main thread, where no signal handler can run; a device such as /dev/zero never
 * ends; a directory fails later with a less clear code. The file is opened without blocking and checked through its
 * own descriptor, so what is checked is what is read.
 */

/** The code of the error thrown for a path that exists and is not a regular file. */
export const NOT_REGULAR = 'ENOTREG';

function notRegular(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${file} is not a regular file (a directory, device or pipe)`), { code: NOT_REGULAR, path: file });
}

/** Reads a regular file whole; throws the usual fs errors, or one with code ENOTREG for anything else. */
export function readRegularFile(file: string): Buffer {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    if (!fs.fstatSync(fd).isFile()) throw notRegular(file);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether a path exists as something other than a regular file (after symbolic links); false when it is absent. */
export function existsNotRegular(file: string): boolean {
  try {
    return !fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `p` or the closest folder above it that exists. */
export function nearestExisting(p: string): string {
  let cur = path.resolve(p);
  while (!fs.existsSync(cur) && path.dirname(cur) !== cur) cur = path.dirname(cur);
  return cur;
}

/**
 * What stands where the folder `p` should be: the closest existing path at or above `p` when that is not a directory
 * (a file named like the folder or like one above it); null when it is a directory.
 */
export function nonDirectoryInTheWay(p: string): string | null {
  const near = nearestExisting(p);
  try {
    return fs.statSync(near).isDirectory() ? null : near;
  } catch {
    return null;
  }
}
