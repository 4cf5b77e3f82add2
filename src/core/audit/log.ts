import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { isoMicros } from '../events/time';
import { createFileLock, DEFAULT_LOCK_OPTIONS, LockTimeoutError, type HeldLock, type LockOptions } from './lock';
import { encodeRow, GENESIS_HASH, lineHashInput, parseLineRow, type AuditHead, type AuditRecord, type AuditRowInput } from './record';
import { writeAll } from '../util/write-all';
import { makeDirs } from '../util/make-dirs';

const fdatasync = promisify(fs.fdatasync);

/**
 * Why an append failed. The server answers the tool call with a retryable `audit_unavailable` error instead of its
 * data (unless the operator chose `--audit-fail-open`); messages carry the path and an errno code, never row
 * content. `lock_lost`: the lock file no longer carried this writer's token right before the write, so nothing
 * was written.
 */
export type AuditErrorKind = 'unwritable' | 'lock_timeout' | 'lock_lost' | 'corrupt_tail' | 'closed' | 'io';

export class AuditError extends Error {
  constructor(
    readonly kind: AuditErrorKind,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'AuditError';
  }
}

export interface AuditLogOptions {
  readonly lock?: Partial<LockOptions>;
  /** Appends queued while one is being written go out under the same lock and fsync (default 256). */
  readonly maxBatch?: number;
}

export interface AuditLog {
  readonly path: string;
  /** Resolves once the row is in the file and fsynced; rejects with AuditError. */
  append(row: AuditRowInput): Promise<AuditRecord>;
  /** Waits for queued appends, then closes the file. */
  close(): Promise<void>;
}

interface Pending {
  readonly input: AuditRowInput;
  readonly time: string;
  readonly resolve: (r: AuditRecord) => void;
  readonly reject: (e: AuditError) => void;
}

interface Tail extends AuditHead {
  readonly size: number;
  readonly ino: number;
  /** The last row's time ('' for an empty log): new rows never go back before it. */
  readonly time: string;
}

/** ISO 8601 UTC strings of one shape compare by code unit; a row's time is never before its predecessor's. */
function monotonicTime(time: string, prev: string): string {
  return prev.length === time.length && prev > time ? prev : time;
}

/**
 * Opens (lazily: nothing touches the disk until the first append) the append-only, hash-chained audit log.
 *
 * Each append, under the inter-process lock `<path>.lock`: reads only the last line (from the end: O(1) in the
 * log's size, and skipped when the file is exactly as this process left it), chains the new rows, writes them in
 * one `write(2)` on an `O_APPEND` descriptor, fdatasyncs, then releases the lock and acknowledges. Appends that
 * queue up meanwhile are committed together (group commit), so concurrent tool calls share one fsync.
 * A torn final line (no newline) can only be an append that crashed before its acknowledgement; the next writer
 * moves it to `<path>.torn` for inspection and cuts it off before chaining.
 */
export function openAuditLog(file: string, opts: AuditLogOptions = {}): AuditLog {
  const logPath = path.resolve(file);
  const lockPath = `${logPath}.lock`;
  const lockOpts: LockOptions = { ...DEFAULT_LOCK_OPTIONS, ...opts.lock };
  assertRegularLogPath(logPath);
  const fileLock = createFileLock(lockPath, lockOpts);
  const maxBatch = Math.max(1, opts.maxBatch ?? 256);
  const queue: Pending[] = [];
  let fd: number | null = null;
  let fdIno = -1;
  let cached: Tail | null = null;
  let draining = false;
  let drained: Promise<void> = Promise.resolve();
  let closed = false;

  const closeFd = (): void => {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // already closed
      }
    }
    fd = null;
    fdIno = -1;
    cached = null;
  };

  const openFd = (): number => {
    const dir = path.dirname(logPath);
    makeDirs(dir, 0o700);
    const existed = fs.existsSync(logPath);
    // Read-write: the tail is read through the same descriptor.
    // Never through a symbolic link (ELOOP): a link planted at the path would have the audit rows written into, and
    // left as readable as, whatever file it names.
    const d = fs.openSync(logPath, fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
    if (!existed) fsyncDir(dir); // the new directory entry must survive a crash too
    fd = d;
    fdIno = fs.fstatSync(d).ino;
    return d;
  };

  /** The descriptor for the file now at the path (reopened if it was replaced or removed since). */
  const currentFd = (): number => {
    if (fd !== null) {
      let ino = -1;
      try {
        ino = fs.statSync(logPath).ino;
      } catch {
        // removed: recreate
      }
      if (ino !== fdIno) closeFd();
    }
    return fd ?? openFd();
  };

  const readTail = (d: number): Tail => {
    const st = fs.fstatSync(d);
    if (cached && cached.size === st.size && cached.ino === st.ino) return cached;
    const tail = readLastRow(d, st.size, logPath);
    return { ...tail, ino: st.ino };
  };

  const commit = async (batch: Pending[]): Promise<AuditRecord[]> => {
    let lock: HeldLock;
    try {
      makeDirs(path.dirname(logPath), 0o700); // the lock file lives beside the log
      lock = await fileLock.acquire();
    } catch (err) {
      if (err instanceof LockTimeoutError) throw new AuditError('lock_timeout', `audit: ${err.message}`);
      throw err;
    }
    try {
      const d = currentFd();
      const read = readTail(d);
      let tail: AuditHead = read;
      let time = read.time;
      const lines: string[] = [];
      const records: AuditRecord[] = [];
      for (const p of batch) {
        time = monotonicTime(p.time, time);
        const { line, record } = encodeRow(p.input, time, tail);
        lines.push(line);
        records.push(record);
        tail = record;
      }
      const buf = Buffer.from(lines.join(''), 'utf8');
      cached = null; // until the write and fsync are known to have succeeded
      // Right before the write: the lock must still be ours and the file must still end where we chained. A lock
      // can only be lost if it was (wrongly) broken while we held it; writing then would fork the chain.
      if (!lock.stillHeld()) throw new AuditError('lock_lost', `audit: the lock ${lockPath} was taken over before the write; nothing was written`);
      if (fs.fstatSync(d).size !== read.size) throw new AuditError('lock_lost', `audit: ${logPath} grew under the lock before the write; nothing was written`);
      writeAll(d, buf);
      await fdatasync(d);
      const after = fs.fstatSync(d).size;
      if (after !== read.size + buf.length) {
        // Another writer appended at the same time: our rows are in the file but the chain around them is broken.
        throw new AuditError('lock_lost', `audit: another writer appended to ${logPath} during this write; run \`schemabrain audit verify\``);
      }
      cached = { seq: tail.seq, hash: tail.hash, size: after, ino: read.ino, time };
      return records;
    } finally {
      lock.release();
    }
  };

  // `draining` is cleared synchronously when the queue is seen empty, so an append made from a resolved
  // append's continuation always either joins this loop or starts a new one.
  const drain = async (): Promise<void> => {
    try {
      while (queue.length) {
        const batch = queue.splice(0, maxBatch);
        try {
          const records = await commit(batch);
          batch.forEach((p, i) => p.resolve(records[i]));
        } catch (err) {
          const e = toAuditError(err, logPath);
          if (e.kind !== 'lock_timeout') closeFd(); // start from a fresh descriptor and a re-read tail next time
          batch.forEach((p) => p.reject(e));
        }
      }
    } finally {
      draining = false;
    }
  };

  return {
    path: logPath,
    append(input: AuditRowInput): Promise<AuditRecord> {
      if (closed) return Promise.reject(new AuditError('closed', 'audit: log is closed'));
      return new Promise<AuditRecord>((resolve, reject) => {
        queue.push({ input, time: input.time ?? isoMicros(), resolve, reject });
        if (!draining) {
          draining = true;
          drained = drain();
        }
      });
    },
    async close(): Promise<void> {
      closed = true;
      while (draining) await drained;
      closeFd();
      fileLock.dispose();
    },
  };
}

/**
 * The log must be a regular file (or not exist yet) on an ordinary path: a character device, a FIFO or a file
 * under /proc or /sys never takes an append and can make the tail reader spin.
 */
function assertRegularLogPath(logPath: string): void {
  if (/^\/(proc|sys|dev)(\/|$)/.test(logPath)) {
    throw new AuditError('unwritable', `audit: ${logPath} is under a kernel file system; choose a path on a disk`, 'EINVAL');
  }
  let st: fs.Stats;
  try {
    st = fs.lstatSync(logPath);
  } catch {
    return; // created on the first append
  }
  if (st.isSymbolicLink()) throw new AuditError('unwritable', `audit: ${logPath} is a symbolic link; the audit log is never written through one (point --audit-path at the file itself)`, 'ELOOP');
  if (!st.isFile()) throw new AuditError('unwritable', `audit: ${logPath} is not a regular file`, 'EINVAL');
}

function fsyncDir(dir: string): void {
  try {
    const d = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(d);
    } finally {
      fs.closeSync(d);
    }
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the file's own fsync still applies.
  }
}

/** Errno codes that mean "this location cannot take the log" (EEXIST: a file where the directory should be). */
const UNWRITABLE_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOSPC', 'EDQUOT', 'ELOOP']);

function toAuditError(err: unknown, logPath: string): AuditError {
  if (err instanceof AuditError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code !== undefined && UNWRITABLE_CODES.has(code)) {
    return new AuditError('unwritable', `audit: cannot write ${logPath} (${code})`, code);
  }
  return new AuditError('io', `audit: write to ${logPath} failed (${code ?? (err instanceof Error ? err.name : 'unknown')})`, code);
}

/**
 * Reads the last committed row by seeking from the end: O(1) in the log's size. With `repairFd` (the writer, under
 * the lock), a torn final fragment is moved to `<path>.torn` and cut off; without it, the fragment is just skipped.
 */
export function readLastRow(fd: number, size: number, logPath: string, repair = true): AuditHead & { size: number; time: string } {
  if (size === 0) return { seq: 0, hash: GENESIS_HASH, size: 0, time: '' };
  let chunk = Math.min(size, 8192);
  for (;;) {
    const start = size - chunk;
    const buf = Buffer.alloc(chunk);
    readFully(fd, buf, start);
    let end = buf.length; // exclusive end of the last committed line, within buf
    if (buf[end - 1] !== 0x0a) {
      const nl = buf.lastIndexOf(0x0a);
      if (nl === -1 && start > 0) {
        chunk = Math.min(size, chunk * 4);
        continue;
      }
      const committed = start + nl + 1; // 0 when the whole file is one torn fragment
      if (repair) {
        moveTornFragment(fd, logPath, committed, size);
        return readLastRow(fd, committed, logPath, repair);
      }
      end = nl + 1;
      if (end === 0) return { seq: 0, hash: GENESIS_HASH, size: committed, time: '' };
    }
    const prevNl = end >= 2 ? buf.lastIndexOf(0x0a, end - 2) : -1;
    if (prevNl === -1 && start > 0) {
      chunk = Math.min(size, chunk * 4);
      continue;
    }
    const line = buf.subarray(prevNl + 1, end - 1);
    const row = lineHashInput(line) ? parseLineRow(line.toString('utf8')) : undefined;
    if (!row) {
      throw new AuditError('corrupt_tail', `audit: the last line of ${logPath} is not an audit row; run \`schemabrain audit verify\``);
    }
    return { seq: row.seq, hash: row.hash, size: start + end, time: row.time };
  }
}

function readFully(fd: number, buf: Buffer, position: number): void {
  let off = 0;
  while (off < buf.length) {
    const n = fs.readSync(fd, buf, off, buf.length - off, position + off);
    if (n === 0) throw new AuditError('io', 'audit: the log shrank while being read');
    off += n;
  }
}

/** Keeps the unacknowledged fragment for forensics, then truncates the log to its last complete line. */
function moveTornFragment(fd: number, logPath: string, committed: number, size: number): void {
  const frag = Buffer.alloc(size - committed);
  readFully(fd, frag, committed);
  const note = `${JSON.stringify({ time: isoMicros(), offset: committed, length: frag.length, fragment_base64: frag.toString('base64') })}\n`;
  fs.appendFileSync(`${logPath}.torn`, note, { mode: 0o600 });
  fs.ftruncateSync(fd, committed);
  fs.fdatasyncSync(fd);
}
