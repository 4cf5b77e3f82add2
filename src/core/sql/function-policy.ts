import { PG_BUILTIN_ALLOWED_NAMES } from './pg-builtin-functions';

/**
 * Which functions a guarded query may call: an allow-list, by construction.
 *
 * PostgreSQL, three layers that each refuse on their own:
 * 1. The parser guard (`pg-guard.ts`) refuses a deny-list of built-ins with effects or server introspection by bare
 *    name, whatever schema qualification, quoting or case is used (`U&"pg\005fsleep"`, `"PG_CATALOG".setseed` and
 *    `setseed` are one call): file and network access, sleeping, advisory locks, signalling backends, configuration,
 *    sequences, index maintenance that writes inside a READ ONLY transaction (brin_summarize_new_values,
 *    gin_clean_pending_list), SQL-in-a-string executors, and every `pg_*` helper not on a short list of harmless ones
 *    (pg_typeof, pg_column_size, …), which covers pg_stat_get_activity, pg_hba_file_rules, pg_show_all_settings,
 *    pg_config, pg_control_*, pg_get_*def, pg_read_file, pg_ls_dir, pg_database_size and friends.
 * 2. Before execution (`checkPostgresCalls`), every call must be on the allow-list: a pg_catalog built-in from
 *    `PG_BUILTIN_ALLOWED_NAMES` (math, string, date/time, JSON, arrays, aggregates, windows, ranges, text search,
 *    regex, formatting, casts), a function of a trusted extension, or a function the operator allowed by name.
 *    A call qualified with any schema other than pg_catalog is a user or extension function and is decided live.
 * 3. Inside the READ ONLY transaction, against the live catalog (`pg-exec.ts`): a name that also exists as a
 *    function outside pg_catalog is refused unless that function belongs to a trusted extension or is allowed by the
 *    operator (PostgreSQL resolves overloads by argument types, so `public.upper(varchar)` can win over
 *    `pg_catalog.upper(text)` for an unqualified `upper(x)`); `pg_catalog.upper(x)` is never shadowed. Views and
 *    materialized views the query reads are expanded recursively through pg_rewrite/pg_depend, and every function or
 *    operator function their definitions use (and row-security policies on the tables they read) must pass the same
 *    test; foreign tables (file_fdw can run a program) are refused.
 *
 * The operator allows user functions and views by name with `--allow-functions` / `--allow-views` (or
 * SCHEMABRAIN_ALLOW_FUNCTIONS / SCHEMABRAIN_ALLOW_VIEWS): `schema.name` allows that one object, a bare `name` allows
 * it in every schema.
 *
 * Function lists: https://www.postgresql.org/docs/current/functions-admin.html,
 * https://www.postgresql.org/docs/current/functions-info.html, https://www.postgresql.org/docs/current/lo-funcs.html,
 * https://www.postgresql.org/docs/current/functions-xml.html, https://www.sqlite.org/lang_corefunc.html.
 */

const PG_DENIED_EXACT = new Set<string>([
  // sleeping holds a connection for the whole timeout
  'pg_sleep',
  'pg_sleep_for',
  'pg_sleep_until',
  // configuration and signalling
  'set_config',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_rotate_logfile_old',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_signal_backend',
  'pg_log_backend_memory_contexts',
  'pg_promote',
  'pg_current_logfile',
  // sequences
  'nextval',
  'setval',
  // transaction ids: assigning one is a write to shared state
  'txid_current',
  'pg_current_xact_id',
  // notifications
  'pg_notify',
  // SQL hidden in a string: the statement inside would never pass this guard
  'query_to_xml',
  'query_to_xmlschema',
  'query_to_xml_and_xmlschema',
  'cursor_to_xml',
  'cursor_to_xmlschema',
  'table_to_xml',
  'table_to_xmlschema',
  'table_to_xml_and_xmlschema',
  'schema_to_xml',
  'schema_to_xmlschema',
  'schema_to_xml_and_xmlschema',
  'database_to_xml',
  'database_to_xmlschema',
  'database_to_xml_and_xmlschema',
  'ts_stat',
  'ts_rewrite',
  // snapshots and statistics resets
  'pg_export_snapshot',
  'pg_import_system_collations',
  'pg_stat_statements_reset',
  'pg_prewarm',
  'pg_truncate_visibility_map',
  'pg_create_restore_point',
  'pg_switch_wal',
  'pg_switch_xlog',
  'pg_start_backup',
  'pg_stop_backup',
  'pg_backup_start',
  'pg_backup_stop',
  'pg_extension_config_dump',
  'pg_sync_replication_slots',
  'pg_replication_slot_advance',
  'pg_drop_replication_slot',
  'pg_logical_emit_message',
  'pg_file_write',
  'pg_file_rename',
  'pg_file_unlink',
  'pg_file_sync',
  'pg_logdir_ls',
  'pg_stat_file',
  'loread',
  'lowrite',
  // state that a READ ONLY transaction does not stop, or that survives ROLLBACK
  'setseed',
  'gin_clean_pending_list',
  'pg_nextoid',
  'inet_client_addr',
  'inet_client_port',
  'inet_server_addr',
  'inet_server_port',
  'crosstab', // tablefunc: runs the SQL text it is given
  'crosstab2',
  'crosstab3',
  'crosstab4',
  'connectby',
]);

/**
 * Built-ins left out of the generated list on purpose but harmless: current_setting (its argument is checked by the
 * guard), version(), the comment readers that describe_table answers as well, and currval/lastval (they read this
 * session's sequence state, which DISCARD ALL clears between calls).
 */
const PG_ALSO_ALLOWED = new Set<string>(['current_setting', 'version', 'obj_description', 'col_description', 'currval', 'lastval']);

/** The only `pg_*` built-ins agent SQL may call: they describe a value, never the server. */
const PG_HARMLESS_PG_PREFIXED = new Set<string>([
  'pg_typeof',
  'pg_column_size',
  'pg_size_pretty',
  'pg_size_bytes',
  'pg_input_is_valid',
  'pg_input_error_info',
  'pg_collation_for',
  'pg_client_encoding',
  'pg_get_serial_sequence',
]);

const PG_DENIED_PATTERNS: readonly RegExp[] = [
  /^pg_read_/, // pg_read_file, pg_read_binary_file
  /^pg_ls_/, // pg_ls_dir, pg_ls_logdir, pg_ls_waldir, pg_ls_tmpdir, ...
  /^pg_file_/, // adminpack
  /^lo_/, // large objects: lo_import/lo_export touch the server's file system
  /^dblink/, // network, and writes in another transaction
  /advisory.*lock/, // pg_advisory_lock (session level survives ROLLBACK), pg_try_advisory_xact_lock, unlock_all
  /^pg_stat_reset/,
  /^pg_wal_replay_/,
  /^pg_xlog_replay_/,
  /^pg_create_.*replication_slot$/,
  /^pg_copy_.*replication_slot$/,
  /^pg_logical_slot_/, // get_changes consumes the slot
  /^pg_replication_origin_/,
  /^binary_upgrade_/,
  /^brin_/, // brin_summarize_new_values / brin_summarize_range / brin_desummarize_range write the index
  /^txid_/,
  /^has_.*_privilege$/,
  /^(database|schema|table|query|cursor)_to_xml/,
  /^dblink/,
];

/**
 * System set-returning functions that may appear in FROM. A FROM function named `pg_*` or qualified with
 * `pg_catalog` must be on this list (the admin and statistics SRFs live there); other functions in FROM — user
 * SRFs such as Pagila's `film_in_stock`, scalar helpers such as `to_tsquery(...) q` — pass, subject to the deny-list.
 */
const PG_FROM_ALLOWED = new Set<string>([
  'generate_series',
  'generate_subscripts',
  'unnest',
  'json_each',
  'json_each_text',
  'jsonb_each',
  'jsonb_each_text',
  'json_array_elements',
  'json_array_elements_text',
  'jsonb_array_elements',
  'jsonb_array_elements_text',
  'json_object_keys',
  'jsonb_object_keys',
  'json_to_record',
  'json_to_recordset',
  'jsonb_to_record',
  'jsonb_to_recordset',
  'json_populate_record',
  'json_populate_recordset',
  'jsonb_populate_record',
  'jsonb_populate_recordset',
  'jsonb_path_query',
  'jsonb_path_query_tz',
  'regexp_matches',
  'regexp_split_to_table',
  'string_to_table',
  'ts_debug',
  'ts_parse',
  'ts_token_type',
  'pg_get_keywords',
  'pg_options_to_table',
  'aclexplode',
  'pg_input_error_info',
]);

/** Strip a schema qualifier: policy is by function name, whichever schema it lives in (a shadowing copy is no safer). */
function bareName(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot >= 0 ? name.slice(dot + 1) : name).toLowerCase();
}

/**
 * Settings `current_setting('…')` may read: how values are formatted and compared. Everything else (hba_file,
 * data_directory, config_file, ssl_key_file, log paths, shared_preload_libraries, …) describes the server.
 */
const PG_READABLE_SETTINGS = new Set([
  'timezone',
  'datestyle',
  'intervalstyle',
  'search_path',
  'server_version',
  'server_version_num',
  'server_encoding',
  'client_encoding',
  'lc_collate',
  'lc_ctype',
  'lc_monetary',
  'lc_numeric',
  'lc_time',
  'default_text_search_config',
  'extra_float_digits',
  'standard_conforming_strings',
  'bytea_output',
  'max_identifier_length',
  'integer_datetimes',
  'transaction_isolation',
  'transaction_read_only',
  'default_transaction_read_only',
  'statement_timeout',
]);

/** The constant string of a parse-tree argument list's first element (`f('x')`), else null. */
function firstStringArg(args: unknown): string | null {
  if (!Array.isArray(args) || args.length === 0) return null;
  const c = (args[0] as { A_Const?: { sval?: { sval?: unknown } } } | null)?.A_Const;
  return typeof c?.sval?.sval === 'string' ? c.sval.sval : null;
}

/**
 * True for a built-in the guard refuses outright. `args` (the call's parse-tree arguments, when the guard has them)
 * decides `current_setting`: only a constant name from PG_READABLE_SETTINGS passes.
 */
export function isDeniedPostgresFunction(name: string, args?: unknown): boolean {
  const n = bareName(name);
  if (n === 'current_setting' && args !== undefined) {
    const setting = firstStringArg(args);
    return setting === null || !PG_READABLE_SETTINGS.has(setting.toLowerCase());
  }
  if (n.startsWith('pg_') && !PG_HARMLESS_PG_PREFIXED.has(n) && !PG_FROM_ALLOWED.has(n)) return true;
  return PG_DENIED_EXACT.has(n) || PG_DENIED_PATTERNS.some((re) => re.test(n));
}

export function isAllowedPostgresFromFunction(name: string): boolean {
  const n = bareName(name);
  if (PG_FROM_ALLOWED.has(n)) return true;
  return !n.startsWith('pg_') && !name.toLowerCase().startsWith('pg_catalog.');
}

/**
 * SQLite functions with effects outside the query: extension loading, file I/O in the CLI shell, the
 * fts3_tokenizer pointer trick (CVE-2019-8457 class), and the writable-schema helpers.
 */
const SQLITE_DENIED = new Set<string>([
  'load_extension',
  'readfile',
  'writefile',
  'edit',
  'fts3_tokenizer',
  'sqlite_dbpage',
  'sqlite_dbdata',
  'sqlite_dbptr',
  'zipfile',
  'shell_add_schema',
  'sha3_query',
  'eval',
]);

export function isDeniedSqliteFunction(name: string): boolean {
  const n = bareName(name);
  return SQLITE_DENIED.has(n) || (n.startsWith('pragma_') && !SQLITE_SCHEMA_PRAGMAS.has(n)) || n.startsWith('sqlite_compileoption');
}

/**
 * Pragma table functions that describe one table's columns, indexes and keys (what describe_table answers too); every
 * other `pragma_*` is refused: database_list reveals file paths, compile_options / function_list / module_list
 * describe the build.
 */
export const SQLITE_SCHEMA_PRAGMAS: ReadonlySet<string> = new Set([
  'pragma_table_info',
  'pragma_table_xinfo',
  'pragma_index_list',
  'pragma_index_info',
  'pragma_index_xinfo',
  'pragma_foreign_key_list',
]);

/** Aggregate functions recognised for projections (PostgreSQL and SQLite names). */
export const AGGREGATE_FUNCTIONS = new Set<string>([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'total',
  'group_concat',
  'string_agg',
  'array_agg',
  'json_agg',
  'jsonb_agg',
  'json_object_agg',
  'jsonb_object_agg',
  'json_group_array',
  'json_group_object',
  'xmlagg',
  'bool_and',
  'bool_or',
  'every',
  'bit_and',
  'bit_or',
  'bit_xor',
  'stddev',
  'stddev_pop',
  'stddev_samp',
  'variance',
  'var_pop',
  'var_samp',
  'corr',
  'covar_pop',
  'covar_samp',
  'regr_avgx',
  'regr_avgy',
  'regr_count',
  'regr_intercept',
  'regr_r2',
  'regr_slope',
  'regr_sxx',
  'regr_sxy',
  'regr_syy',
  'percentile_cont',
  'percentile_disc',
  'mode',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'any_value',
  'range_agg',
  'range_intersect_agg',
]);

export function isAggregateFunction(name: string): boolean {
  return AGGREGATE_FUNCTIONS.has(bareName(name));
}

/**
 * Extensions whose functions are pure computations on their arguments (no SQL text executed, no files, no network,
 * no session state), so agent SQL and views may call them without an operator allowance. Absent on purpose: dblink,
 * postgres_fdw, file_fdw, adminpack, tablefunc (crosstab runs SQL text), pg_stat_statements, pg_buffercache, amcheck.
 */
export const TRUSTED_EXTENSIONS: ReadonlySet<string> = new Set([
  'citext',
  'pg_trgm',
  'fuzzystrmatch',
  'unaccent',
  'hstore',
  'ltree',
  'cube',
  'earthdistance',
  'intarray',
  'isn',
  'seg',
  'btree_gin',
  'btree_gist',
  'uuid-ossp',
  'pgcrypto',
  'postgis',
  'vector',
]);

/** Operator allowances: `schema.name` allows one object, a bare `name` allows it in every schema. Case-insensitive. */
export interface SqlObjectAllowances {
  readonly functions?: readonly string[];
  readonly views?: readonly string[];
}

export interface FunctionPolicy {
  /** True when the operator allowed this function (schema null: the call was unqualified). */
  allowsFunction(schema: string | null, name: string): boolean;
  /** True when the operator allowed this view / materialized view / foreign table (`schema.name`). */
  allowsView(schema: string, name: string): boolean;
}

function allowanceSet(list: readonly string[] | undefined): { bare: Set<string>; qualified: Set<string> } {
  const bare = new Set<string>();
  const qualified = new Set<string>();
  for (const raw of list ?? []) {
    const v = raw.trim().replace(/"/g, '').replace(/\(\)$/, '').toLowerCase();
    if (!v) continue;
    if (v.includes('.')) qualified.add(v);
    else bare.add(v);
  }
  return { bare, qualified };
}

export function createFunctionPolicy(allow: SqlObjectAllowances = {}): FunctionPolicy {
  const fns = allowanceSet(allow.functions);
  const views = allowanceSet(allow.views);
  return {
    allowsFunction: (schema, name) => {
      const n = name.toLowerCase();
      if (fns.bare.has(n)) return true;
      return schema !== null && fns.qualified.has(`${schema.toLowerCase()}.${n}`);
    },
    allowsView: (schema, name) => views.bare.has(name.toLowerCase()) || views.qualified.has(`${schema.toLowerCase()}.${name.toLowerCase()}`),
  };
}

/** The policy with no operator allowances. */
export const DEFAULT_FUNCTION_POLICY: FunctionPolicy = createFunctionPolicy();

/** Parses a comma-separated allowance list (flag or environment variable). */
export function parseAllowanceList(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

export interface FunctionRefusal {
  readonly name: string;
  readonly message: string;
}

/** A call the static layer cannot decide: it needs the live catalog (shadowing, extensions, user functions). */
export interface PendingCall {
  /** As written, lower-case (`upper`, `public.similarity`). */
  readonly written: string;
  readonly schema: string | null;
  readonly name: string;
  /** On the built-in allow-list (or allowed by the operator): passes unless shadowed by an untrusted function. */
  readonly allowedStatically: boolean;
}

function split(written: string): { schema: string | null; name: string } {
  const parts = written.toLowerCase().split('.');
  const name = parts[parts.length - 1] ?? '';
  return { schema: parts.length >= 2 ? (parts[parts.length - 2] ?? null) : null, name };
}

export function isAllowedBuiltin(name: string): boolean {
  const n = name.toLowerCase();
  if (isDeniedPostgresFunction(n)) return false;
  // current_setting's argument was checked by the guard (isDeniedPostgresFunction with args)
  return PG_BUILTIN_ALLOWED_NAMES.has(n) || PG_HARMLESS_PG_PREFIXED.has(n) || PG_ALSO_ALLOWED.has(n);
}

function notAllowed(written: string): FunctionRefusal {
  return {
    name: written,
    message: `argument 'sql' calls ${written}(), which is not on the allow-list of side-effect-free functions (built-in math, string, date/time, JSON, array, aggregate, window, range, text-search and formatting functions); rewrite the query without it, or ask the operator to allow it with --allow-functions`,
  };
}

/**
 * Layer 2 for PostgreSQL: decides what it can from the names alone and returns the rest for the live check.
 * `functions` is the guard's list (lower-case, qualified as written).
 */
export function checkPostgresCalls(functions: readonly string[], policy: FunctionPolicy): { refusal: FunctionRefusal | null; pending: PendingCall[] } {
  const pending: PendingCall[] = [];
  for (const written of new Set(functions.map((f) => f.toLowerCase()))) {
    const { schema, name } = split(written);
    if (isDeniedPostgresFunction(name)) {
      return { refusal: { name: written, message: `argument 'sql' calls ${written}(), which is not allowed in read-only queries (file, network, session, sequence, index-maintenance or server-introspection effects)` }, pending };
    }
    if (schema === 'pg_catalog') {
      if (!isAllowedBuiltin(name)) return { refusal: notAllowed(written), pending };
      continue; // pg_catalog.f can never resolve to a user function
    }
    const allowedStatically = schema === null ? isAllowedBuiltin(name) || policy.allowsFunction(null, name) : policy.allowsFunction(schema, name);
    pending.push({ written, schema, name, allowedStatically });
  }
  return { refusal: null, pending };
}

/** One function outside pg_catalog (or any function a view uses), as the live catalog reports it. */
export interface LiveFunction {
  readonly schema: string;
  readonly name: string;
  /** Owning extension, when the function belongs to one. */
  readonly extension: string | null;
  /** In a schema of the session's search path (only those can resolve an unqualified call). */
  readonly onSearchPath?: boolean;
}

function liveAllowed(f: LiveFunction, policy: FunctionPolicy): boolean {
  if (f.schema === 'pg_catalog') return isAllowedBuiltin(f.name) || policy.allowsFunction('pg_catalog', f.name);
  if (isDeniedPostgresFunction(f.name) && !policy.allowsFunction(f.schema, f.name)) return false;
  if (f.extension !== null && TRUSTED_EXTENSIONS.has(f.extension)) return true;
  return policy.allowsFunction(f.schema, f.name);
}

/**
 * Layer 3 for the agent's own calls: `found` holds every function outside pg_catalog whose name matches a pending
 * call; an unqualified call is matched against those on the session's search path (agent SQL cannot change it:
 * SET and set_config are refused, and every pooled session is reset), a qualified one against its schema.
 */
export function decidePendingCalls(pending: readonly PendingCall[], found: readonly LiveFunction[], policy: FunctionPolicy): FunctionRefusal | null {
  for (const call of pending) {
    const same = found.filter(
      (f) => f.name.toLowerCase() === call.name && (call.schema === null ? f.onSearchPath !== false : f.schema.toLowerCase() === call.schema),
    );
    const bad = same.find((f) => !liveAllowed(f, policy));
    if (bad) {
      return {
        name: call.written,
        message:
          call.schema === null && call.allowedStatically && isAllowedBuiltin(call.name)
            ? `argument 'sql' calls ${call.name}(), and this database also has a user-defined function ${bad.schema}.${bad.name} that PostgreSQL could pick instead of the built-in; write pg_catalog.${call.name}(…) to call the built-in, or ask the operator to allow ${bad.schema}.${bad.name} with --allow-functions`
            : `argument 'sql' calls ${bad.schema}.${bad.name}(), a user-defined function that is not on the allow-list (it could have effects a read-only transaction does not stop); rewrite the query without it, or ask the operator to allow it with --allow-functions ${bad.schema}.${bad.name}`,
      };
    }
    if (!call.allowedStatically && same.length === 0) return notAllowed(call.written);
  }
  return null;
}

/** A function outside pg_catalog that a statement runs without naming it (an operator's, a cast's, a domain check's). */
export interface ImplicitCall {
  /** What runs it, in words: `the operator ~~~`, `a cast to comp2`, `the domain d_checked`, `the type t`. */
  readonly through: string;
  readonly fn: LiveFunction;
}

export function decideImplicitCalls(calls: readonly ImplicitCall[], policy: FunctionPolicy): FunctionRefusal | null {
  for (const c of calls) {
    if (liveAllowed(c.fn, policy)) continue;
    const fn = `${c.fn.schema}.${c.fn.name}`;
    return {
      name: fn,
      message: `argument 'sql' uses ${c.through}, which runs ${fn}(), a user-defined function that is not on the allow-list (it could have effects a read-only transaction does not stop); rewrite the query without it, or ask the operator to allow it with --allow-functions ${fn}`,
    };
  }
  return null;
}

/** A function reached through a view's definition (or a row-security policy of a table it reads). */
export interface ViewDependency {
  /** The relation the query named (`schema.name`). */
  readonly viaSchema: string;
  readonly via: string;
  readonly viaKind: 'view' | 'materialized view' | 'foreign table' | 'table';
  /** Null for a foreign table (no function: the table itself is refused). */
  readonly fn: LiveFunction | null;
}

export function decideViewDependencies(deps: readonly ViewDependency[], policy: FunctionPolicy): FunctionRefusal | null {
  for (const d of deps) {
    if (policy.allowsView(d.viaSchema, d.via)) continue;
    const rel = `${d.viaSchema}.${d.via}`;
    if (d.fn === null) {
      return {
        name: rel,
        message: `argument 'sql' reads ${rel}, a ${d.viaKind} whose rows come from outside the database (a foreign-data wrapper can read files or run programs); it is refused unless the operator allows it with --allow-views ${rel}`,
      };
    }
    if (!liveAllowed(d.fn, policy)) {
      const fn = `${d.fn.schema}.${d.fn.name}`;
      const how = d.viaKind === 'table' ? 'has a row-security policy that calls' : 'is defined using';
      return {
        name: rel,
        message: `argument 'sql' reads ${rel}, a ${d.viaKind} that ${how} ${fn}(), which is not on the allow-list of side-effect-free functions; query its base tables instead, or ask the operator to allow it with --allow-views ${rel} (or --allow-functions ${fn})`,
      };
    }
  }
  return null;
}

/**
 * SQLite functions agent SQL may call (https://www.sqlite.org/lang_corefunc.html, lang_aggfunc.html,
 * lang_datefunc.html, lang_mathfunc.html, json1.html, windowfunctions.html, FTS5 auxiliary functions). Absent:
 * load_extension, the shell's readfile/writefile/edit, fts3_tokenizer, sqlite_compileoption_*, and every pragma_*
 * table-valued function (pragma_database_list reveals file paths).
 */
const SQLITE_ALLOWED = new Set<string>(
  (
    'abs changes char coalesce concat concat_ws format glob hex ifnull iif instr last_insert_rowid length like likelihood likely ' +
    'lower ltrim max min nullif octet_length printf quote random randomblob replace round rtrim sign soundex sqlite_offset ' +
    'sqlite_source_id sqlite_version substr substring total_changes trim typeof unhex unicode unlikely upper zeroblob ' +
    'date time datetime julianday unixepoch strftime timediff ' +
    'avg count group_concat sum total string_agg median ' +
    'row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value ' +
    'acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2 mod pi pow power ' +
    'radians sin sinh sqrt tan tanh trunc ' +
    'json jsonb json_array jsonb_array json_array_length json_error_position json_extract jsonb_extract json_insert ' +
    'jsonb_insert json_object jsonb_object json_patch jsonb_patch json_pretty json_remove jsonb_remove json_replace ' +
    'jsonb_replace json_set jsonb_set json_type json_valid json_quote json_group_array jsonb_group_array ' +
    'json_group_object jsonb_group_object json_each json_tree ' +
    'match highlight snippet bm25 offsets matchinfo'
  ).split(' '),
);

/** Layer 2 for SQLite: every called name must be on the allow-list (`cteNames` are column lists, not calls). */
export function checkSqliteCalls(functions: readonly string[], cteNames: ReadonlySet<string> = new Set()): FunctionRefusal | null {
  for (const f of functions) {
    const n = bareName(f);
    if (cteNames.has(n) || SQLITE_SCHEMA_PRAGMAS.has(n)) continue;
    if (!SQLITE_ALLOWED.has(n)) {
      return {
        name: n,
        message: `argument 'sql' calls ${n}(), which is not on the SQLite allow-list of side-effect-free functions (core, date/time, math, JSON, aggregate and window functions); rewrite the query without it`,
      };
    }
  }
  return null;
}
