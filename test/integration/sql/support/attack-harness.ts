/**
 * Runs one attack case through the layers, on PostgreSQL or SQLite, and reports which layer stopped it and whether
 * anything changed. Shared by the integration tests and `bench/sql/run.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import type { Database } from 'sql.js';
import type { AttackCase } from '../../../fixtures/sql-corpus/attacks';
import type { SqlGuard } from '../../../../src/core/sql/guard';
import { executeReadOnlyPostgres } from '../../../../src/core/sql/pg-exec';
import { executeReadOnlySqlite } from '../../../../src/core/sql/sqlite-exec';
import type { QueryOutcome } from '../../../../src/core/sql/types';
import { pgStateDigest } from './attack-db';
import { BUNDLED_CHINOOK } from './databases';

export type Mode = 'full' | 'engine_only';

export interface AttackRun {
  readonly id: string;
  readonly dialect: 'postgres' | 'sqlite';
  readonly mode: Mode;
  readonly guardRefused: boolean;
  readonly guardReason: string | null;
  readonly outcome: QueryOutcome | null;
  /** True when the database (or, on PostgreSQL, the session or server files) changed. */
  readonly changed: boolean;
}

const CAPS = { timeoutMs: 1500, maxRows: 50, maxBytes: 200_000 };
const META = { statementKind: 'select' as const, fingerprint: 'attack' };

export async function runPgAttack(c: AttackCase, client: pg.ClientBase, guard: SqlGuard, mode: Mode): Promise<AttackRun> {
  const before = await pgStateDigest(client);
  const g = guard.guard(c.sql, 'postgres');
  let outcome: QueryOutcome | null = null;
  if (mode === 'engine_only' || g.ok) outcome = await executeReadOnlyPostgres(client, c.sql, [], CAPS, META);
  const after = await pgStateDigest(client);
  return { id: c.id, dialect: 'postgres', mode, guardRefused: !g.ok, guardReason: g.ok ? null : g.reason, outcome, changed: before !== after };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export const SQLITE_ATTACK_FILE = BUNDLED_CHINOOK;

/** SQLite: the file's sha256 and the in-memory copy's exported bytes, before and after. */
export function runSqliteAttack(c: AttackCase, db: Database, guard: SqlGuard, mode: Mode): AttackRun {
  const fileBefore = sha256(readFileSync(SQLITE_ATTACK_FILE));
  const memBefore = sha256(db.export());
  const g = guard.guard(c.sql, 'sqlite');
  let outcome: QueryOutcome | null = null;
  if (mode === 'engine_only' || g.ok) outcome = executeReadOnlySqlite(db, c.sql, [], CAPS, META);
  const changed = sha256(readFileSync(SQLITE_ATTACK_FILE)) !== fileBefore || sha256(db.export()) !== memBefore;
  return { id: c.id, dialect: 'sqlite', mode, guardRefused: !g.ok, guardReason: g.ok ? null : g.reason, outcome, changed };
}
