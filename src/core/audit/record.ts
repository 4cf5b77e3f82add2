import type { Status } from '../envelope/kinds';
import { canonicalJson, sha256Hex } from './canonical';

/**
 * The audit file format, version 1: JSON lines, one row per line, each line ending in `\n`.
 *
 * A line is the canonical JSON (see canonical.ts) of the row without `hash`, with `,"hash":"<hex>"` spliced in
 * as its last member. `hash = sha256(prev_hash + canonical JSON of the row without hash)`, with the hex string of
 * the previous row's hash (64 zeros before the first row) as `prev_hash`, and `seq` counting 1, 2, 3… So the hash
 * covers the exact bytes of the line, and a verifier hashes the line's own bytes without re-serialising.
 *
 * A row is committed once its whole line, newline included, is in the file: the writer only acknowledges an
 * append after that and an fsync, so a final line without its newline is always an unacknowledged, torn append.
 */

export const AUDIT_FORMAT_VERSION = 1;
export const GENESIS_HASH = '0'.repeat(64);
/** `,"hash":"` + 64 hex + `"}` */
export const HASH_SUFFIX_LENGTH = 9 + 64 + 2;
const HEX64 = /^[0-9a-f]{64}$/;
const HASH_MEMBER = Buffer.from(',"hash":"');

/** What a caller supplies per tool call; no argument values, no SQL text, no rows. */
export interface AuditRowInput {
  /** ISO 8601 UTC with microseconds; defaults to now. */
  readonly time?: string;
  readonly sessionId: string;
  readonly clientName: string | null;
  readonly clientVersion: string | null;
  readonly tool: string;
  readonly status: Status;
  /** The envelope's error kind, or the refusal reason for `refused`. */
  readonly errorKind: string | null;
  readonly piiCategories: readonly string[];
  /** sha256 of the canonical redacted arguments (see argsFingerprint). */
  readonly argsFingerprint: string;
  readonly sqlFingerprint: string | null;
  readonly rowCount: number | null;
  readonly truncated: boolean | null;
  readonly durationMs: number;
  readonly catalogGeneration: number | null;
}

/** A row as stored: the caller's fields plus its position and place in the hash chain. */
export interface AuditRecord extends Omit<AuditRowInput, 'time'> {
  readonly seq: number;
  readonly time: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** The row as it is on disk. */
export interface AuditLineRow {
  readonly v: number;
  readonly seq: number;
  readonly time: string;
  readonly server_session_id: string;
  readonly client_name: string | null;
  readonly client_version: string | null;
  readonly tool: string;
  readonly status: string;
  readonly error_kind: string | null;
  readonly pii_categories: readonly string[];
  readonly args_fingerprint: string;
  readonly sql_fingerprint: string | null;
  readonly row_count: number | null;
  readonly truncated: boolean | null;
  readonly duration_ms: number;
  readonly catalog_generation: number | null;
  readonly prev_hash: string;
  readonly hash: string;
}

export interface AuditHead {
  readonly seq: number;
  readonly hash: string;
}

/** The members of a row that follows `prev`, without its hash (shared by the file log and the team store). */
export function auditRowBody(input: AuditRowInput, time: string, prev: AuditHead): Omit<AuditLineRow, 'hash'> {
  return {
    v: AUDIT_FORMAT_VERSION,
    seq: prev.seq + 1,
    time,
    server_session_id: input.sessionId,
    client_name: input.clientName ?? null,
    client_version: input.clientVersion ?? null,
    tool: input.tool,
    status: input.status,
    error_kind: input.errorKind ?? null,
    pii_categories: [...new Set(input.piiCategories)].sort(),
    args_fingerprint: input.argsFingerprint,
    sql_fingerprint: input.sqlFingerprint ?? null,
    row_count: finiteOrNull(input.rowCount),
    truncated: input.truncated ?? null,
    duration_ms: Number.isFinite(input.durationMs) ? Math.round(input.durationMs * 1000) / 1000 : 0,
    catalog_generation: finiteOrNull(input.catalogGeneration),
    prev_hash: prev.hash,
  };
}

/** Builds the line (with its trailing newline) and its hash for a row that follows `prev`. */
export function encodeRow(input: AuditRowInput, time: string, prev: AuditHead): { line: string; record: AuditRecord } {
  const row = auditRowBody(input, time, prev);
  const body = canonicalJson(row);
  const hash = sha256Hex(prev.hash + body);
  const line = `${body.slice(0, -1)},"hash":"${hash}"}\n`;
  return { line, record: toRecord({ ...row, hash }) };
}

function finiteOrNull(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Maps a parsed disk row to the readonly camelCase domain record, once. */
export function toRecord(row: AuditLineRow): AuditRecord {
  return {
    seq: row.seq,
    time: row.time,
    sessionId: row.server_session_id,
    clientName: row.client_name,
    clientVersion: row.client_version,
    tool: row.tool,
    status: row.status as Status,
    errorKind: row.error_kind,
    piiCategories: row.pii_categories,
    argsFingerprint: row.args_fingerprint,
    sqlFingerprint: row.sql_fingerprint,
    rowCount: row.row_count,
    truncated: row.truncated,
    durationMs: row.duration_ms,
    catalogGeneration: row.catalog_generation,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** The shape checks a verifier needs before trusting `seq`, `prev_hash`, `hash` and `time`; `undefined` when malformed. */
export function parseLineRow(text: string): AuditLineRow | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const r = v as Record<string, unknown>;
  if (!Number.isSafeInteger(r.seq) || (r.seq as number) < 1) return undefined;
  if (typeof r.hash !== 'string' || !HEX64.test(r.hash)) return undefined;
  if (typeof r.prev_hash !== 'string' || !HEX64.test(r.prev_hash)) return undefined;
  if (typeof r.time !== 'string' || typeof r.tool !== 'string' || typeof r.status !== 'string') return undefined;
  if (!Array.isArray(r.pii_categories)) return undefined;
  return v as AuditLineRow;
}

/** The line's own hash: sha256(prev_hash + line with the trailing hash member removed). `undefined` if the line does not end in a hash member. */
export function lineHashInput(line: Buffer): Buffer | undefined {
  const n = line.length;
  if (n < HASH_SUFFIX_LENGTH + 2) return undefined;
  const suffixStart = n - HASH_SUFFIX_LENGTH;
  // `,"hash":"` then 64 hex then `"}`
  if (line.compare(HASH_MEMBER, 0, HASH_MEMBER.length, suffixStart, suffixStart + HASH_MEMBER.length) !== 0 || line[n - 2] !== 0x22 || line[n - 1] !== 0x7d) return undefined;
  return line.subarray(0, suffixStart);
}

/** The disk shape of a record (for `audit list --json`, which prints rows as they are stored). */
export function toLineRow(r: AuditRecord): AuditLineRow {
  return {
    v: AUDIT_FORMAT_VERSION,
    seq: r.seq,
    time: r.time,
    server_session_id: r.sessionId,
    client_name: r.clientName,
    client_version: r.clientVersion,
    tool: r.tool,
    status: r.status,
    error_kind: r.errorKind,
    pii_categories: r.piiCategories,
    args_fingerprint: r.argsFingerprint,
    sql_fingerprint: r.sqlFingerprint,
    row_count: r.rowCount,
    truncated: r.truncated,
    duration_ms: r.durationMs,
    catalog_generation: r.catalogGeneration,
    prev_hash: r.prevHash,
    hash: r.hash,
  };
}

/** The chain fields of a line, read by position from the canonical layout without parsing the whole row. */
export interface ChainFields {
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
  readonly time: string;
}

const PREV_KEY = Buffer.from('"prev_hash":"');
const SEQ_KEY = Buffer.from('"seq":');
const TIME_KEY = Buffer.from('"time":"');

/**
 * The verifier's fast path. In canonical JSON a quote inside a string value is always escaped, so `"seq":` and
 * friends can only match the top-level members; the hash then binds every other byte of the line. Returns
 * `undefined` for anything that does not have the writer's layout (reported as malformed).
 */
export function readChainFields(line: Buffer): ChainFields | undefined {
  const n = line.length;
  if (n < HASH_SUFFIX_LENGTH + 2 || line[0] !== 0x7b) return undefined;
  const hash = line.toString('latin1', n - 66, n - 2);
  const p = line.indexOf(PREV_KEY);
  if (p === -1 || line[p + PREV_KEY.length + 64] !== 0x22) return undefined;
  const prevHash = line.toString('latin1', p + PREV_KEY.length, p + PREV_KEY.length + 64);
  // Keys are sorted (prev_hash < seq < time), so each search starts where the previous one matched.
  const q = line.indexOf(SEQ_KEY, p);
  if (q === -1) return undefined;
  let seq = 0;
  let i = q + SEQ_KEY.length;
  const digits = i;
  for (; i < n && line[i] >= 0x30 && line[i] <= 0x39; i++) seq = seq * 10 + (line[i] - 0x30);
  if (i === digits || i - digits > 15 || (line[i] !== 0x2c && line[i] !== 0x7d) || seq < 1) return undefined;
  const t = line.indexOf(TIME_KEY, i);
  if (t === -1) return undefined;
  const tEnd = line.indexOf(0x22, t + TIME_KEY.length);
  if (tEnd === -1) return undefined;
  const time = line.toString('latin1', t + TIME_KEY.length, tEnd);
  if (!HEX64.test(hash) || !HEX64.test(prevHash)) return undefined;
  return { seq, prevHash, hash, time };
}
