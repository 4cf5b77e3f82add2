/**
 * information_schema queries for MySQL 8.0+ and MariaDB 10.6+. One bulk query per object class, filtered by the
 * schemas (databases) being read; `?` lists are expanded by mysql2. Column names are aliased in lower case because
 * MySQL 8 returns information_schema columns in upper case and MariaDB in the case written.
 */

/** Databases that belong to the server, never to an application. */
export const SYSTEM_SCHEMAS = ['mysql', 'information_schema', 'performance_schema', 'sys'] as const;

export const SCHEMAS_SQL = `
SELECT schema_name AS name, default_character_set_name AS charset, default_collation_name AS collation
FROM information_schema.schemata
WHERE schema_name NOT IN (?) AND (? IS NULL OR schema_name IN (?))
ORDER BY schema_name`;

export interface SchemaRow {
  readonly name: string;
  readonly charset: string | null;
  readonly collation: string | null;
}

export const TABLES_SQL = `
SELECT table_schema AS \`schema\`, table_name AS name, table_type AS type, engine, table_rows AS \`rows\`,
  table_comment AS comment, table_collation AS collation, create_options AS options
FROM information_schema.tables
WHERE table_schema IN (?)
ORDER BY table_schema, table_name`;

export interface TableRow {
  readonly schema: string;
  readonly name: string;
  /** BASE TABLE, VIEW, SYSTEM VERSIONED (MariaDB), SEQUENCE (MariaDB). */
  readonly type: string;
  readonly engine: string | null;
  readonly rows: string | number | null;
  readonly comment: string | null;
  readonly collation: string | null;
  readonly options: string | null;
}

export const COLUMNS_SQL = `
SELECT table_schema AS \`schema\`, table_name AS \`table\`, column_name AS name, ordinal_position AS ordinal,
  column_default AS \`default\`, is_nullable AS nullable, data_type AS data_type, column_type AS column_type,
  character_set_name AS charset, collation_name AS collation, extra, column_comment AS comment,
  generation_expression AS generation
FROM information_schema.columns
WHERE table_schema IN (?)
ORDER BY table_schema, table_name, ordinal_position`;

export interface ColumnRow {
  readonly schema: string;
  readonly table: string;
  readonly name: string;
  readonly ordinal: string | number;
  readonly default: string | null;
  readonly nullable: string;
  readonly data_type: string;
  readonly column_type: string;
  readonly charset: string | null;
  readonly collation: string | null;
  readonly extra: string | null;
  readonly comment: string | null;
  readonly generation: string | null;
}

/** PRIMARY KEY, UNIQUE and FOREIGN KEY columns in order; referential actions joined in for FKs. */
export const KEYS_SQL = `
SELECT k.table_schema AS \`schema\`, k.table_name AS \`table\`, k.constraint_name AS name, tc.constraint_type AS type,
  k.column_name AS \`column\`, k.ordinal_position AS pos, k.referenced_table_schema AS ref_schema,
  k.referenced_table_name AS ref_table, k.referenced_column_name AS ref_column,
  rc.update_rule AS on_update, rc.delete_rule AS on_delete
FROM information_schema.key_column_usage k
JOIN information_schema.table_constraints tc
  ON tc.constraint_schema = k.constraint_schema AND tc.table_name = k.table_name AND tc.constraint_name = k.constraint_name
LEFT JOIN information_schema.referential_constraints rc
  ON rc.constraint_schema = k.constraint_schema AND rc.table_name = k.table_name AND rc.constraint_name = k.constraint_name
WHERE k.table_schema IN (?)
ORDER BY k.table_schema, k.table_name, k.constraint_name, k.ordinal_position`;

export interface KeyRow {
  readonly schema: string;
  readonly table: string;
  readonly name: string;
  readonly type: string;
  readonly column: string;
  readonly pos: string | number;
  readonly ref_schema: string | null;
  readonly ref_table: string | null;
  readonly ref_column: string | null;
  readonly on_update: string | null;
  readonly on_delete: string | null;
}

/** MariaDB (10.2+) keeps the table name in CHECK_CONSTRAINTS; its constraint names are unique per table only. */
export const CHECKS_MARIADB_SQL = `
SELECT constraint_schema AS \`schema\`, table_name AS \`table\`, constraint_name AS name, check_clause AS clause
FROM information_schema.check_constraints
WHERE constraint_schema IN (?)
ORDER BY constraint_schema, table_name, constraint_name`;

/** MySQL (8.0.16+) keeps CHECK constraints per schema; TABLE_CONSTRAINTS says which table owns each. */
export const CHECKS_MYSQL_SQL = `
SELECT tc.table_schema AS \`schema\`, tc.table_name AS \`table\`, cc.constraint_name AS name, cc.check_clause AS clause
FROM information_schema.check_constraints cc
JOIN information_schema.table_constraints tc
  ON tc.constraint_schema = cc.constraint_schema AND tc.constraint_name = cc.constraint_name AND tc.constraint_type = 'CHECK'
WHERE cc.constraint_schema IN (?)
ORDER BY tc.table_schema, tc.table_name, cc.constraint_name`;

export interface CheckRow {
  readonly schema: string;
  readonly table: string;
  readonly name: string;
  readonly clause: string;
}

/** MySQL 8 adds EXPRESSION for functional key parts; MariaDB has none, so it is selected only there. */
export function indexesSql(hasExpression: boolean): string {
  return `
SELECT table_schema AS \`schema\`, table_name AS \`table\`, index_name AS name, non_unique, seq_in_index AS seq,
  column_name AS \`column\`, ${hasExpression ? 'expression' : 'NULL'} AS expression, sub_part, cardinality, index_type AS method
FROM information_schema.statistics
WHERE table_schema IN (?)
ORDER BY table_schema, table_name, index_name, seq_in_index`;
}

export interface IndexRow {
  readonly schema: string;
  readonly table: string;
  readonly name: string;
  readonly non_unique: string | number;
  readonly seq: string | number;
  readonly column: string | null;
  readonly expression: string | null;
  readonly sub_part: string | number | null;
  readonly cardinality: string | number | null;
  readonly method: string | null;
}

export const VIEWS_SQL = `
SELECT table_schema AS \`schema\`, table_name AS name, view_definition AS definition
FROM information_schema.views
WHERE table_schema IN (?)`;

export interface ViewRow {
  readonly schema: string;
  readonly name: string;
  readonly definition: string | null;
}

export const PARTITIONS_SQL = `
SELECT table_schema AS \`schema\`, table_name AS \`table\`, partition_name AS name, subpartition_name AS sub,
  partition_method AS method, partition_expression AS expression
FROM information_schema.partitions
WHERE table_schema IN (?) AND partition_name IS NOT NULL
ORDER BY table_schema, table_name, partition_ordinal_position, subpartition_ordinal_position`;

export interface PartitionRow {
  readonly schema: string;
  readonly table: string;
  readonly name: string;
  readonly sub: string | null;
  readonly method: string | null;
  readonly expression: string | null;
}

/**
 * One cheap aggregate over every structural row (names, types, defaults, comments, keys, indexes, checks, view
 * text, partitions) — no cardinality, row counts or timestamps, which move with data. Combined by count and a sum
 * of CRC32s: no sort, and any single changed row changes the sum.
 */
export function structureDigestSql(checksSql: string): string {
  const checks = checksSql.replace(/ORDER BY[\s\S]*$/, '');
  return `
SELECT COUNT(*) AS n, COALESCE(SUM(CRC32(x)), 0) AS h FROM (
  SELECT CONCAT_WS('|', 's', schema_name, default_collation_name) AS x FROM information_schema.schemata WHERE schema_name IN (?)
  UNION ALL SELECT CONCAT_WS('|', 't', table_schema, table_name, table_type, engine, table_comment, table_collation, create_options)
    FROM information_schema.tables WHERE table_schema IN (?)
  UNION ALL SELECT CONCAT_WS('|', 'c', table_schema, table_name, column_name, ordinal_position, column_default, is_nullable,
    column_type, collation_name, extra, column_comment, generation_expression)
    FROM information_schema.columns WHERE table_schema IN (?)
  UNION ALL SELECT CONCAT_WS('|', 'i', table_schema, table_name, index_name, non_unique, seq_in_index, column_name, sub_part, index_type)
    FROM information_schema.statistics WHERE table_schema IN (?)
  UNION ALL SELECT CONCAT_WS('|', 'k', table_schema, table_name, constraint_name, column_name, ordinal_position,
    referenced_table_schema, referenced_table_name, referenced_column_name)
    FROM information_schema.key_column_usage WHERE table_schema IN (?)
  UNION ALL SELECT CONCAT_WS('|', 'r', constraint_schema, table_name, constraint_name, update_rule, delete_rule)
    FROM information_schema.referential_constraints WHERE constraint_schema IN (?)
  UNION ALL SELECT CONCAT_WS('|', 'x', q.schema, q.table, q.name, q.clause) FROM (${checks}) q
  UNION ALL SELECT CONCAT_WS('|', 'v', table_schema, table_name, view_definition) FROM information_schema.views WHERE table_schema IN (?)
  UNION ALL SELECT CONCAT_WS('|', 'p', table_schema, table_name, partition_name, subpartition_name, partition_expression)
    FROM information_schema.partitions WHERE table_schema IN (?) AND partition_name IS NOT NULL
) d`;
}
