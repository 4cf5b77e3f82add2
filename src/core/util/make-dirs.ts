import fs from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p`: the missing directories of `dir`, each created with `mode`. Returns the first directory it created
 * (undefined when all existed), as `fs.mkdirSync(dir, { recursive: true })` does. Node's own recursive mkdir retries a
 * parent that exists but refuses children with ENOENT (anything under /proc) without end, in one synchronous call no
 * signal interrupts; here the first directory found is the last one tried, and a refusal is thrown with its code.
 */
export function makeDirs(dir: string, mode?: number): string | undefined {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    let st: fs.Stats | null = null;
    try {
      st = fs.statSync(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (st) {
      if (!st.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
      break;
    }
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  let first: string | undefined;
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, mode === undefined ? undefined : { mode });
      first ??= d;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; // another process made it meanwhile
    }
  }
  return first;
}
