/**
 * Schema allow-list for guarded queries: a source may expose only some schemas to agents. Unqualified names are
 * resolved against `defaultSchema` (PostgreSQL's `search_path` head, `main` for SQLite) — the caller passes the
 * same value it sets on the connection, so what is checked is what runs.
 */

export interface AllowlistViolation {
  /** Relations outside the allowed schemas, as written in the query. */
  readonly tables: readonly string[];
  /** Schemas that would have to be allowed, for the charter's `widening_hint`. */
  readonly schemasNeeded: readonly string[];
  /** Charter v1.1 `widening_hint` (seed 001): the scope that would unblock the call. */
  readonly wideningHint: { readonly scope_requested: string; readonly would_unblock: boolean; readonly reason: string };
  readonly message: string;
}

/** Schemas holding system catalogs: always refused unless allowed explicitly by name. */
const SYSTEM_SCHEMAS = new Set(['pg_catalog', 'information_schema', 'pg_toast']);

function schemaOf(table: string, defaultSchema: string): string {
  // `db.schema.table` → schema; `schema.table` → schema; `table` → default
  const parts = table.split('.');
  return parts.length >= 2 ? parts[parts.length - 2] : defaultSchema;
}

/**
 * Returns null when every table lives in an allowed schema, else the violation. `allowedSchemas` empty or
 * undefined means "every non-system schema". Catalog tables (`pg_class`, `pg_stat_activity`, …) referenced
 * without a schema are treated as `pg_catalog` when their name says so, because PostgreSQL always searches
 * pg_catalog first for them.
 */
export function checkAllowlist(
  tables: readonly string[],
  allowedSchemas: readonly string[] | undefined,
  defaultSchema = 'public',
): AllowlistViolation | null {
  const allowed = new Set((allowedSchemas ?? []).map((s) => s.toLowerCase()));
  const bad: string[] = [];
  const needed: string[] = [];
  for (const t of tables) {
    const bare = t.split('.').pop() ?? t;
    let schema = schemaOf(t, defaultSchema).toLowerCase();
    if (!t.includes('.') && /^pg_/.test(bare)) schema = 'pg_catalog';
    // SQLite reserves every `sqlite_` name for itself (case-insensitively), in `main`, `temp` and attached schemas alike,
    // so `main.sqlite_master`, `temp.sqlite_master` and `"SQLITE_MASTER"` are the same system catalog.
    if (/^sqlite_/i.test(bare) && (!t.includes('.') || defaultSchema === 'main')) schema = 'sqlite_schema';
    const ok = allowed.size === 0 ? !SYSTEM_SCHEMAS.has(schema) && schema !== 'sqlite_schema' : allowed.has(schema);
    if (!ok) {
      bad.push(t);
      if (!needed.includes(schema)) needed.push(schema);
    }
  }
  if (bad.length === 0) return null;
  const system = needed.some((s) => SYSTEM_SCHEMAS.has(s) || s === 'sqlite_schema');
  return {
    tables: bad,
    schemasNeeded: needed,
    wideningHint: {
      scope_requested: needed.map((s) => `schema:${s}`).join(','),
      would_unblock: !system,
      reason: system
        ? `the query reads system catalogs (${needed.join(', ')}); use describe_table / list_indexed_schemas instead`
        : `the source allows only ${[...allowed].join(', ') || 'non-system schemas'}; an operator can add ${needed.join(', ')} to the source's allowed schemas`,
    },
    message: `argument 'sql' reads ${bad.join(', ')} outside the allowed schemas`,
  };
}
