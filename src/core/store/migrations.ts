import type { PoolClient } from 'pg';

/** The store's own schema; nothing is created outside it. */
export const STORE_SCHEMA = 'schemabrain';

/** Key of the session-level advisory lock that serialises migrations between replicas starting together. */
export const MIGRATION_LOCK_KEY = 0x5b_5b_00_01;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * Versioned, append-only: a released migration is never edited, a change is a new version. Each runs in its own
 * transaction together with its row in `schema_version`.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'audit chain, tokens, catalog generations, definitions',
    sql: `
CREATE TABLE schemabrain.audit_head (
  id smallint PRIMARY KEY CHECK (id = 1),
  seq bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO schemabrain.audit_head VALUES (1, 0, repeat('0', 64));
CREATE TABLE schemabrain.audit (
  seq bigint PRIMARY KEY,
  time text NOT NULL,
  principal text,
  tool text NOT NULL,
  status text NOT NULL,
  body text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX audit_time ON schemabrain.audit (time);
CREATE TABLE schemabrain.token (
  id text PRIMARY KEY,
  principal text NOT NULL,
  role text NOT NULL CHECK (role IN ('catalog', 'analyst', 'admin')),
  sources text[],
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz
);
CREATE TABLE schemabrain.catalog_generation (
  generation bigserial PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  source_name text,
  sha256 text NOT NULL,
  bytes bytea NOT NULL
);
CREATE TABLE schemabrain.definition (
  id bigserial PRIMARY KEY,
  file text NOT NULL,
  body text,
  published_by text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX definition_file ON schemabrain.definition (file, id);
`,
  },
  {
    version: 2,
    name: 'events, PII policy versions with role blocks, index runs',
    sql: `
CREATE TABLE schemabrain.event (
  id bigserial PRIMARY KEY,
  time text NOT NULL,
  session_id text NOT NULL,
  principal text,
  kind text NOT NULL,
  body text NOT NULL
);
CREATE TABLE schemabrain.pii_policy (
  id bigserial PRIMARY KEY,
  body text,
  role_block jsonb NOT NULL DEFAULT '{}'::jsonb,
  published_by text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE schemabrain.index_run (
  id bigserial PRIMARY KEY,
  source_name text,
  run_by text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  status text NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
  exit_code int,
  generation bigint,
  message text
);
CREATE INDEX index_run_started ON schemabrain.index_run (started_at);
`,
  },
];

/**
 * Brings the schema to the newest version under a session advisory lock, so replicas that start together apply each
 * migration once and the others wait, then see it applied. Returns the versions this call applied.
 */
export async function migrate(client: PoolClient): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${STORE_SCHEMA}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${STORE_SCHEMA}.schema_version (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${STORE_SCHEMA}.schema_version`)).rows.map((r) => r.version));
    const newest = Math.max(0, ...done);
    const known = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    if (newest > known) throw new Error(`the store's schema is version ${newest}, newer than this SchemaBrain knows (${known}); upgrade SchemaBrain`);
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(`INSERT INTO ${STORE_SCHEMA}.schema_version (version, name) VALUES ($1, $2)`, [m.version, m.name]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}
