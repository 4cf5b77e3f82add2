import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ownerAlive, processAlive, SELF_START_TIME } from '../util/process';

/**
 * An inter-process lock file, for the audit writer's "read tail → hash → append → fsync" critical section (and
 * the catalog writer's whole index run).
 *
 * Node has no flock(2), so the lock is a file that appears atomically with its owner record (see createFileLock):
 * pid, host, a random token and the owner's process start time. Staleness is judged by the owner's liveness only,
 * never by age while the owner lives: a holder that is paused (SIGSTOP, a debugger, swap, suspend, a slow network
 * disk) keeps its lock for as long as it is paused, and waiters time out with a typed error instead of taking it
 * over and forking the chain. On this host an owner is gone when its pid no longer runs or now belongs to a
 * process with another start time (pid reuse). An owner on another host cannot be checked, so only such a lock
 * falls back to `foreignStaleMs`. A file without a complete owner record (only possible on file systems without
 * hard links) is a lock being written and is waited for, unless it stays like that for `foreignStaleMs`.
 *
 * Breaking renames the lock to a private name first and only deletes it when the renamed file still carries the
 * token that was judged stale, so two breakers cannot both remove a lock that a third process has just taken.
 * Holders check `stillHeld()` right before they write, so even a lock wrongly broken is caught before it matters.
 */

export interface LockOptions {
  /** Give up after this long (ms); the caller reports a typed timeout error. */
  readonly timeoutMs: number;
  /** A lock whose owner runs on another host (or that has no owner record) is stale after this long. */
  readonly foreignStaleMs: number;
}

export const DEFAULT_LOCK_OPTIONS: LockOptions = { timeoutMs: 5000, foreignStaleMs: 10 * 60_000 };

export class LockTimeoutError extends Error {
  constructor(
    readonly lockPath: string,
    readonly waitedMs: number,
    readonly ownerPid?: number,
  ) {
    super(`timed out after ${waitedMs} ms waiting for ${lockPath}${ownerPid ? ` (held by process ${ownerPid})` : ''}`);
    this.name = 'LockTimeoutError';
  }
}

export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
  /** Process start time (see processStartTime); '' when unknown. */
  readonly start: string;
}

const HOST = os.hostname();

export function parseLockOwner(text: string): LockOwner | undefined {
  const [pid, host, token, start] = text.split('\n');
  const p = Number(pid);
  if (!Number.isInteger(p) || p <= 0 || !host || !token || /\s/.test(token)) return undefined;
  return { pid: p, host, token, start: start ?? '' };
}

function readLock(lockPath: string): { owner: LockOwner | undefined; ageMs: number } | undefined {
  try {
    const st = fs.statSync(lockPath);
    const owner = parseLockOwner(fs.readFileSync(lockPath, 'utf8'));
    return { owner, ageMs: Date.now() - st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Owners (by token) whose start time was checked recently. Waiters poll every few milliseconds; a pid can only be
 * reused after its process has exited and the pid space has wrapped, so re-reading /proc/<pid>/stat once a second
 * is enough, and in between `kill(pid, 0)` alone says whether the owner still runs.
 */
const startChecked = new Map<string, number>();
const START_RECHECK_MS = 1000;

/** Whether the lock's owner is provably gone (or, off this host / without an owner record, the lock is very old). */
export function ownerGone(owner: LockOwner | undefined, ageMs: number, foreignStaleMs: number): boolean {
  if (!owner || owner.host !== HOST) return ageMs > foreignStaleMs;
  if (owner.pid === process.pid) return owner.start !== SELF_START_TIME && SELF_START_TIME !== '' && owner.start !== '';
  const now = Date.now();
  const checked = startChecked.get(owner.token);
  if (checked !== undefined && now - checked < START_RECHECK_MS) return !processAlive(owner.pid);
  const alive = ownerAlive(owner.pid, owner.start);
  if (alive) {
    if (startChecked.size > 64) startChecked.clear();
    startChecked.set(owner.token, now);
  } else startChecked.delete(owner.token);
  return !alive;
}

/** True when the lock was stale and has been removed (by us or by a concurrent breaker); the live owner otherwise. */
function breakIfStale(lockPath: string, foreignStaleMs: number): { broken: true } | { broken: false; owner?: LockOwner } {
  const seen = readLock(lockPath);
  if (!seen) return { broken: true };
  const { owner, ageMs } = seen;
  if (!ownerGone(owner, ageMs, foreignStaleMs)) return { broken: false, owner };
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { broken: true }; // another breaker was first
    throw err;
  }
  const moved = parseLockOwner(safeRead(aside));
  if (moved?.token !== owner?.token) {
    // Between our read and our rename, the stale lock was broken and a live process took a fresh one: put it back.
    try {
      fs.linkSync(aside, lockPath);
    } catch {
      // a third process holds the path now; the live owner's stillHeld() check sees that it lost the lock
    }
  }
  fs.rmSync(aside, { force: true });
  return { broken: true };
}

function safeRead(p: string): string {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}

export interface HeldLock {
  /** True while the lock file still carries this holder's token (read from the file, not remembered). */
  stillHeld(): boolean;
  release(): void;
}

export interface FileLock {
  /** Polls with a capped backoff; rejects with LockTimeoutError after `timeoutMs`. One hold at a time per FileLock. */
  acquire(): Promise<HeldLock>;
  /** Removes this holder's draft file. */
  dispose(): void;
}

/**
 * A reusable lock on `lockPath` for one holder (one audit writer, one indexer).
 *
 * The lock appears with its content in one step: the owner record lives in a private draft file
 * (`<lock>.<pid>-<token>`, written once) that is hard-linked to the lock path (`link(2)` fails with EEXIST when the
 * lock exists). A process killed at any point therefore never leaves an owner-less lock, and each acquisition
 * costs one `link` (plus one read and one `unlink` to release). File systems without hard links fall back to a
 * temp file renamed into place only when no lock exists (`O_CREAT|O_EXCL` on the final name as the arbiter, its
 * content written before anyone can see it through the rename). Drafts of dead processes are removed when a lock
 * is created.
 */
export function createFileLock(lockPath: string, opts: Partial<LockOptions> = {}): FileLock {
  const o: LockOptions = { ...DEFAULT_LOCK_OPTIONS, ...opts };
  const token = randomBytes(12).toString('hex');
  const body = `${process.pid}\n${HOST}\n${token}\n${SELF_START_TIME}\n`;
  const draft = `${lockPath}.${process.pid}-${token}`;
  let draftReady = false;
  let useLink = true;

  const ensureDraft = (): void => {
    if (draftReady) return;
    removeDeadDrafts(lockPath);
    fs.writeFileSync(draft, body, { mode: 0o600 });
    draftReady = true;
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
        if (got) {
          return {
            stillHeld: () => parseLockOwner(safeRead(lockPath))?.token === token,
            release: () => releaseLock(lockPath, token),
          };
        }
        const seen = breakIfStale(lockPath, o.foreignStaleMs);
        if (seen.broken) continue;
        const waited = Date.now() - started;
        if (waited >= o.timeoutMs) throw new LockTimeoutError(lockPath, waited, seen.owner?.pid);
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
export async function acquireLock(lockPath: string, opts: Partial<LockOptions> = {}): Promise<HeldLock> {
  const lock = createFileLock(lockPath, opts);
  try {
    const held = await lock.acquire();
    return {
      stillHeld: held.stillHeld,
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
    const m = /^(\d+)-[0-9a-f]{24}(?:\.tmp)?$/.exec(name.slice(prefix.length));
    if (!m || processAlive(Number(m[1]))) continue;
    try {
      fs.unlinkSync(path.join(dir, name));
    } catch {
      // removed by someone else
    }
  }
}

/**
 * Without hard links: the owner record is written to a private file first and `rename`d over the lock path only
 * after `O_EXCL` has reserved the name, so a reader sees either the reservation (empty, "being written": waited
 * for) or the complete record, never a half-written pid.
 */
function createExclusive(lockPath: string, body: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  fs.closeSync(fd);
  const tmp = `${lockPath}.${process.pid}-${randomBytes(12).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, body, { mode: 0o600 });
  fs.renameSync(tmp, lockPath);
  return true;
}

function releaseLock(lockPath: string, token: string): void {
  // Only remove our own lock: if ours was judged stale and broken, the file now belongs to someone else.
  if (parseLockOwner(safeRead(lockPath))?.token !== token) return;
  try {
    fs.unlinkSync(lockPath);
  } catch {
    // already gone
  }
}
