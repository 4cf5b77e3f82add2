import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isAtOrAfter } from '../events/time';
import { readLastRow } from './log';
import { GENESIS_HASH, lineHashInput, parseLineRow, readChainFields, toRecord, type AuditHead, type AuditRecord, type ChainFields } from './record';
import { writeAll } from '../util/write-all';

export type BreakReason = 'hash_mismatch' | 'prev_mismatch' | 'seq_gap' | 'reordered' | 'malformed' | 'truncated' | 'anchor_mismatch';

export interface AuditBreak {
  /** The seq the offending line claims, or the anchored seq for anchor/truncation breaks; null when unreadable. */
  readonly seq: number | null;
  /** 1-based line number in the file (for `truncated`, the line after the last one). */
  readonly line: number;
  readonly reason: BreakReason;
  readonly detail: string;
}

/** A final fragment without newline: an append interrupted before it was acknowledged (see record.ts). */
export interface TornTail {
  readonly line: number;
  readonly offset: number;
  readonly bytes: number;
}

interface VerifyCommon {
  /** Rows whose chain was checked (rows before `since` are skipped). */
  readonly rows: number;
  readonly headSeq: number;
  readonly headHash: string;
  readonly torn?: TornTail;
  /** True when an anchor was given and its row was found with the anchored hash. */
  readonly anchorChecked: boolean;
}
export type VerifyResult =
  | (VerifyCommon & { readonly ok: true })
  | (VerifyCommon & { readonly ok: false; readonly breakAt: AuditBreak; readonly breaks: readonly AuditBreak[] });

export interface VerifyOptions {
  /** Report every break (re-synchronising after each) instead of stopping at the first. */
  readonly full?: boolean;
  /** ISO cut-off: start checking at the first row at or after it, trusting that row's `prev_hash`. */
  readonly since?: string;
  /** A head recorded earlier outside the writer's reach; a coherent rewrite of the log cannot reproduce its hash. */
  readonly anchor?: AuditHead;
  /** Called with each well-formed row's seq and hash, in file order (checkpoint verification). */
  readonly onRow?: (seq: number, hash: string) => void;
}

/** How far ahead a seq break looks for the missing seq, to tell a reordering from a deletion. */
const REORDER_LOOKAHEAD = 1024;
const CHUNK = 1 << 20;

interface LineVisitor {
  (line: Buffer, lineNo: number, offset: number): boolean | void;
}

/**
 * Streams the file's newline-terminated lines (1-based numbers) to `visit`, yielding to the event loop between
 * 1 MiB chunks. Returns the line count and the unterminated final fragment, if any. `visit` returns false to stop.
 */
export async function scanLines(file: string, visit: LineVisitor): Promise<{ lines: number; torn?: TornTail }> {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    let carry: Buffer = Buffer.alloc(0);
    let position = 0; // file offset of carry[0]
    let lineNo = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, position + carry.length);
      if (n === 0) break;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
        lineNo++;
        if (visit(data.subarray(start, nl), lineNo, position + start) === false) return { lines: lineNo };
        start = nl + 1;
      }
      position += start;
      carry = Buffer.from(data.subarray(start));
      await new Promise<void>((r) => setImmediate(r));
    }
    return carry.length ? { lines: lineNo, torn: { line: lineNo + 1, offset: position, bytes: carry.length } } : { lines: lineNo };
  } finally {
    fs.closeSync(fd);
  }
}

/** Scratch space for `prev_hash + body + '}'`, so each row is hashed in one call without a Hash object. */
class LineHasher {
  private scratch = Buffer.alloc(4096);
  // crypto.hash (Node >= 20.12) is the one-shot form; createHash is the fallback for older runtimes.
  private readonly oneShot = (crypto as { hash?: (alg: string, data: Buffer, enc: 'hex') => string }).hash;

  digest(prevHash: string, body: Buffer): string {
    const need = 64 + body.length + 1;
    if (this.scratch.length < need) this.scratch = Buffer.alloc(need * 2);
    this.scratch.write(prevHash, 0, 64, 'latin1');
    body.copy(this.scratch, 64);
    this.scratch[64 + body.length] = 0x7d; // '}'
    const input = this.scratch.subarray(0, need);
    return this.oneShot ? this.oneShot('sha256', input, 'hex') : crypto.createHash('sha256').update(input).digest('hex');
  }
}

/**
 * Walks the chain from the first line (or from `since`) and reports the first break, or every break with `full`.
 * Per line, in this order: the line has the writer's layout and ends in its hash member (`malformed`), the hash matches
 * the line's bytes (`hash_mismatch`), `seq` is the previous seq + 1 (`seq_gap` when a seq is missing,
 * `reordered` when it comes later or came earlier), `prev_hash` is the previous row's hash (`prev_mismatch`).
 * With an anchor: the anchored seq must exist (`truncated`) and carry the anchored hash (`anchor_mismatch`).
 * Rejects only for operational errors (a missing or unreadable file).
 */
export async function verifyAudit(file: string, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const breaks: AuditBreak[] = [];
  const hasher = new LineHasher();
  let rows = 0;
  let expectSeq = 1;
  let prevHash = GENESIS_HASH;
  let started = opts.since === undefined;
  let headSeq = 0;
  let headHash = GENESIS_HASH;
  let anchorSeen = false;
  let afterMalformed = false;
  let pending: { brk: AuditBreak; want: number; left: number } | null = null;
  const anchor = opts.anchor && opts.anchor.seq > 0 ? opts.anchor : undefined;

  const settle = (reason: BreakReason, detail?: string): void => {
    if (!pending) return;
    breaks.push({ ...pending.brk, reason, detail: detail ?? pending.brk.detail });
    pending = null;
  };
  const add = (b: AuditBreak): void => {
    breaks.push(b);
  };

  /** The chain checks for one well-formed row; rows before `since` only seed the chain. */
  const checkRow = (row: ChainFields, body: Buffer, lineNo: number): void => {
    if (!started) {
      if (!isAtOrAfter(row.time, opts.since!)) return;
      started = true;
      expectSeq = row.seq;
      prevHash = row.prevHash;
    }
    rows++;
    const computed = hasher.digest(row.prevHash, body);
    if (computed !== row.hash) {
      add({ seq: row.seq, line: lineNo, reason: 'hash_mismatch', detail: 'the row was modified after it was written' });
    } else if (afterMalformed) {
      // The unreadable line stood for a row (or rows): resume the chain here rather than report the same damage twice.
      afterMalformed = false;
    } else if (row.seq !== expectSeq) {
      const brk: AuditBreak = { seq: row.seq, line: lineNo, reason: 'seq_gap', detail: `expected seq ${expectSeq}, found ${row.seq}` };
      if (row.seq < expectSeq) add({ ...brk, reason: 'reordered', detail: `${brk.detail} (a row out of order or repeated)` });
      else pending = { brk, want: expectSeq, left: REORDER_LOOKAHEAD };
    } else if (row.prevHash !== prevHash) {
      add({ seq: row.seq, line: lineNo, reason: 'prev_mismatch', detail: 'prev_hash does not match the previous row: a row was inserted, removed or replaced before it' });
    }
    // Re-synchronise on this row, so `full` reports each break once rather than every row after it.
    expectSeq = row.seq + 1;
    prevHash = row.hash;
  };

  const scan = await scanLines(file, (line, lineNo) => {
    const body = lineHashInput(line);
    const row = body ? readChainFields(line) : undefined;

    if (pending) {
      if (row && row.seq === pending.want) settle('reordered', `${pending.brk.detail}; seq ${pending.want} appears later, at line ${lineNo}`);
      else if (--pending.left <= 0) settle('seq_gap');
    }
    if (!opts.full) {
      if (breaks.length) return false;
      if (pending) return undefined; // only looking ahead for the missing seq now
    }
    if (!row || !body) {
      add({ seq: null, line: lineNo, reason: 'malformed', detail: 'not a well-formed audit row' });
      afterMalformed = true;
      return undefined;
    }
    headSeq = row.seq;
    headHash = row.hash;
    opts.onRow?.(row.seq, row.hash);
    const brokenBefore = breaks.length;
    const pendingBefore = pending;
    checkRow(row, body, lineNo);
    // The anchor is checked after the chain, so a row edited in place reports the more precise hash_mismatch.
    if (anchor && row.seq === anchor.seq) {
      anchorSeen = true;
      if (row.hash !== anchor.hash && breaks.length === brokenBefore && pending === pendingBefore) {
        add({ seq: row.seq, line: lineNo, reason: 'anchor_mismatch', detail: `anchored hash ${anchor.hash.slice(0, 12)}… but the log has ${row.hash.slice(0, 12)}…` });
      }
    }
    return undefined;
  });
  if (pending) settle('seq_gap');

  if (anchor && !anchorSeen && (opts.full || breaks.length === 0)) {
    if (headSeq < anchor.seq) {
      add({ seq: anchor.seq, line: scan.lines + 1, reason: 'truncated', detail: `the anchored row seq ${anchor.seq} is missing: the log ends at seq ${headSeq}` });
    } else {
      add({ seq: anchor.seq, line: 0, reason: 'anchor_mismatch', detail: `the anchored row seq ${anchor.seq} is not in the log` });
    }
  }
  breaks.sort((a, b) => a.line - b.line || (a.seq ?? 0) - (b.seq ?? 0));
  const common: VerifyCommon = {
    rows,
    headSeq,
    headHash,
    anchorChecked: anchor !== undefined && anchorSeen && !breaks.some((b) => b.reason === 'anchor_mismatch'),
    ...(scan.torn ? { torn: scan.torn } : {}),
  };
  if (breaks.length === 0) return { ...common, ok: true };
  return { ...common, ok: false, breakAt: breaks[0], breaks: opts.full ? breaks : [breaks[0]] };
}

export interface ListOptions {
  readonly since?: string;
  readonly status?: string;
  readonly tool?: string;
  /** Default 100. */
  readonly limit?: number;
  readonly offset?: number;
  readonly newestFirst?: boolean;
  /** Told of each line read: whether it is an audit row (a line that is not one is skipped). */
  readonly onLine?: (isRow: boolean) => void;
}

/** Rows matching the filters (malformed lines skipped; listing does not verify — use verifyAudit). */
export async function listAudit(file: string, opts: ListOptions = {}): Promise<AuditRecord[]> {
  const limit = Math.max(0, opts.limit ?? 100);
  const offset = Math.max(0, opts.offset ?? 0);
  const keep = offset + limit;
  const out: AuditRecord[] = [];
  if (keep === 0) return out;
  await scanLines(file, (line) => {
    const row = parseLineRow(line.toString('utf8'));
    opts.onLine?.(row !== undefined);
    if (!row) return undefined;
    if (opts.since && !isAtOrAfter(row.time, opts.since)) return undefined;
    if (opts.status && row.status !== opts.status) return undefined;
    if (opts.tool && row.tool !== opts.tool) return undefined;
    out.push(toRecord(row));
    if (opts.newestFirst) {
      // keep only the newest offset+limit rows in memory
      if (out.length > keep * 2) out.splice(0, out.length - keep);
      return undefined;
    }
    return out.length < keep ? undefined : false;
  });
  const ordered = opts.newestFirst ? out.slice(-keep).reverse() : out;
  return ordered.slice(offset, offset + limit);
}

/** The last committed row's seq and hash (O(1): read from the end). `undefined` when the file does not exist. */
export function readHead(file: string): AuditHead | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const { seq, hash } = readLastRow(fd, fs.fstatSync(fd).size, file, false);
    return { seq, hash };
  } finally {
    fs.closeSync(fd);
  }
}

/** `<log>.anchor`: a CLI-side anchor, written by verify callers (never by the server). */
export function anchorPath(logPath: string): string {
  return `${path.resolve(logPath)}.anchor`;
}

export function readAnchorFile(logPath: string): AuditHead | undefined {
  let text: string;
  try {
    text = fs.readFileSync(anchorPath(logPath), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const v = JSON.parse(text) as { seq?: unknown; hash?: unknown };
  if (!Number.isSafeInteger(v.seq) || typeof v.hash !== 'string' || !/^[0-9a-f]{64}$/.test(v.hash)) {
    throw new Error(`${anchorPath(logPath)} is not an audit anchor`);
  }
  return { seq: v.seq as number, hash: v.hash };
}

/** Atomically replaces the anchor file (temp file, fsync, rename). */
export function writeAnchorFile(logPath: string, head: AuditHead, verifiedAt: string = new Date().toISOString()): void {
  const target = anchorPath(logPath);
  const tmp = `${target}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    writeAll(fd, `${JSON.stringify({ seq: head.seq, hash: head.hash, verified_at: verifiedAt })}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, target);
}
