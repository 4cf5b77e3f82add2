/**
 * The PostgreSQL database the attack corpus runs against (`sb_sql_attack_<pid>`, built per process and dropped
 * afterwards, so concurrent runs never share it) and
 * a state digest taken before and after every case: catalog objects, every user table's rows, sequence positions,
 * large objects, the roles and database settings an attack could touch (cluster-wide lists are filtered to them, as
 * other test suites create databases concurrently), and this session's advisory locks, prepared statements and LISTEN
 * channels — plus the files an attack would have written on the server.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type pg from 'pg';
import { pgClient, psqlQuery } from './databases';

export const ATTACK_DB = `sb_sql_attack_${process.pid}`;

const SETUP = `
CREATE TABLE artist (artist_id int PRIMARY KEY, name text);
CREATE TABLE album (album_id int PRIMARY KEY, title text, artist_id int REFERENCES artist);
CREATE TABLE secrets (id int PRIMARY KEY, token text);
CREATE TABLE audit_log (id serial PRIMARY KEY, note text);
CREATE SEQUENCE counter_seq;
INSERT INTO artist SELECT g, 'artist ' || g FROM generate_series(1, 50) g;
INSERT INTO album SELECT g, 'album ' || g, 1 + g % 50 FROM generate_series(1, 120) g;
INSERT INTO secrets VALUES (1, 'sk_live_do_not_leak');
CREATE FUNCTION evil() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN INSERT INTO audit_log (note) VALUES ('pwned'); RETURN 1; END $$;
CREATE FUNCTION evil_ddl() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN EXECUTE 'DROP TABLE album'; RETURN 1; END $$;
CREATE VIEW v_evil AS SELECT evil() AS x;
CREATE PROCEDURE wipe() LANGUAGE sql AS $$ DELETE FROM album $$;
CREATE MATERIALIZED VIEW mv_artist_count AS SELECT count(*) AS n FROM artist;
CREATE FUNCTION evil_op(int, int) RETURNS bool LANGUAGE plpgsql VOLATILE AS $$ BEGIN PERFORM evil(); RETURN true; END $$;
CREATE OPERATOR ~~~ (LEFTARG = int, RIGHTARG = int, FUNCTION = evil_op);
CREATE TYPE evil_t AS (v int);
CREATE FUNCTION evil_cast(int) RETURNS evil_t LANGUAGE plpgsql VOLATILE AS $$ BEGIN PERFORM evil(); RETURN ROW($1)::evil_t; END $$;
CREATE CAST (int AS evil_t) WITH FUNCTION evil_cast(int);
CREATE FUNCTION evil_chk(int) RETURNS bool LANGUAGE plpgsql VOLATILE AS $$ BEGIN PERFORM evil(); RETURN true; END $$;
CREATE DOMAIN d_evil AS int CHECK (evil_chk(VALUE));
CREATE DOMAIN d_evil2 AS d_evil;
`;

export async function createAttackDb(): Promise<void> {
  psqlQuery('postgres', `DROP DATABASE IF EXISTS ${ATTACK_DB} WITH (FORCE)`);
  psqlQuery('postgres', `CREATE DATABASE ${ATTACK_DB}`);
  const c = pgClient(ATTACK_DB);
  await c.connect();
  try {
    await c.query(SETUP);
  } finally {
    await c.end();
  }
}

export function dropAttackDb(): void {
  psqlQuery('postgres', `DROP DATABASE IF EXISTS ${ATTACK_DB} WITH (FORCE)`);
}

/** Files an attack would leave on the server (same host in the test setup). */
export function pwnedFiles(): string[] {
  return readdirSync('/tmp').filter((f) => f.startsWith('sb_sql_pwned'));
}

// https://www.postgresql.org/docs/current/catalogs.html
const CATALOG_DIGEST = `
SELECT string_agg(line, E'\\n' ORDER BY line) FROM (
  SELECT 'rel:' || n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || c.relnatts
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%'
  UNION ALL SELECT 'att:' || attrelid::regclass || '.' || attname || ':' || atttypid::regtype FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE attnum > 0 AND NOT attisdropped AND n.nspname = 'public'
  UNION ALL SELECT 'proc:' || p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 'ns:' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_temp%' AND nspname NOT LIKE 'pg_toast_temp%'
  UNION ALL SELECT 'role:' || rolname || ':' || rolsuper || ':' || rolcanlogin || ':' || coalesce(rolpassword, '') FROM pg_authid WHERE rolname IN ('postgres', 'pwned')
  UNION ALL SELECT 'lo:' || oid FROM pg_largeobject_metadata
  UNION ALL SELECT 'db:' || datname FROM pg_database WHERE datname = current_database() OR datname LIKE 'pwned%'
  UNION ALL SELECT 'dbcfg:' || coalesce(array_to_string(setconfig, ','), '') FROM pg_db_role_setting WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database()) OR (setdatabase = 0 AND setrole = (SELECT oid FROM pg_roles WHERE rolname = 'postgres'))
  UNION ALL SELECT 'ext:' || extname FROM pg_extension
  UNION ALL SELECT 'pub:' || pubname FROM pg_publication
  UNION ALL SELECT 'rule:' || rulename FROM pg_rules WHERE schemaname = 'public'
  UNION ALL SELECT 'acl:' || c.relname || ':' || coalesce(c.relacl::text, '') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 'comment:' || objoid || ':' || description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 'xact_prepared:' || gid FROM pg_prepared_xacts WHERE database = current_database()
  UNION ALL SELECT 'session_advisory:' || objid FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
  UNION ALL SELECT 'session_prepared:' || name FROM pg_prepared_statements
  UNION ALL SELECT 'session_listen:' || ch FROM pg_listening_channels() ch
  UNION ALL SELECT 'session_setting:' || concat_ws(',', current_setting('default_transaction_read_only'), current_setting('search_path'), current_setting('statement_timeout'), current_setting('role'), session_user, current_user)
) s(line)`;

/** The tables SETUP creates; any other relation an attack creates shows up in the catalog part of the digest. */
const TABLES = ['public.artist', 'public.album', 'public.secrets', 'public.audit_log', 'public.mv_artist_count'];

const DIGEST = `SELECT (${CATALOG_DIGEST}) AS catalog, ${TABLES.map(
  (t, i) => `(SELECT count(*) || ':' || coalesce(md5(string_agg(x::text, ',' ORDER BY x::text)), '') FROM ${t} x) AS t${i}`,
).join(', ')}, (SELECT last_value || ':' || is_called FROM counter_seq) AS seq`;

/** A digest of everything an attack could change, read through `client` (so session state is the attacked session's), in one round trip. */
export async function pgStateDigest(client: pg.ClientBase): Promise<string> {
  const h = createHash('sha256');
  try {
    const r = await client.query<Record<string, string>>(DIGEST);
    h.update(JSON.stringify(r.rows[0]));
  } catch (e) {
    // a dropped table or sequence makes the digest query fail: that is a change too
    h.update(`error:${e instanceof Error ? e.message : String(e)}`);
  }
  h.update(`files:${pwnedFiles().join(',')}`);
  h.update(`tmpattach:${existsSync('/tmp/sb_sql_pwned_attach.db')}`);
  return h.digest('hex');
}
