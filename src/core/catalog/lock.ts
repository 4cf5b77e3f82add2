import fs from 'node:fs';
import path from 'node:path';
import { CatalogError } from './store';
import { processAlive } from '../util/process';

/**
 * Single-writer lock for the catalog: `<catalog>.lock` created with O_EXCL holding the owner's pid. A lock whose
 * owner is no longer alive (an indexer killed with SIGKILL) is taken over, so a crash never wedges indexing.
 */


export interface CatalogLock {
  release(): void;
}

export async function acquireCatalogLock(catalogPath: string, timeoutMs = 30_000): Promise<CatalogLock> {
  const lockPath = `${catalogPath}.lock`;
  try {
    fs.mkdirSync(path.dirname(catalogPath), { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new CatalogError('io', `cannot create the catalog directory ${path.dirname(catalogPath)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.rmSync(lockPath, { force: true });
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CatalogError('io', `cannot create lock ${lockPath}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
    }
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(lockPath, 'utf8'));
    } catch {
      continue;
    }
    if (!Number.isFinite(owner) || owner <= 0 || !processAlive(owner)) {
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new CatalogError('locked', `catalog is being written by process ${owner} (lock ${lockPath}); try again when it finishes`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
