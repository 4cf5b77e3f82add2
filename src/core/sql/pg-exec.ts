import crypto from 'node:crypto';
import type { ClientBase, FieldDef, PoolClient } from 'pg';
import type Cursor from 'pg-cursor';
import { pgCursor } from './pg-driver';
import type { SqlGuard } from './guard';
import { RowBudget, toJsonValue, wireBudget } from './caps';
import { sendCancelRequest } from './pg-cancel';
import {
  checkPostgresCalls,
  decidePendingCalls,
  decideImplicitCalls,
  decideViewDependencies,
  DEFAULT_FUNCTION_POLICY,
  type FunctionPolicy,
  type FunctionRefusal,
  type LiveFunction,
  type PendingCall,
  type ImplicitCall,
  type ViewDependency,
} from './function-policy';
import { limitResult, oversizeOf, SourcePool } from './pg-pool';
import { TYPES_INSIDE } from '../sources/postgres/queries';
import type { QueryCaps, QueryOutcome, ResultColumn, StatementKind } from './types';
import { DEFAULT_CAPS } from './types';

/**
 * Layers 2 and 3 for PostgreSQL.
 *
 * Layer 2: `BEGIN TRANSACTION READ ONLY`, three `SET LOCAL` timeouts and the settings that decide how names and strings
 * are read (`search_path`, `standard_conforming_strings`), each sent by this module as its own
 * simple-protocol message with constant text; then the caller's statement alone through the extended protocol
 * (Parse/Bind/Execute via pg-cursor), so the server itself rejects a string holding several commands
 * ("cannot insert multiple commands into a prepared statement"); then ROLLBACK, never COMMIT.
 * https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY
 * https://www.postgresql.org/docs/current/sql-set-transaction.html
 *
 * Layer 3: the portal is executed with a row limit (Execute's max-rows), in batches, so at most `maxRows + 1`
 * rows and about `maxBytes` leave the server; the extra row only tells us the result was cut.
 * Cancellation through `signal` sends a protocol CancelRequest for the running batch and stops fetching.
 */

/** A connected client, something that lends one (a `pg.Pool`), or a source's queued pool. */
export type PgConnectable = ClientBase | { connect(): Promise<PoolClient> } | SourcePool;

const BATCH_ROWS = 200;

function isPool(c: Exclude<PgConnectable, SourcePool>): c is { connect(): Promise<PoolClient> } {
  // pg.Client also has connect(); a Client is recognised by its query method plus `connection` field
  return !('query' in c && 'connection' in c);
}

function intMs(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 1 || n > 3_600_000) throw new RangeError(`${name} must be between 1 and 3600000 ms`);
  return Math.floor(n);
}

interface PgError {
  code?: string;
  message?: string;
}

/** Classifies a driver error once, by SQLSTATE (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export function classifyPostgresError(e: unknown): Extract<QueryOutcome, { ok: false; message: string }> {
  const err = (e ?? {}) as PgError;
  const code = typeof err.code === 'string' ? err.code : null;
  const raw = typeof err.message === 'string' ? err.message : String(e);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  let kind: Extract<QueryOutcome, { ok: false; message: string }>['kind'] = 'database_error';
  if (/client password must be a string|password must be a string/i.test(raw)) {
    // node-postgres's words when the server asks for a password (SCRAM/MD5) and none was configured
    return {
      ok: false,
      kind: 'connection',
      message:
        'the server asks for a password and none is configured for this source. Whoever runs SchemaBrain must supply it: in VS Code run "SchemaBrain: Set Password" for the connection, or add the password to ~/.pgpass (host:port:database:user:password), or reference an environment variable in the connection URL (postgres://user:${PGPASSWORD_VAR}@host/db) and restart the server',
      code: '28P01',
    };
  }
  if (/timeout exceeded when trying to connect/i.test(raw)) {
    return { ok: false, kind: 'busy', message: 'no connection to the source became free in time; retry the same call in a few seconds', code: null };
  }
  if (code === '57014' || code === '55P03' || code === '25P03') kind = 'timeout';
  else if (code === '25006') kind = 'read_only_violation';
  else if (code === '42P01') kind = 'unknown_relation';
  else if (code === '42703') kind = 'unknown_column';
  else if (code === '42883') kind = 'unknown_function';
  else if (code === '42601') kind = 'syntax_error';
  else if (code === '42501') kind = 'permission_denied';
  else if ((code && code.startsWith('08')) || /ECONNREFUSED|ECONNRESET|EPIPE|Connection terminated/i.test(raw)) kind = 'connection';
  // 54xxx: a limit of the language hit by the statement itself (stack depth, array dimensions, too many columns).
  else if (code && /^(21|22|42|54)/.test(code)) kind = 'query_error';
  return { ok: false, kind, message, code };
}

async function typeNames(client: ClientBase, fields: readonly FieldDef[]): Promise<Map<number, string>> {
  const oids = [...new Set(fields.map((f) => f.dataTypeID))];
  if (oids.length === 0) return new Map();
  // https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-INFO-CATALOG (format_type)
  const r = await client.query<{ oid: number; name: string }>({
    text: 'SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])',
    values: [oids],
  });
  return new Map(r.rows.map((row) => [Number(row.oid), row.name]));
}

function readBatch(cursor: Cursor<unknown[]>, n: number): Promise<{ rows: unknown[][]; fields: FieldDef[] }> {
  return new Promise((resolve, reject) => {
    cursor.read(n, (err, rows, result) => {
      if (err) reject(err);
      else resolve({ rows: rows as unknown[][], fields: result?.fields ?? [] });
    });
  });
}

export interface ExecuteMeta {
  readonly statementKind: StatementKind;
  readonly fingerprint: string;
}

/** What the live object check needs: the calls left undecided by name and the relations the statement reads. */
export interface ObjectCheck {
  /** Parses the definitions of the views reached (their built-in calls are not in pg_depend). */
  readonly guard: SqlGuard;
  readonly policy: FunctionPolicy;
  readonly pending: readonly PendingCall[];
  /** Relations as the guard reports them (`public.film`, `film`). */
  readonly relations: readonly string[];
  /** Operator names the statement writes, with the comparisons it may use unwritten (`IMPLICIT_OPERATORS`). */
  readonly operators?: readonly string[];
  /** Type names the statement casts to (lower-case, no schema). */
  readonly castTypes?: readonly string[];
  /**
   * Verdicts of recent checks on this source (`SourcePool.objectVerdicts`), kept `OBJECT_VERDICT_TTL_MS`: an agent
   * re-running similar queries pays the catalog round trip once, and a view created since is seen within seconds.
   */
  readonly verdicts?: Map<string, { readonly at: number; readonly refusal: FunctionRefusal | null }>;
  /**
   * The columns the catalog holds for a relation, in order (undefined for one it does not hold). A relation the
   * statement reads whose live columns differ (renamed, added, dropped since the index) is refused as schema drift:
   * masking and the PII tags go by the catalog's names, so a renamed blocked column would pass under a plain name.
   */
  readonly expectedColumns?: (schema: string, name: string) => ExpectedRelation | undefined;
}

/** What the catalog holds of a relation, for the drift check. */
export interface ExpectedRelation {
  readonly columns: readonly string[];
  /** The catalog's kind: `table`, `view`, `materialized_view`, `partitioned_table`, `foreign_table`. */
  readonly kind: string;
  /** A view's or materialized view's definition as indexed (pg_get_viewdef). */
  readonly definition: string | null;
  /**
   * The partitions and inheritance children the catalog knows of (`schema.name`): a read of the relation reads theirs
   * too, so one attached since the index, never classified, is drift. Absent: not checked.
   */
  readonly children?: readonly string[];
}

const RELKIND: Record<string, string> = { r: 'table', v: 'view', m: 'materialized_view', p: 'partitioned_table', f: 'foreign_table' };

/** The relations the rewrite rule of a view in `reach` (a recursive CTE of relation oids) reads: one step deeper. */
const VIEW_READS = `JOIN pg_catalog.pg_rewrite rw ON rw.ev_class = reach.oid
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = rw.oid
   AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.refobjid <> reach.oid`;

/**
 * The live columns, in order, kind and view definition of the relations a statement names and of every relation
 * their views read, at any depth, for the drift check: a view redefined under another one that did not change (its
 * text names the inner view only) reads other columns than the ones the catalog classified too.
 */
const LIVE_COLUMNS_SQL = `/* schemabrain:object-check */
WITH RECURSIVE reach(oid) AS (
  SELECT r.oid
  FROM pg_catalog.unnest($1::text[]) AS w(name)
  CROSS JOIN LATERAL (SELECT pg_catalog.to_regclass(w.name) AS oid) r
  WHERE r.oid IS NOT NULL
  UNION
  SELECT d.refobjid
  FROM reach
  ${VIEW_READS}
)
SELECT n.nspname::text AS schema, c.relname::text AS name, c.relkind::text AS kind,
       CASE WHEN c.relkind IN ('v', 'm') THEN pg_catalog.pg_get_viewdef(c.oid, true) END AS def,
       pg_catalog.array_agg(a.attname::text ORDER BY a.attnum) AS cols,
       ARRAY(SELECT cn.nspname::text || '.' || cc.relname::text FROM pg_catalog.pg_inherits i
             JOIN pg_catalog.pg_class cc ON cc.oid = i.inhrelid JOIN pg_catalog.pg_namespace cn ON cn.oid = cc.relnamespace
             WHERE i.inhparent = c.oid) AS children
FROM reach
JOIN pg_catalog.pg_class c ON c.oid = reach.oid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
GROUP BY n.nspname, c.relname, c.relkind, c.oid`;

const flat = (sql: string | null): string => (sql ?? '').replace(/\s+/g, ' ').trim();

export const OBJECT_VERDICT_TTL_MS = 10_000;

function quoteIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** `schema.rel` / `rel` (parser-normalised, unquoted) → text `to_regclass` reads the same way. */
function regclassText(written: string): string {
  const parts = written.split('.').filter((p) => p.length > 0);
  return parts.slice(-2).map(quoteIdent).join('.');
}

/**
 * One round trip inside the READ ONLY transaction: functions outside pg_catalog named like a pending call, and
 * everything reachable from the relations read — views and materialized views expanded recursively through their
 * rewrite rules, the functions and operator functions those rules use, the partitions and inheritance children of
 * every relation reached, row-security policy functions of tables with RLS enabled, and foreign tables; and the
 * functions outside pg_catalog that the statement would run without naming them: those of the operators it writes
 * (and of the comparisons sorting, grouping and joining use), of the casts to the types it casts to and of every
 * implicit or assignment cast, of the CHECK constraints of the domains it casts to, and the input functions of those
 * types. https://www.postgresql.org/docs/current/catalog-pg-depend.html
 */
const OBJECT_CHECK_BASE = `/* schemabrain:object-check */
WITH RECURSIVE named AS (
  SELECT DISTINCT c.oid, n.nspname::text AS via_schema, c.relname::text AS via, c.relkind::text AS via_kind
  FROM pg_catalog.unnest($2::text[]) AS w(name)
  CROSS JOIN LATERAL (SELECT pg_catalog.to_regclass(w.name) AS oid) r
  JOIN pg_catalog.pg_class c ON c.oid = r.oid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  -- system views are the system-catalog rule's (allowlist.ts); user views over them are still expanded below
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
), reach(oid, via_schema, via, via_kind) AS (
  SELECT oid, via_schema, via, via_kind FROM named
  UNION
  SELECT d.refobjid, reach.via_schema, reach.via, reach.via_kind
  FROM reach
  ${VIEW_READS}
), inherited(oid, via_schema, via, via_kind) AS (
  -- the partitions and inheritance children of every relation reached: a query of the parent reads their rows
  SELECT oid, via_schema, via, via_kind FROM reach
  UNION
  SELECT i.inhrelid, inherited.via_schema, inherited.via, inherited.via_kind
  FROM inherited JOIN pg_catalog.pg_inherits i ON i.inhparent = inherited.oid
), fn AS (
  SELECT reach.via_schema, reach.via, reach.via_kind, d.refobjid AS fn
  FROM reach
  JOIN pg_catalog.pg_rewrite rw ON rw.ev_class = reach.oid
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = rw.oid
   AND d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
  UNION
  SELECT reach.via_schema, reach.via, reach.via_kind, o.oprcode::pg_catalog.oid
  FROM reach
  JOIN pg_catalog.pg_rewrite rw ON rw.ev_class = reach.oid
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = rw.oid
   AND d.refclassid = 'pg_catalog.pg_operator'::pg_catalog.regclass
  JOIN pg_catalog.pg_operator o ON o.oid = d.refobjid
  UNION
  SELECT inherited.via_schema, inherited.via, 'p', d.refobjid
  FROM inherited
  JOIN pg_catalog.pg_class c ON c.oid = inherited.oid AND c.relrowsecurity
  JOIN pg_catalog.pg_policy pol ON pol.polrelid = c.oid
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_policy'::pg_catalog.regclass AND d.objid = pol.oid
   AND d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
)
SELECT 'view' AS what, fn.via_schema, fn.via, fn.via_kind, n.nspname::text AS schema, p.proname::text AS name, e.extname::text AS ext, NULL::bool AS on_path, NULL::text AS def
FROM fn
JOIN pg_catalog.pg_proc p ON p.oid = fn.fn
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_catalog.pg_depend de ON de.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND de.objid = p.oid AND de.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension e ON e.oid = de.refobjid
UNION ALL
SELECT 'foreign', inherited.via_schema, inherited.via, 'f', NULL, NULL, NULL, NULL, NULL
FROM inherited JOIN pg_catalog.pg_class c ON c.oid = inherited.oid AND c.relkind = 'f'
UNION ALL
-- built-in functions are pinned, so pg_depend does not list them: the definition itself is parsed instead
SELECT 'def', reach.via_schema, reach.via, c.relkind::text, NULL, NULL, NULL, NULL, pg_catalog.pg_get_viewdef(c.oid)
FROM reach JOIN pg_catalog.pg_class c ON c.oid = reach.oid AND c.relkind IN ('v', 'm')
UNION ALL
SELECT 'call', NULL, NULL, NULL, n.nspname::text, p.proname::text, e.extname::text, n.nspname = ANY (pg_catalog.current_schemas(true)), NULL
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_catalog.pg_depend de ON de.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND de.objid = p.oid AND de.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension e ON e.oid = de.refobjid
WHERE n.nspname <> 'pg_catalog' AND pg_catalog.lower(p.proname::text) = ANY ($1::text[])`;

/** The type CTEs the unnamed-function part reads (after `inherited`, before `fn`). */
const OBJECT_CHECK_TYPES = `), cast_to(oid) AS (
  -- the types the statement names (casts, ROW(…)::t, column definition lists), and the types inside them at any
  -- depth (TYPES_INSIDE: json_populate_record(null::t, …) builds every field, with its input function and its
  -- domain's CHECK)
  SELECT t.oid FROM pg_catalog.pg_type t WHERE pg_catalog.lower(t.typname::text) = ANY ($4::text[])
  UNION
  -- the types the views and rules reached name in their own casts and coercions (a view of 5::some_domain)
  SELECT d.refobjid FROM reach
  JOIN pg_catalog.pg_rewrite rw ON rw.ev_class = reach.oid
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = rw.oid
   AND d.refclassid = 'pg_catalog.pg_type'::pg_catalog.regclass
  UNION
  SELECT inner_type.oid FROM cast_to JOIN pg_catalog.pg_type t ON t.oid = cast_to.oid
  ${TYPES_INSIDE}
), read_types(oid) AS (
  -- the types of the columns of every relation reached, and the types inside them: array elements, domain bases,
  -- composite fields (comparing a row, an array or a domain compares what is inside with its own type's functions)
  SELECT a.atttypid FROM inherited
  JOIN pg_catalog.pg_attribute a ON a.attrelid = inherited.oid AND a.attnum > 0 AND NOT a.attisdropped
  UNION
  SELECT inner_type.oid FROM read_types JOIN pg_catalog.pg_type t ON t.oid = read_types.oid
  ${TYPES_INSIDE}
`;

/** The unnamed-function part, appended to the base query when the database has functions that could be reached so. */
const OBJECT_CHECK_EFFECTS = `
UNION ALL
-- functions the statement runs without naming them (pinned built-ins are in pg_catalog and left out below)
SELECT 'effect', NULL, effect.label, effect.kind, n.nspname::text, p.proname::text, e.extname::text, NULL, NULL
FROM (
  -- an operator the statement writes (or a comparison that ORDER BY, GROUP BY, DISTINCT or a join uses), with the
  -- planner's estimators, where it takes built-in types only or a type the statement reads or casts to
  SELECT 'o' AS kind, 'the operator ' || o.oprname::text AS label, f.fn
  FROM pg_catalog.pg_operator o
  CROSS JOIN LATERAL (VALUES (o.oprcode::pg_catalog.oid), (o.oprrest::pg_catalog.oid), (o.oprjoin::pg_catalog.oid)) f(fn)
  WHERE o.oprname = ANY ($3::text[]) AND f.fn <> 0 AND (
    NOT EXISTS (SELECT 1 FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
                WHERE t.oid IN (o.oprleft, o.oprright) AND tn.nspname <> 'pg_catalog')
    OR EXISTS (SELECT 1 FROM read_types WHERE read_types.oid IN (o.oprleft, o.oprright))
    OR EXISTS (SELECT 1 FROM cast_to WHERE cast_to.oid IN (o.oprleft, o.oprright)))
  UNION
  -- the support functions of the operator classes of every type read or cast to, at any depth: sorting, grouping,
  -- DISTINCT, IN and hashing call them without an operator being written
  SELECT 'a', 'comparisons of the type ' || t.typname::text, ap.amproc::pg_catalog.oid
  FROM (SELECT oid FROM read_types UNION SELECT oid FROM cast_to) used
  JOIN pg_catalog.pg_type t ON t.oid = used.oid
  JOIN pg_catalog.pg_opclass oc ON oc.opcintype = used.oid
  JOIN pg_catalog.pg_amproc ap ON ap.amprocfamily = oc.opcfamily
  UNION
  -- a cast the statement writes to a type, and any cast PostgreSQL applies by itself (implicit or in assignment)
  SELECT 'c', 'a cast to ' || t.typname::text, c.castfunc
  FROM pg_catalog.pg_cast c JOIN pg_catalog.pg_type t ON t.oid = c.casttarget
  WHERE c.castfunc <> 0 AND (c.casttarget IN (SELECT oid FROM cast_to) OR c.castcontext IN ('i', 'a'))
  UNION
  -- the CHECK constraints of a domain named or inside a type named, and of the domains it is built on; and of a
  -- domain inside the rows the statement reads, which a row value rebuilt from text or JSON checks again
  -- (jsonb_populate_record(t, …), hstore's #=), with no type named
  SELECT 'd', 'the domain ' || t.typname::text, d.refobjid
  FROM (SELECT oid FROM cast_to UNION SELECT oid FROM read_types) used JOIN pg_catalog.pg_type t ON t.oid = used.oid AND t.typtype = 'd'
  JOIN pg_catalog.pg_constraint con ON con.contypid = t.oid
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_constraint'::pg_catalog.regclass AND d.objid = con.oid
   AND d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
  UNION
  -- the input function of a type named, and of the types inside it
  SELECT 't', 'the type ' || t.typname::text, t.typinput::pg_catalog.oid FROM cast_to JOIN pg_catalog.pg_type t ON t.oid = cast_to.oid
) effect
JOIN pg_catalog.pg_proc p ON p.oid = effect.fn
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_catalog.pg_depend de ON de.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND de.objid = p.oid AND de.deptype = 'e'
LEFT JOIN pg_catalog.pg_extension e ON e.oid = de.refobjid
WHERE n.nspname <> 'pg_catalog'`;

/** The whole check: the base query with the type CTEs and the unnamed-function part. */
const OBJECT_CHECK_SQL = OBJECT_CHECK_BASE.replace('), fn AS (', `${OBJECT_CHECK_TYPES}), fn AS (`) + OBJECT_CHECK_EFFECTS;

/**
 * Whether the database has any function outside pg_catalog that a statement could run without naming it: behind an
 * operator, a cast, an operator class, a domain CHECK or a type's input. Most have none, and the check then leaves
 * that part out (it is the costly part to plan).
 */
const UNNAMED_FUNCTIONS_SQL = `/* schemabrain:object-check */
SELECT EXISTS (
  SELECT 1 FROM (
    SELECT oprcode::pg_catalog.oid AS fn FROM pg_catalog.pg_operator
    UNION ALL SELECT oprrest::pg_catalog.oid FROM pg_catalog.pg_operator
    UNION ALL SELECT oprjoin::pg_catalog.oid FROM pg_catalog.pg_operator
    UNION ALL SELECT castfunc FROM pg_catalog.pg_cast
    UNION ALL SELECT amproc::pg_catalog.oid FROM pg_catalog.pg_amproc
    UNION ALL SELECT typinput::pg_catalog.oid FROM pg_catalog.pg_type
    UNION ALL SELECT refobjid FROM pg_catalog.pg_depend
      WHERE classid = 'pg_catalog.pg_constraint'::pg_catalog.regclass AND refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
  ) used
  JOIN pg_catalog.pg_proc p ON p.oid = used.fn
  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname <> 'pg_catalog'
) AS present`;

const VIA_KIND: Record<string, ViewDependency['viaKind']> = { v: 'view', m: 'materialized view', f: 'foreign table', p: 'table', r: 'table' };

/** Runs the live object check on `client` (inside the caller's transaction). Null when everything passes. */
export async function checkObjects(client: ClientBase, check: ObjectCheck): Promise<FunctionRefusal | null> {
  const names = [...new Set(check.pending.map((p) => p.name))];
  const relations = [...new Set(check.relations.map(regclassText))].filter((r) => r.length > 0);
  const unnamed = await hasUnnamedFunctions(client, check);
  if (!unnamed && names.length === 0 && relations.length === 0) return null;
  const operators = unnamed ? [...new Set([...(check.operators ?? []), ...IMPLICIT_OPERATORS])] : [];
  const castTypes = unnamed ? [...new Set(check.castTypes ?? [])] : [];
  const key = JSON.stringify([names.sort(), relations.sort(), check.pending.map((p) => [p.written, p.allowedStatically]), operators.sort(), castTypes.sort(), unnamed, check.expectedColumns !== undefined]);
  const cached = remembered(check, key);
  if (cached !== undefined) return cached;
  const refusal = await liveObjectCheck(client, check, names, relations, unnamed ? { operators, castTypes } : null);
  remember(check, key, refusal);
  return refusal;
}

function remembered(check: ObjectCheck, key: string): FunctionRefusal | null | undefined {
  const cached = check.verdicts?.get(key);
  return cached && performance.now() - cached.at < OBJECT_VERDICT_TTL_MS ? cached.refusal : undefined;
}

function remember(check: ObjectCheck, key: string, refusal: FunctionRefusal | null): void {
  if (!check.verdicts) return;
  if (check.verdicts.size > 500) check.verdicts.clear();
  check.verdicts.set(key, { at: performance.now(), refusal });
}

/** The answer of UNNAMED_FUNCTIONS_SQL per connection, for checks without a source pool's verdicts. */
const unnamedByClient = new WeakMap<object, { readonly at: number; readonly present: boolean }>();

/**
 * Whether the database has functions a statement could run unnamed (UNNAMED_FUNCTIONS_SQL), kept as long as a
 * verdict is: with the source pool's verdicts, else per connection.
 */
async function hasUnnamedFunctions(client: ClientBase, check: ObjectCheck): Promise<boolean> {
  const key = '\u0000unnamed-functions';
  const cached = check.verdicts ? remembered(check, key) : undefined;
  if (cached !== undefined) return cached !== null;
  const own = check.verdicts ? undefined : unnamedByClient.get(client);
  if (own && performance.now() - own.at < OBJECT_VERDICT_TTL_MS) return own.present;
  const present = (await client.query<{ present: boolean }>(UNNAMED_FUNCTIONS_SQL)).rows[0]?.present === true;
  // Stored as a verdict: a refusal-shaped marker when present, null when not.
  if (check.verdicts) remember(check, key, present ? { name: '', message: '' } : null);
  else unnamedByClient.set(client, { at: performance.now(), present });
  return present;
}

/**
 * Comparisons a statement may use without writing them: ORDER BY, GROUP BY, DISTINCT, joins and set operations
 * pick them by type; BETWEEN and IN are written as words.
 */
const IMPLICIT_OPERATORS = ['=', '<>', '<', '>', '<=', '>='];

async function liveObjectCheck(
  client: ClientBase,
  check: ObjectCheck,
  names: string[],
  relations: string[],
  unnamed: { readonly operators: string[]; readonly castTypes: string[] } | null,
): Promise<FunctionRefusal | null> {
  // The planner's guesses for the recursive parts of the unnamed-function check run to millions of rows, which would
  // have it JIT-compile a query that takes milliseconds (seconds of compiling on every call): JIT is off for it.
  const jit = unnamed
    ? await client.query<{ prev: string | null }>("SELECT pg_catalog.current_setting('jit', true) AS prev, CASE WHEN pg_catalog.current_setting('jit', true) IS NOT NULL THEN pg_catalog.set_config('jit', 'off', true) END")
    : null;
  const previousJit = jit?.rows[0]?.prev ?? null;
  const r = await client.query<{
    what: string;
    via_schema: string | null;
    via: string | null;
    via_kind: string | null;
    schema: string | null;
    name: string | null;
    ext: string | null;
    on_path: boolean | null;
    def: string | null;
  }>({
    text: unnamed ? OBJECT_CHECK_SQL : OBJECT_CHECK_BASE,
    values: unnamed ? [names, relations, unnamed.operators, unnamed.castTypes] : [names, relations],
  });
  if (previousJit !== null) await client.query("SELECT pg_catalog.set_config('jit', $1, true)", [previousJit]);
  if (check.expectedColumns && relations.length > 0) {
    const live = await client.query<{ schema: string; name: string; kind: string; def: string | null; cols: string[]; children: string[] }>(LIVE_COLUMNS_SQL, [relations]);
    for (const row of live.rows) {
      const expected = check.expectedColumns(row.schema, row.name);
      if (expected === undefined) continue;
      const cols = expected.columns;
      const sameColumns = cols.length === row.cols.length && cols.every((c, i) => c === row.cols[i]);
      // A view redefined with the same column names, or a table replaced by a view, reads other columns than the
      // ones the catalog classified.
      const sameKind = (RELKIND[row.kind] ?? row.kind) === expected.kind;
      const sameDefinition = row.def === null || expected.definition === null || flat(row.def) === flat(expected.definition);
      const known = expected.children ? new Set(expected.children.map((c) => c.toLowerCase())) : null;
      const newChild = known ? (row.children ?? []).find((c) => !known.has(c.toLowerCase())) : undefined;
      if (newChild !== undefined) {
        return {
          name: '(schema drift)',
          schema_drift: true,
          message: `${row.schema}.${row.name} has a partition or child table that was not there when it was indexed (${newChild}), whose columns were never classified; re-index the source, then run the query again`,
        } as FunctionRefusal;
      }
      if (!sameColumns || !sameKind || !sameDefinition) {
        return {
          name: '(schema drift)',
          schema_drift: true,
          message: `${row.schema}.${row.name} has changed since it was indexed (${!sameKind ? `it is now a ${RELKIND[row.kind] ?? row.kind}` : !sameColumns ? 'its columns are not the ones the catalog classified' : 'its definition is not the one the catalog classified'}); re-index the source, then run the query again`,
        } as FunctionRefusal;
      }
    }
  }
  const calls: LiveFunction[] = [];
  const viewDeps: ViewDependency[] = [];
  const implicit: ImplicitCall[] = [];
  for (const row of r.rows) {
    if (row.what === 'effect' && row.schema && row.name && row.via) implicit.push({ through: row.via, fn: { schema: row.schema, name: row.name, extension: row.ext } });
    else if (row.what === 'call' && row.schema && row.name) calls.push({ schema: row.schema, name: row.name, extension: row.ext, onSearchPath: row.on_path !== false });
    else if (row.what === 'def' && row.via_schema && row.via) {
      const refusal = viewDefinitionRefusal(check, row.via_schema, row.via, row.via_kind === 'm' ? 'materialized view' : 'view', row.def ?? '');
      if (refusal) return refusal;
    } else if (row.via_schema && row.via) {
      viewDeps.push({
        viaSchema: row.via_schema,
        via: row.via,
        viaKind: VIA_KIND[row.via_kind ?? ''] ?? 'view',
        fn: row.what === 'foreign' || !row.schema || !row.name ? null : { schema: row.schema, name: row.name, extension: row.ext },
      });
    }
  }
  return decidePendingCalls(check.pending, calls, check.policy) ?? decideViewDependencies(viewDeps, check.policy) ?? decideImplicitCalls(implicit, check.policy);
}

/** A view's definition, parsed with the same guard: every built-in it calls must pass the agent's own rules. */
function viewDefinitionRefusal(check: ObjectCheck, schema: string, name: string, kind: string, def: string): FunctionRefusal | null {
  if (check.policy.allowsView(schema, name)) return null;
  const rel = `${schema}.${name}`;
  const g = check.guard.guard(def.trim().replace(/;$/, ''), 'postgres');
  const offending = g.ok ? checkPostgresCalls(g.functions, check.policy).refusal?.name : (g.detail ?? 'a statement the guard refuses');
  if (!offending) return null;
  return {
    name: rel,
    message: `argument 'sql' reads ${rel}, a ${kind} whose definition calls ${offending}, which is not on the allow-list of side-effect-free functions; query its base tables instead, or ask the operator to allow it with --allow-views ${rel}`,
  };
}

function refusedOutcome(refusal: FunctionRefusal): QueryOutcome {
  const reason = (refusal as { schema_drift?: boolean }).schema_drift ? 'schema_drift' : 'forbidden_function';
  return { ok: false, kind: 'refused', guard: { ok: false, dialect: 'postgres', reason, message: refusal.message, detail: refusal.name } };
}

function tooLarge(client: object): QueryOutcome | null {
  const o = oversizeOf(client);
  if (!o) return null;
  const mb = (n: number): string => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  return {
    ok: false,
    kind: 'too_large',
    message: `one ${o.type === 'D' ? 'row' : 'message'} of the result is ${mb(o.bytes)}, over the ${mb(o.limit)} limit for a single row; select fewer or shorter columns (left(col, 200), length(col)) or aggregate`,
    code: '54000',
  };
}

/**
 * Layers 2 and 3 only: runs `sql` in a READ ONLY transaction with the caps, without the parser guard. Exported so
 * each layer can be tested on its own; production callers use `runReadOnlyPostgres`.
 */
export async function executeReadOnlyPostgres(
  client: ClientBase,
  sql: string,
  params: readonly unknown[],
  caps: Partial<QueryCaps>,
  meta: ExecuteMeta,
  objects?: ObjectCheck,
  noIndexScans = false,
): Promise<QueryOutcome> {
  const timeoutMs = intMs(caps.timeoutMs ?? DEFAULT_CAPS.timeoutMs, 'timeoutMs');
  const budget = new RowBudget(caps.maxRows ?? DEFAULT_CAPS.maxRows, caps.maxBytes ?? DEFAULT_CAPS.maxBytes);
  const signal = caps.signal;
  const started = performance.now();
  if (signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled before it started', code: null };

  let inTransaction = false;
  let cancelling: Promise<boolean> | null = null;
  const onAbort = (): void => {
    cancelling = sendCancelRequest(client);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await client.query('BEGIN TRANSACTION READ ONLY');
    inTransaction = true;
    await client.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
    await client.query(`SET LOCAL lock_timeout = ${timeoutMs}`);
    // Names resolve as the checks resolve them (an unqualified name is `public.name`, run_query.ts defaultSchema): a
    // schema named after the role (`$user`, first in the default search_path) cannot put another relation first.
    // Strings are read as the guard's parser read them: a database or role set to standard_conforming_strings = off
    // reads `\'` inside '…' as an escaped quote, so text the guard took for a literal would run as SQL.
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.max(timeoutMs * 2, 1000)}; SET LOCAL search_path = public; SET LOCAL standard_conforming_strings = on`);
    if (objects) {
      const refusal = await checkObjects(client, objects);
      if (refusal) {
        await client.query('ROLLBACK');
        inTransaction = false;
        return refusedOutcome(refusal);
      }
    }
    // For the agent's statement only (the object check above keeps its own plans).
    if (noIndexScans) await client.query('SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off');

    const PgCursor = pgCursor();
    const cursor = client.query(new PgCursor<unknown[]>(sql, params as unknown[], { rowMode: 'array' }));
    let fields: FieldDef[] = [];
    let cancelled = false;
    // Rows are fetched in batches; on the wire, the rows of all batches together may not pass twice the answer's byte
    // cap (and a little room): past that the answer is cut already, and large rows are not read in at all.
    const wire = limitResult(client, wireBudget(budget.maxBytes));
    // The rows of the batch being read, as they are parsed: kept when the wire cuts the batch short.
    const arrived: unknown[][] = [];
    cursor.on('row', (row: unknown[]) => arrived.push(row));
    try {
      for (;;) {
        if (signal?.aborted) {
          cancelled = true;
          break;
        }
        const wanted = Math.min(BATCH_ROWS, budget.rowsWanted());
        let batch: { rows: unknown[][]; fields: FieldDef[] };
        arrived.length = 0;
        try {
          batch = await readBatch(cursor, wanted);
        } catch (e) {
          if (!wire.cut()) throw e;
          // The connection is closed: the rows taken, and those of this batch that arrived, are the answer, cut by
          // bytes. The columns are those the row description named (pg-cursor keeps it); their types are not looked up.
          budget.take(arrived.map((r) => r.map(toJsonValue)));
          budget.truncatedBy = 'bytes';
          const described = fields.length > 0 ? fields : ((cursor as unknown as { _result?: { fields?: FieldDef[] } })._result?.fields ?? []);
          return { ok: true, result: budget.result(described.map((f) => ({ name: f.name, dataType: `oid:${f.dataTypeID}` })), started, meta) };
        }
        if (batch.fields.length > 0) fields = batch.fields;
        const more = budget.take(batch.rows.map((r) => r.map(toJsonValue)));
        if (!more || batch.rows.length < wanted) break;
      }
    } finally {
      wire.release();
    }
    await cursor.close();
    if (cancelled) {
      await client.query('ROLLBACK');
      inTransaction = false;
      return { ok: false, kind: 'cancelled', message: 'the query was cancelled', code: null };
    }
    const names = await typeNames(client, fields);
    await client.query('ROLLBACK');
    inTransaction = false;
    const columns: ResultColumn[] = fields.map((f) => ({ name: f.name, dataType: names.get(f.dataTypeID) ?? `oid:${f.dataTypeID}` }));
    return { ok: true, result: budget.result(columns, started, meta) };
  } catch (e) {
    if (inTransaction) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // the connection is gone; the caller destroys it
      }
    }
    const big = tooLarge(client);
    if (big) return big;
    if (signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled', code: '57014' };
    return classifyPostgresError(e);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // a cancel still in flight must land before the connection is used again
    if (cancelling) await cancelling;
  }
}

/**
 * Leaves a pooled session as a fresh one would be: DISCARD ALL closes cursors, resets every setting to its
 * connection-start value (default_transaction_read_only stays on: it came with the startup packet), releases
 * session advisory locks, drops temporary objects and prepared statements, and forgets sequence state; random()'s
 * seed survives both ROLLBACK and DISCARD ALL, so it is re-seeded from the OS. Throws when the session cannot be
 * reset; the caller then destroys the connection. https://www.postgresql.org/docs/current/sql-discard.html
 */
export async function resetSession(client: ClientBase): Promise<void> {
  await client.query('DISCARD ALL');
  // node-postgres remembers which named statements it prepared on this connection; DISCARD ALL dropped them
  const conn = (client as unknown as { connection?: { parsedStatements?: Record<string, unknown> } }).connection;
  if (conn?.parsedStatements) conn.parsedStatements = {};
  const seed = (crypto.randomInt(0, 2_000_000_001) - 1_000_000_000) / 1_000_000_000;
  await client.query(`SELECT pg_catalog.setseed(${seed.toFixed(9)})`);
}

export interface RunOptions {
  /** Which user functions and views the operator allows (default: the source pool's, else none). */
  readonly policy?: FunctionPolicy;
  /**
   * False only for SchemaBrain's own constant statements that read a known extension view on purpose
   * (pg_stat_statements); agent SQL and compiled metric/profile SQL are always checked.
   */
  readonly checkObjects?: boolean;
  /**
   * No index scans for the statement (`enable_indexscan` and `enable_indexonlyscan` off): it reads a masked table with
   * an index over a blocked column, and an index-only scan of that index hands the rows out in the order of the values.
   */
  readonly noIndexScans?: boolean;
  /** What the catalog holds of a relation, for the drift check (ObjectCheck.expectedColumns). */
  readonly expectedColumns?: (schema: string, name: string) => ExpectedRelation | undefined;
}

/**
 * All three layers: guard, then the function allow-list (by name, then against the live catalog together with
 * every view the statement reads), then the READ ONLY transaction with caps. `conn` is a connected client (left
 * connected), a pool (a client is borrowed, reset and returned; destroyed if anything failed) or a `SourcePool`
 * (the same, behind the per-source queue: a full queue is a `busy` outcome).
 */
export async function runReadOnlyPostgres(
  conn: PgConnectable,
  guard: SqlGuard,
  sql: string,
  params: readonly unknown[] = [],
  caps: Partial<QueryCaps> = {},
  opts: RunOptions = {},
): Promise<QueryOutcome> {
  const g = guard.guard(sql, 'postgres');
  if (!g.ok) return { ok: false, kind: 'refused', guard: g };
  const meta = { statementKind: g.statementKind, fingerprint: g.fingerprint };
  const policy = opts.policy ?? (conn instanceof SourcePool ? conn.policy : DEFAULT_FUNCTION_POLICY);
  let objects: ObjectCheck | undefined;
  const noIndexScans = opts.noIndexScans === true;
  if (opts.checkObjects !== false) {
    const calls = checkPostgresCalls(g.functions, policy);
    if (calls.refusal) return refusedOutcome(calls.refusal);
    objects = {
      guard,
      policy,
      pending: calls.pending,
      relations: g.tables,
      operators: g.operators ?? [],
      castTypes: g.castTypes ?? [],
      ...(conn instanceof SourcePool ? { verdicts: conn.objectVerdicts } : {}),
      ...(opts.expectedColumns ? { expectedColumns: opts.expectedColumns } : {}),
    };
  }
  if (conn instanceof SourcePool) {
    const timeoutMs = caps.timeoutMs ?? DEFAULT_CAPS.timeoutMs;
    let lease;
    try {
      lease = await conn.acquire(timeoutMs, caps.signal);
    } catch (e) {
      return classifyPostgresError(e);
    }
    if ('busy' in lease) {
      return {
        ok: false,
        kind: 'busy',
        message: `the source is busy (${lease.running} queries running, ${lease.waiting} waiting); retry the same call in about ${Math.ceil(lease.retryAfterMs / 1000)} s`,
        code: null,
      };
    }
    const capped = lease.timeoutCapMs !== null ? { ...caps, timeoutMs: Math.min(timeoutMs, lease.timeoutCapMs) } : caps;
    return withPooledClient(lease.client, (c) => executeReadOnlyPostgres(c, sql, params, capped, meta, objects, noIndexScans), (destroy) => lease.release(destroy));
  }
  if (!isPool(conn)) return executeReadOnlyPostgres(conn, sql, params, caps, meta, objects, noIndexScans);
  let client: PoolClient;
  try {
    client = await conn.connect();
  } catch (e) {
    return classifyPostgresError(e);
  }
  return withPooledClient(client, (c) => executeReadOnlyPostgres(c, sql, params, caps, meta, objects, noIndexScans), (destroy) => client.release(destroy ? true : undefined));
}

/** Runs `work`, then resets the session before the connection goes back; any failure destroys it instead. */
async function withPooledClient(client: PoolClient, work: (c: PoolClient) => Promise<QueryOutcome>, release: (destroy: boolean) => void): Promise<QueryOutcome> {
  let outcome: QueryOutcome | undefined;
  let clean = false;
  try {
    outcome = await work(client);
    if (outcome.ok || outcome.kind === 'refused') {
      await resetSession(client);
      clean = true;
    }
    return outcome;
  } catch (e) {
    return outcome ?? classifyPostgresError(e);
  } finally {
    release(!clean);
  }
}
