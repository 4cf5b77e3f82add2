/**
 * Which functions a guarded query may call.
 *
 * Two rules, applied to the name the parser resolved (so `U&"pg\005fsleep"`, `"pg_sleep"` and
 * `pg_catalog.pg_sleep` are all the same call):
 * - Scalar calls anywhere in the tree: a deny-list of functions with effects that a READ ONLY transaction does
 *   not stop — file and network access, sleeping, session-level locks, signalling backends, configuration,
 *   sequence advancement, SQL-in-a-string executors (which would hide a statement from this guard), and
 *   replication/WAL/backup administration. Writes through user-defined functions are left to the READ ONLY
 *   transaction, which rejects them at the engine (that is why the layers are independent).
 * - Functions in FROM (`SELECT * FROM f(...)`, `ROWS FROM (...)`): the deny-list too (FROM-clause functions are
 *   where peers' guards were bypassed, crystaldba/postgres-mcp #178), and system table functions (`pg_*`,
 *   `pg_catalog.*`) only from an allow-list of well-known set-returning functions, because the admin and
 *   statistics helpers live there. User set-returning functions pass; the READ ONLY transaction stops any write.
 *
 * `currval`/`lastval` are allowed: they only read this session's sequence state and fail harmlessly when unset.
 * `nextval`/`setval` are refused: they advance sequences outside any transaction's control (rollback does not
 * undo them).
 *
 * Function lists: https://www.postgresql.org/docs/current/functions-admin.html,
 * https://www.postgresql.org/docs/current/lo-funcs.html, https://www.postgresql.org/docs/current/functions-xml.html,
 * https://www.postgresql.org/docs/current/functions-sequence.html, https://www.sqlite.org/lang_corefunc.html.
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

export function isDeniedPostgresFunction(name: string): boolean {
  const n = bareName(name);
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
  return SQLITE_DENIED.has(bareName(name));
}

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
