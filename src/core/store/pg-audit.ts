import fs from 'node:fs';
import type { Pool, PoolClient } from 'pg';
import { canonicalJson, sha256Hex } from '../audit/canonical';
import { AuditError, type AuditLog } from '../audit/log';
import { auditRowBody, GENESIS_HASH, type AuditHead, type AuditLineRow, type AuditRecord, type AuditRowInput } from '../audit/record';
import { isoMicros } from '../events/time';
import { currentPrincipal, principalLabel } from './principal';

/**
 * The audit chain in the team store. Every replica appends through the single `audit_head` row: a batch locks it
 * (`SELECT … FOR UPDATE`), chains its rows after the head, inserts them and moves the head in the same
 * transaction, so all writers share one total order and a replica killed mid-transaction leaves nothing behind.
 * An append resolves only after COMMIT: the row is durable before the tool answers.
 *
 * A row is the file format's row (version 1 fields) plus `principal` (`name/tokenId` of the caller, null for rows
 * the server writes itself). `body` is its canonical JSON without `hash`; `hash = sha256(prev_hash + body)`. The
 * columns `seq`, `time`, `principal`, `tool`, `status` repeat body members for queries and are checked against it.
 */
export type StoreAuditBody = Omit<AuditLineRow, 'hash'> & { readonly principal: string | null };

interface Pending {
  readonly input: AuditRowInput;
  readonly principal: string | null;
  readonly time: string;
  readonly resolve: (r: AuditRecord) => void;
  readonly reject: (e: AuditError) => void;
}

export function encodeStoreRow(input: AuditRowInput, principal: string | null, time: string, prev: AuditHead): { body: string; hash: string; row: StoreAuditBody } {
  // canonicalJson sorts members, so `principal` takes its place in the body wherever it is added here.
  const row: StoreAuditBody = { ...auditRowBody(input, time, prev), principal };
  const body = canonicalJson(row);
  return { body, hash: sha256Hex(prev.hash + body), row };
}

export interface PgAuditLogOptions {
  /** Rows committed together when appends queue up (default 256). */
  readonly maxBatch?: number;
  /** Called after each committed batch (metrics: audit lag and appends). */
  readonly onCommit?: (rows: number, ms: number) => void;
}

/** An AuditLog (the recorder's sink) over the store; `path` names the store for messages. */
export function openPgAuditLog(pool: Pool, label: string, opts: PgAuditLogOptions = {}): AuditLog {
  const maxBatch = opts.maxBatch ?? 256;
  const queue: Pending[] = [];
  let draining = false;
  let drained: Promise<void> = Promise.resolve();
  let closed = false;

  const commit = async (batch: Pending[]): Promise<AuditRecord[]> => {
    const started = performance.now();
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (e) {
      throw new AuditError('unwritable', `audit: the store at ${label} cannot be reached (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.slice(0, 80)})`);
    }
    let broken = false;
    try {
      // Three round trips hold the head lock: BEGIN with the locking read, the insert with the head move, COMMIT.
      const opened = (await client.query('BEGIN; SELECT seq, hash FROM schemabrain.audit_head WHERE id = 1 FOR UPDATE')) as unknown as Array<{ rows: Array<{ seq: string; hash: string }> }>;
      const head = opened[1]?.rows[0];
      if (!head) throw new AuditError('corrupt_tail', `audit: the store at ${label} has no audit head row`);
      let prev: AuditHead = { seq: Number(head.seq), hash: head.hash };
      const records: AuditRecord[] = [];
      const params: unknown[] = [];
      const values: string[] = [];
      for (const p of batch) {
        const { body, hash, row } = encodeStoreRow(p.input, p.principal, p.time, prev);
        const n = params.length;
        values.push(`($${n + 1},$${n + 2},$${n + 3},$${n + 4},$${n + 5},$${n + 6},$${n + 7},$${n + 8})`);
        params.push(row.seq, row.time, row.principal, row.tool, row.status, body, row.prev_hash, hash);
        records.push({
          seq: row.seq,
          time: row.time,
          sessionId: row.server_session_id,
          clientName: row.client_name,
          clientVersion: row.client_version,
          tool: row.tool,
          status: p.input.status,
          errorKind: row.error_kind,
          piiCategories: row.pii_categories,
          argsFingerprint: row.args_fingerprint,
          sqlFingerprint: row.sql_fingerprint,
          rowCount: row.row_count,
          truncated: row.truncated,
          durationMs: row.duration_ms,
          catalogGeneration: row.catalog_generation,
          prevHash: row.prev_hash,
          hash,
        });
        prev = { seq: row.seq, hash };
      }
      const n = params.length;
      params.push(prev.seq, prev.hash);
      await client.query(
        `WITH ins AS (INSERT INTO schemabrain.audit (seq, time, principal, tool, status, body, prev_hash, hash) VALUES ${values.join(',')}) UPDATE schemabrain.audit_head SET seq = $${n + 1}, hash = $${n + 2} WHERE id = 1`,
        params,
      );
      await client.query('COMMIT');
      opts.onCommit?.(batch.length, performance.now() - started);
      return records;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      if (e instanceof AuditError) throw e;
      broken = true;
      throw new AuditError('io', `audit: append to the store at ${label} failed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.slice(0, 80)})`);
    } finally {
      client.release(broken);
    }
  };

  const drain = async (): Promise<void> => {
    try {
      while (queue.length) {
        const batch = queue.splice(0, maxBatch);
        try {
          const records = await commit(batch);
          batch.forEach((p, i) => p.resolve(records[i]!));
        } catch (err) {
          const e = err instanceof AuditError ? err : new AuditError('io', 'audit: append failed');
          batch.forEach((p) => p.reject(e));
        }
      }
    } finally {
      draining = false;
    }
  };

  return {
    path: label,
    append(input: AuditRowInput): Promise<AuditRecord> {
      if (closed) return Promise.reject(new AuditError('closed', 'audit: log is closed'));
      // Read here, on the caller's async chain: the request's principal, not whoever drains the queue.
      const principal = principalLabel(currentPrincipal());
      return new Promise<AuditRecord>((resolve, reject) => {
        queue.push({ input, principal, time: input.time ?? isoMicros(), resolve, reject });
        if (!draining) {
          draining = true;
          drained = drain();
        }
      });
    },
    async close(): Promise<void> {
      closed = true;
      while (draining) await drained;
    },
  };
}

export type StoreAuditBreakReason = 'malformed' | 'hash_mismatch' | 'seq_gap' | 'reordered' | 'prev_mismatch' | 'column_mismatch' | 'head_mismatch' | 'truncated' | 'anchor_mismatch';

export interface StoreAuditBreak {
  readonly seq: number | null;
  readonly reason: StoreAuditBreakReason;
  readonly detail: string;
}

export interface StoreVerifyResult {
  readonly ok: boolean;
  readonly rows: number;
  readonly head: AuditHead;
  readonly breaks: readonly StoreAuditBreak[];
  /** The anchor checked, when one was given and held a checkpoint. */
  readonly anchor: AuditHead | null;
}

/**
 * Walks the whole chain in seq order (in pages) and reports every break: an edited row (hash or column mismatch),
 * a deleted or inserted row (seq gap / prev mismatch), rows swapped (reordered), rows cut from the end (the
 * head row still names the old end: head_mismatch; or the anchor's seq is beyond the end: truncated). A consistent
 * rewrite (every hash recomputed, head moved) is only visible against an anchor kept outside the database: the
 * anchored seq must still carry the anchored hash.
 */
export async function verifyStoreAudit(pool: Pool, opts: { anchor?: AuditHead | null; pageSize?: number; maxBreaks?: number } = {}): Promise<StoreVerifyResult> {
  const pageSize = opts.pageSize ?? 5000;
  const maxBreaks = opts.maxBreaks ?? 100;
  const breaks: StoreAuditBreak[] = [];
  const add = (b: StoreAuditBreak): void => {
    if (breaks.length < maxBreaks) breaks.push(b);
  };
  const client = await pool.connect();
  try {
    // One snapshot for the walk and the head, so concurrent appends never look like breaks.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const headRow = (await client.query<{ seq: string; hash: string }>('SELECT seq, hash FROM schemabrain.audit_head WHERE id = 1')).rows[0];
    let prev: AuditHead = { seq: 0, hash: GENESIS_HASH };
    let rows = 0;
    let anchorSeen = false;
    let lastKey = -1;
    for (;;) {
      const page = await client.query<{ seq: string; time: string; principal: string | null; tool: string; status: string; body: string; prev_hash: string; hash: string }>(
        'SELECT seq, time, principal, tool, status, body, prev_hash, hash FROM schemabrain.audit WHERE seq > $1 ORDER BY seq LIMIT $2',
        [lastKey, pageSize],
      );
      for (const r of page.rows) {
        rows++;
        const seq = Number(r.seq);
        lastKey = seq;
        let body: StoreAuditBody | null = null;
        try {
          body = JSON.parse(r.body) as StoreAuditBody;
        } catch {
          body = null;
        }
        if (!body || typeof body !== 'object' || !Number.isSafeInteger(body.seq)) {
          add({ seq, reason: 'malformed', detail: 'the row body is not an audit row' });
          prev = { seq, hash: r.hash };
          continue;
        }
        if (sha256Hex(r.prev_hash + r.body) !== r.hash || canonicalJson(body) !== r.body || body.prev_hash !== r.prev_hash) {
          add({ seq, reason: 'hash_mismatch', detail: 'the row does not hash to its stored hash (edited)' });
        }
        if (body.seq !== seq) add({ seq, reason: 'reordered', detail: `the row at seq ${seq} was written as seq ${body.seq}` });
        else if (body.time !== r.time || body.principal !== r.principal || body.tool !== r.tool || body.status !== r.status) {
          add({ seq, reason: 'column_mismatch', detail: 'a column differs from the hashed row (edited)' });
        }
        if (seq !== prev.seq + 1) {
          add({ seq, reason: seq <= prev.seq ? 'reordered' : 'seq_gap', detail: `expected seq ${prev.seq + 1}` });
        } else if (r.prev_hash !== prev.hash) {
          add({ seq, reason: 'prev_mismatch', detail: 'prev_hash does not name the previous row (a row was inserted, deleted or replaced before it)' });
        }
        if (opts.anchor && seq === opts.anchor.seq) {
          anchorSeen = true;
          if (r.hash !== opts.anchor.hash) add({ seq, reason: 'anchor_mismatch', detail: 'the anchored seq carries another hash: the chain was rewritten after the checkpoint' });
        }
        prev = { seq, hash: r.hash };
      }
      if (page.rows.length < pageSize) break;
    }
    if (!headRow) add({ seq: null, reason: 'head_mismatch', detail: 'the audit head row is missing' });
    else if (Number(headRow.seq) !== prev.seq || headRow.hash !== prev.hash) {
      add({ seq: prev.seq, reason: Number(headRow.seq) > prev.seq ? 'truncated' : 'head_mismatch', detail: `the head names seq ${headRow.seq}, the chain ends at seq ${prev.seq}` });
    }
    if (opts.anchor && opts.anchor.seq > 0 && !anchorSeen) {
      add({ seq: opts.anchor.seq, reason: opts.anchor.seq > prev.seq ? 'truncated' : 'anchor_mismatch', detail: `the anchored seq ${opts.anchor.seq} is not in the chain (it ends at ${prev.seq})` });
    }
    await client.query('COMMIT');
    return { ok: breaks.length === 0, rows, head: prev, breaks, anchor: opts.anchor ?? null };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/**
 * The anchor: an append-only file of checkpoints (`{"seq":…,"hash":…,"time":…}` lines) kept outside the database,
 * e.g. on the auditor's machine or object storage with retention. The last line is the one checked.
 */
export function readStoreAnchor(file: string): AuditHead | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const lines = text.split('\n').filter((l) => l.trim());
  const last = lines[lines.length - 1];
  if (!last) return null;
  const v = JSON.parse(last) as { seq?: unknown; hash?: unknown };
  if (!Number.isSafeInteger(v.seq) || typeof v.hash !== 'string' || !/^[0-9a-f]{64}$/.test(v.hash)) throw new Error(`the anchor file ${file} does not end in a checkpoint`);
  return { seq: v.seq as number, hash: v.hash };
}

export function appendStoreAnchor(file: string, head: AuditHead): void {
  fs.appendFileSync(file, `${JSON.stringify({ seq: head.seq, hash: head.hash, time: new Date().toISOString() })}\n`, { mode: 0o600 });
}
