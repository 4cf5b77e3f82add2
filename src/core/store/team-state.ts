import type { Pool, PoolClient } from 'pg';
import type { EventBus } from '../events/bus';
import { redactEvent } from '../events/bus';
import type { BusEvent } from '../events/event';
import { PII_CATEGORIES, type PiiCategory } from '../envelope/kinds';
import { parsePolicyYaml, PolicyError } from '../pii/policy';
import type { Logger } from '../util/logger';
import { CHANGE_CHANNEL } from './pg-store';
import { currentPrincipal, principalLabel, ROLES, type Role } from './principal';

/* ------------------------------------------------------------------ events */

export interface PgEventBusOptions {
  readonly logger: Logger;
  /** Events written together when they queue up (default 200). */
  readonly maxBatch?: number;
  /** Events kept waiting while the store is unreachable before the oldest are dropped (default 10,000). */
  readonly maxQueue?: number;
}

/**
 * The event bus of a team replica: the same redacted JSON line the file bus writes, kept in `schemabrain.event`
 * with the request's principal. Lossy like the file bus (events are observability, the audit chain is the
 * record): `emit` never throws and never waits; lines are inserted in batches in the background, and a failure is
 * logged once per error code.
 */
export function createPgEventBus(pool: Pool, label: string, opts: PgEventBusOptions): EventBus & { flush(): Promise<void> } {
  const maxBatch = opts.maxBatch ?? 200;
  const maxQueue = opts.maxQueue ?? 10_000;
  const queue: Array<{ time: string; session: string; principal: string | null; kind: string; body: string }> = [];
  const reported = new Set<string>();
  let running: Promise<void> | null = null;
  let closed = false;

  const write = async (): Promise<void> => {
    while (queue.length) {
      const batch = queue.splice(0, maxBatch);
      const params: unknown[] = [];
      const values = batch.map((e, i) => {
        params.push(e.time, e.session, e.principal, e.kind, e.body);
        const n = i * 5;
        return `($${n + 1},$${n + 2},$${n + 3},$${n + 4},$${n + 5})`;
      });
      try {
        await pool.query(`INSERT INTO schemabrain.event (time, session_id, principal, kind, body) VALUES ${values.join(',')}`, params);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? 'error';
        if (!reported.has(code)) {
          reported.add(code);
          opts.logger.warn(`events: dropping events written to the store at ${label} (${code}); further ${code} failures are not reported`);
        }
      }
    }
  };
  const kick = (): void => {
    if (running) return;
    running = write().finally(() => {
      running = null;
      if (queue.length && !closed) kick();
    });
  };

  return {
    path: label,
    emit(event: BusEvent): void {
      if (closed) return;
      try {
        const red = redactEvent(event);
        if (queue.length >= maxQueue) queue.shift();
        queue.push({ time: red.timestamp, session: red.server_session_id, principal: principalLabel(currentPrincipal()), kind: red.kind, body: JSON.stringify(red) });
        kick();
      } catch {
        // lossy by contract
      }
    },
    async flush(): Promise<void> {
      while (running || queue.length) {
        if (!running) kick();
        await running;
      }
    },
    close(): void {
      closed = true;
    },
  };
}

export interface StoredEvent {
  readonly id: number;
  readonly principal: string | null;
  readonly event: BusEvent;
}

/** The newest events (oldest first), optionally after an id (for tailing). */
export async function listStoreEvents(db: Pool | PoolClient, opts: { afterId?: number; limit?: number } = {}): Promise<StoredEvent[]> {
  const r = await db.query<{ id: string; principal: string | null; body: string }>(
    'SELECT id, principal, body FROM (SELECT id, principal, body FROM schemabrain.event WHERE id > $1 ORDER BY id DESC LIMIT $2) x ORDER BY id',
    [opts.afterId ?? 0, Math.min(Math.max(opts.limit ?? 100, 1), 10_000)],
  );
  return r.rows.map((x) => ({ id: Number(x.id), principal: x.principal, event: JSON.parse(x.body) as BusEvent }));
}

/* -------------------------------------------------------------- PII policy */

/** Categories each role may not see, on top of the policy every role gets (admin is never narrowed further). */
export type RoleBlocks = Readonly<Partial<Record<Role, readonly PiiCategory[]>>>;

export interface StoredPiiPolicy {
  readonly id: number;
  /** The policy file (YAML, version 1), or null when the store's policy was cleared. */
  readonly body: string | null;
  readonly roleBlock: RoleBlocks;
  readonly publishedBy: string;
  readonly publishedAt: Date;
}

/**
 * `catalog=contact,financial` (repeatable) → role blocks. Unknown roles and categories are PolicyErrors naming the
 * valid values.
 */
export function parseRoleBlocks(specs: readonly string[]): RoleBlocks {
  const out: Partial<Record<Role, PiiCategory[]>> = {};
  for (const spec of specs) {
    const m = /^([a-z]+)=(.*)$/.exec(spec.trim());
    if (!m) throw new PolicyError('bad_value', 'role-block', `--role-block needs ROLE=CATEGORY[,CATEGORY…], got '${spec.slice(0, 60)}'`);
    const role = m[1]!;
    if (!(ROLES as readonly string[]).includes(role)) throw new PolicyError('bad_value', 'role-block', `--role-block: unknown role '${role}'; roles are ${ROLES.join(', ')}`);
    const cats = m[2]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((c, i) => {
        if (!(PII_CATEGORIES as readonly string[]).includes(c)) {
          throw new PolicyError('unknown_category', `role-block.${role}[${i}]`, `--role-block: unknown PII category '${c}'; valid categories are: ${PII_CATEGORIES.join(', ')}`);
        }
        return c as PiiCategory;
      });
    out[role as Role] = [...new Set([...(out[role as Role] ?? []), ...cats])];
  }
  return out;
}

/**
 * Publishes a new PII policy version (the YAML file, validated first, and the role blocks) and notifies the
 * replicas, which load it on the notification. Returns the version id.
 */
export async function publishPiiPolicy(pool: Pool, spec: { body: string | null; roleBlock?: RoleBlocks; by: string }): Promise<number> {
  if (spec.body !== null) parsePolicyYaml(spec.body);
  const r = await pool.query<{ id: string }>('INSERT INTO schemabrain.pii_policy (body, role_block, published_by) VALUES ($1,$2,$3) RETURNING id', [
    spec.body,
    JSON.stringify(spec.roleBlock ?? {}),
    spec.by,
  ]);
  const id = Number(r.rows[0]!.id);
  await pool.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, `pii:${id}`]);
  return id;
}

/** The newest PII policy version, or null when none was published. */
export async function currentPiiPolicy(db: Pool | PoolClient): Promise<StoredPiiPolicy | null> {
  const r = await db.query<{ id: string; body: string | null; role_block: RoleBlocks; published_by: string; published_at: Date }>(
    'SELECT id, body, role_block, published_by, published_at FROM schemabrain.pii_policy ORDER BY id DESC LIMIT 1',
  );
  const x = r.rows[0];
  return x ? { id: Number(x.id), body: x.body, roleBlock: x.role_block ?? {}, publishedBy: x.published_by, publishedAt: x.published_at } : null;
}

/* -------------------------------------------------------------- index runs */

export interface IndexRunRow {
  readonly id: number;
  readonly sourceName: string | null;
  readonly runBy: string;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
  readonly status: 'running' | 'ok' | 'failed';
  readonly exitCode: number | null;
  readonly generation: number | null;
  readonly message: string | null;
}

/** Records the start of an index run into the store (its own row, committed at once, so a crashed run stays visible as running). */
export async function startIndexRun(db: Pool | PoolClient, sourceName: string | null, by: string): Promise<number> {
  const r = await db.query<{ id: string }>("INSERT INTO schemabrain.index_run (source_name, run_by, status) VALUES ($1,$2,'running') RETURNING id", [sourceName, by]);
  return Number(r.rows[0]!.id);
}

export async function finishIndexRun(db: Pool | PoolClient, id: number, outcome: { exitCode: number; generation: number | null; message?: string | null }): Promise<void> {
  await db.query('UPDATE schemabrain.index_run SET finished_at = now(), status = $2, exit_code = $3, generation = $4, message = $5 WHERE id = $1', [
    id,
    outcome.exitCode === 0 ? 'ok' : 'failed',
    outcome.exitCode,
    outcome.generation,
    outcome.message?.slice(0, 500) ?? null,
  ]);
}

export async function listIndexRuns(db: Pool | PoolClient, limit = 50): Promise<IndexRunRow[]> {
  const r = await db.query<{ id: string; source_name: string | null; run_by: string; started_at: Date; finished_at: Date | null; status: IndexRunRow['status']; exit_code: number | null; generation: string | null; message: string | null }>(
    'SELECT id, source_name, run_by, started_at, finished_at, status, exit_code, generation, message FROM schemabrain.index_run ORDER BY id DESC LIMIT $1',
    [limit],
  );
  return r.rows.map((x) => ({
    id: Number(x.id),
    sourceName: x.source_name,
    runBy: x.run_by,
    startedAt: x.started_at,
    finishedAt: x.finished_at,
    status: x.status,
    exitCode: x.exit_code,
    generation: x.generation === null ? null : Number(x.generation),
    message: x.message,
  }));
}
