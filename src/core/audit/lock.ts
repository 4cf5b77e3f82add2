import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { processAlive } from '../util/process';
import path from 'node:path';

/**
 * An inter-process lock file, for the audit writer's "read tail → hash → append → fsync" critical section.
 *
 * Node has no flock(2), so the lock is a file that appears atomically (see acquireLock) and records `pid`, host
 * and a random token. A lock whose owner is gone is broken: on this host when `kill(pid, 0)`
 * says the process no longer exists, and everywhere once the lock is older than `staleMs` (covers other hosts,
 * pid reuse and a holder stuck far longer than any fsync). Breaking renames the lock to a private name first and
 * only deletes it when the renamed file still carries the token that was judged stale, so two breakers cannot
 * both remove a lock that a third process has just taken.
 */

export interface LockOptions {
  /** Give up after this long (ms); the caller reports a typed `lock_timeout` error. */
  readonly timeoutMs: number;
  /** A lock older than this is stale whatever its pid says. */
  readonly staleMs: number;
}

export const DEFAULT_LOCK_OPTIONS: LockOptions = { timeoutMs: 5000, staleMs: 30_000 };

export class LockTimeoutError extends Error {
  constructor(readonly lockPath: string, readonly waitedMs: number) {
    super(`timed out after ${waitedMs} ms waiting for ${lockPath}`);
    this.name = 'LockTimeoutError';
  }
}

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

const HOST = os.hostname();

function parseOwner(text: string): Owner | undefined {
  const [pid, host, token] = text.split('\n');
  const p = Number(pid);
  if (!Number.isInteger(p) || p <= 0 || !host || !token) return undefined;
  return { pid: p, host, token };
}


function readLock(lockPath: string): { owner: Owner | undefined; ageMs: number } | undefined {
  try {
    const st = fs.statSync(lockPath);
    const owner = parseOwner(fs.readFileSync(lockPath, 'utf8'));
    return { owner, ageMs: Date.now() - st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** True when the lock was stale and has been removed (by us or by a concurrent breaker). */
function breakIfStale(lockPath: string, staleMs: number): boolean {
  const seen = readLock(lockPath);
  if (!seen) return true;
  const { owner, ageMs } = seen;
  // An owner-less file is a lock being written right now, unless it has been like that for staleMs.
  const stale = ageMs > staleMs || (owner !== undefined && owner.host === HOST && owner.pid !== process.pid && !processAlive(owner.pid));
  if (!stale) return false;
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true; // another breaker was first
    throw err;
  }
  const moved = parseOwner(safeRead(aside));
  if (owner && moved && moved.token !== owner.token) {
    // Between our read and our rename, the stale lock was broken and a live process took a fresh one: put it back.
    try {
      fs.linkSync(aside, lockPath);
    } catch {
      // a third process holds the path now; the live owner's release tolerates a missing or foreign lock
    }
  }
  fs.rmSync(aside, { force: true });
  return true;
}

function safeRead(p: string): string {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}

export interface HeldLock {
  release(): void;
}

export interface FileLock {
  /** Polls with a capped backoff; rejects with LockTimeoutError after `timeoutMs`. One hold at a time per FileLock. */
  acquire(): Promise<HeldLock>;
  /** Removes this holder's draft file. */
  dispose(): void;
}

/**
 * A reusable lock on `lockPath` for one holder (one audit writer).
 *
 * The lock appears with its content in one step: the owner record lives in a private draft file
 * (`<lock>.<pid>-<token>`, written once) that is hard-linked to the lock path (`link(2)` fails with EEXIST when the
 * lock exists). A process killed at any point therefore never leaves an owner-less lock that only the age rule
 * could clear, and each acquisition costs one `link` (plus one read and one `unlink` to release). File systems
 * without hard links fall back to `O_CREAT|O_EXCL` followed by the write. Drafts of dead processes are removed
 * when a lock is created.
 */
export function createFileLock(lockPath: string, opts: LockOptions = DEFAULT_LOCK_OPTIONS): FileLock {
  const token = randomBytes(12).toString('hex');
  const body = `${process.pid}\n${HOST}\n${token}\n`;
  const draft = `${lockPath}.${process.pid}-${token}`;
  let draftReady = false;
  let touched = 0;
  let useLink = true;

  const ensureDraft = (): void => {
    const now = Date.now();
    if (!draftReady) {
      removeDeadDrafts(lockPath);
      fs.writeFileSync(draft, body, { mode: 0o600 });
      draftReady = true;
      touched = now;
    } else if (now - touched > opts.staleMs / 4) {
      // The lock inherits the draft's mtime: keep it fresh so that a new hold never looks old.
      const d = new Date(now);
      fs.utimesSync(draft, d, d);
      touched = now;
    }
  };

  return {
    async acquire(): Promise<HeldLock> {
      const started = Date.now();
      let delay = 0.5;
      for (;;) {
        let got = false;
        if (useLink) {
          ensureDraft();
          try {
            fs.linkSync(draft, lockPath);
            got = true;
          } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            if (code === 'ENOENT') {
              draftReady = false; // the draft was removed behind our back: write it again
              continue;
            }
            if (code !== 'EEXIST') {
              useLink = false; // EPERM/ENOTSUP/EXDEV…: no hard links here
              continue;
            }
          }
        } else {
          got = createExclusive(lockPath, body);
        }
        if (got) return { release: () => releaseLock(lockPath, token) };
        if (breakIfStale(lockPath, opts.staleMs)) continue;
        const waited = Date.now() - started;
        if (waited >= opts.timeoutMs) throw new LockTimeoutError(lockPath, waited);
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 8);
      }
    },
    dispose(): void {
      if (!draftReady) return;
      draftReady = false;
      try {
        fs.unlinkSync(draft);
      } catch {
        // already gone
      }
    },
  };
}

/** One acquisition with a throw-away FileLock (tests and one-off callers). */
export async function acquireLock(lockPath: string, opts: LockOptions = DEFAULT_LOCK_OPTIONS): Promise<HeldLock> {
  const lock = createFileLock(lockPath, opts);
  try {
    const held = await lock.acquire();
    return {
      release: () => {
        held.release();
        lock.dispose();
      },
    };
  } catch (err) {
    lock.dispose();
    throw err;
  }
}

/** Drafts named `<lock>.<pid>-<token>` whose pid no longer runs on this host are leftovers of crashes. */
function removeDeadDrafts(lockPath: string): void {
  const dir = path.dirname(lockPath);
  const prefix = `${path.basename(lockPath)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]{24}$/.exec(name.slice(prefix.length));
    if (!m || processAlive(Number(m[1]))) continue;
    try {
      fs.unlinkSync(path.join(dir, name));
    } catch {
      // removed by someone else
    }
  }
}

function createExclusive(lockPath: string, body: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, body);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function releaseLock(lockPath: string, token: string): void {
  // Only remove our own lock: if ours was judged stale and broken, the file now belongs to someone else.
  // (A file with no owner yet is another process's lock being written.)
  if (parseOwner(safeRead(lockPath))?.token !== token) return;
  try {
    fs.unlinkSync(lockPath);
  } catch {
    // already gone
  }
}
