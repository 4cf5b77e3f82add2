/**
 * Bulk catalog queries: one per object class over the whole database (filtered by schema or by relation oid array),
 * joined on oid, never one query per table. Raw rows are typed here as `*Row` and mapped once in `map.ts`.
 *
 * Needs PostgreSQL ≥ 12 (`pg_partition_root`, `pg_constraint.conparentid`).
 */

/** Schemas that are never user data. `pg_toast*` and `pg_temp_*` cover the per-backend temp/toast namespaces. */
const SYSTEM_SCHEMA_FILTER = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast' AND n.nspname !~ '^pg_temp_'`;

export interface ServerRow {
  readonly database: string;
  readonly server_version: string;
  readonly role: string;
  readonly is_superuser: boolean;
  readonly bypass_rls: boolean;
  readonly can_write: boolean;
  /** `schema.name` of the user relations this role cannot SELECT from (no USAGE on the schema or no SELECT). */
  readonly unreadable: string[] | null;
}

// has_table_privilege with a list is true when any one is held:
// https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-INFO-ACCESS-TABLE
export const SERVER_SQL = `SELECT current_database() AS database, current_setting('server_version') AS server_version,
  current_user AS role, r.rolsuper AS is_superuser, r.rolbypassrls AS bypass_rls,
  EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r', 'p') AND ${SYSTEM_SCHEMA_FILTER}
            AND has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')) AS can_write,
  ARRAY(SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND ${SYSTEM_SCHEMA_FILTER}
          AND NOT (has_schema_privilege(n.oid, 'USAGE') AND has_table_privilege(c.oid, 'SELECT'))
        ORDER BY 1 LIMIT 1000) AS unreadable
  FROM pg_roles r WHERE r.rolname = current_user`;

export interface SchemaRow {
  readonly name: string;
  readonly comment: string | null;
}

/** https://www.postgresql.org/docs/current/catalog-pg-namespace.html ; $1: schemas to keep, or NULL for all. */
export const SCHEMAS_SQL = `
SELECT n.nspname AS name, obj_description(n.oid, 'pg_namespace') AS comment
FROM pg_catalog.pg_namespace n
WHERE ${SYSTEM_SCHEMA_FILTER}
  AND ($1::text[] IS NULL OR n.nspname = ANY ($1::text[]))
ORDER BY n.nspname`;

export interface RelationRow {
  readonly oid: number;
  readonly schema: string;
  readonly name: string;
  /** r table, v view, m materialized view, p partitioned table, f foreign table. */
  readonly relkind: string;
  readonly is_partition: boolean;
  readonly root_oid: number | null;
  readonly reltuples: number | null;
  readonly comment: string | null;
  readonly view_definition: string | null;
  /** A partitioned table's key as pg_get_partkeydef writes it (`LIST (diagnosis)`), else null. */
  readonly partition_key: string | null;
  /** Table inheritance (not partitioning): the oids of the relations this one inherits from. */
  readonly inherits_from: number[] | null;
}

/**
 * https://www.postgresql.org/docs/current/catalog-pg-class.html and
 * https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-INFO-PARTITION (pg_partition_root).
 * Partitions are returned whatever their schema so they can be folded into a kept parent; relations that belong to
 * an extension (pg_depend deptype 'e', https://www.postgresql.org/docs/current/catalog-pg-depend.html) are skipped.
 */
export const RELATIONS_SQL = `
SELECT c.oid::int4 AS oid, n.nspname AS schema, c.relname AS name, c.relkind::text AS relkind,
       c.relispartition AS is_partition,
       CASE WHEN c.relispartition THEN pg_partition_root(c.oid)::oid::int4 END AS root_oid,
       c.reltuples::float8 AS reltuples,
       obj_description(c.oid, 'pg_class') AS comment,
       CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid, true) END AS view_definition,
       CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) END AS partition_key,
       CASE WHEN NOT c.relispartition THEN ARRAY(SELECT i.inhparent::int4 FROM pg_catalog.pg_inherits i WHERE i.inhrelid = c.oid) END AS inherits_from
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f')
  AND ${SYSTEM_SCHEMA_FILTER}
  AND (c.relispartition OR $1::text[] IS NULL OR n.nspname = ANY ($1::text[]))
  AND NOT EXISTS (
    SELECT 1 FROM pg_catalog.pg_depend d
    WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
ORDER BY n.nspname, c.relname`;

export interface ColumnRow {
  readonly rel_oid: number;
  readonly name: string;
  readonly ordinal: number;
  readonly data_type: string;
  readonly not_null: boolean;
  readonly default_expr: string | null;
  /** '' or 's' (stored) / 'v' (virtual, PostgreSQL 18). */
  readonly generated: string;
  /** '' or 'a' (always) / 'd' (by default). */
  readonly identity: string;
  readonly comment: string | null;
  readonly enum_oid: number | null;
  readonly is_text: boolean;
  /** json, jsonb, tsvector, xml or an array of strings: sampled for the PII scan, never read for code labels. */
  readonly is_document?: boolean;
}

/**
 * https://www.postgresql.org/docs/current/catalog-pg-attribute.html ,
 * https://www.postgresql.org/docs/current/catalog-pg-attrdef.html and
 * https://www.postgresql.org/docs/current/catalog-pg-type.html (typtype 'e' enum, 'd' domain; typcategory 'S' string).
 * $1: relation oids.
 */
export const COLUMNS_SQL = `
SELECT a.attrelid::int4 AS rel_oid, a.attname::text AS name, a.attnum::int4 AS ordinal,
       format_type(a.atttypid, a.atttypmod) AS data_type,
       a.attnotnull AS not_null,
       pg_get_expr(ad.adbin, ad.adrelid, true) AS default_expr,
       a.attgenerated::text AS generated,
       a.attidentity::text AS identity,
       col_description(a.attrelid, a.attnum) AS comment,
       CASE WHEN t.typtype = 'e' THEN t.oid::int4
            WHEN t.typtype = 'd' AND bt.typtype = 'e' THEN bt.oid::int4 END AS enum_oid,
       (t.typcategory = 'S' OR coalesce(bt.typcategory = 'S', false)) AS is_text,
       -- values of other types that hold text a secret can sit in (a row copied into a jsonb, a tsvector of a
       -- password, an array of strings): sampled for the PII scan only
       (t.typname IN ('json', 'jsonb', 'tsvector', 'xml') OR coalesce(bt.typname IN ('json', 'jsonb', 'tsvector', 'xml'), false)
        OR (t.typcategory = 'A' AND EXISTS (SELECT 1 FROM pg_catalog.pg_type et WHERE et.oid = t.typelem AND et.typcategory = 'S'))) AS is_document
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_catalog.pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
WHERE a.attrelid = ANY ($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attrelid, a.attnum`;

export interface ConstraintRow {
  readonly rel_oid: number;
  readonly name: string;
  /** p primary key, u unique, c check, f foreign key. */
  readonly type: string;
  readonly columns: string[];
  readonly target_oid: number | null;
  readonly target_schema: string | null;
  readonly target_table: string | null;
  readonly target_columns: string[] | null;
  readonly on_update: string | null;
  readonly on_delete: string | null;
  readonly check_expr: string | null;
}

/**
 * https://www.postgresql.org/docs/current/catalog-pg-constraint.html . Key columns are resolved in declared order
 * (unnest … WITH ORDINALITY). FK rows that PostgreSQL clones onto partitions or creates per referenced partition
 * carry conparentid <> 0 and are skipped: only declared constraints are returned. $1: relation oids.
 */
export const CONSTRAINTS_SQL = `
SELECT con.conrelid::int4 AS rel_oid, con.conname::text AS name, con.contype::text AS type,
       array(SELECT a.attname::text
             FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
             JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
             ORDER BY k.ord) AS columns,
       CASE WHEN con.contype = 'f' THEN con.confrelid::int4 END AS target_oid,
       tn.nspname::text AS target_schema, tc.relname::text AS target_table,
       CASE WHEN con.contype = 'f' THEN
         array(SELECT a.attname::text
               FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_catalog.pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
               ORDER BY k.ord) END AS target_columns,
       CASE WHEN con.contype = 'f' THEN con.confupdtype::text END AS on_update,
       CASE WHEN con.contype = 'f' THEN con.confdeltype::text END AS on_delete,
       CASE WHEN con.contype = 'c' THEN pg_get_expr(con.conbin, con.conrelid, true) END AS check_expr
FROM pg_catalog.pg_constraint con
LEFT JOIN pg_catalog.pg_class tc ON con.contype = 'f' AND tc.oid = con.confrelid
LEFT JOIN pg_catalog.pg_namespace tn ON tn.oid = tc.relnamespace
WHERE con.conrelid = ANY ($1::oid[])
  AND con.contype IN ('p', 'u', 'c', 'f')
  AND (con.contype <> 'f' OR con.conparentid = 0)
ORDER BY con.conrelid, con.conname`;

export interface IndexRow {
  readonly rel_oid: number;
  readonly name: string;
  readonly is_unique: boolean;
  readonly is_primary: boolean;
  readonly is_clustered: boolean;
  readonly method: string;
  readonly columns: string[];
  readonly predicate: string | null;
}

/**
 * https://www.postgresql.org/docs/current/catalog-pg-index.html ; key columns only (INCLUDE columns are not keys).
 * A key of 0 in indkey is an expression, whose text comes from pg_get_indexdef(index, column, pretty)
 * (https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-INFO-CATALOG-TABLE). $1: relation oids.
 */
export const INDEXES_SQL = `
SELECT i.indrelid::int4 AS rel_oid, ic.relname::text AS name, i.indisunique AS is_unique, i.indisprimary AS is_primary,
       i.indisclustered AS is_clustered,
       am.amname::text AS method,
       array(SELECT CASE WHEN i.indkey[k - 1] <> 0
                         THEN (SELECT a.attname::text FROM pg_catalog.pg_attribute a
                               WHERE a.attrelid = i.indrelid AND a.attnum = i.indkey[k - 1])
                         ELSE pg_get_indexdef(i.indexrelid, k, true) END
             FROM generate_series(1, i.indnkeyatts) AS k
             ORDER BY k) AS columns,
       pg_get_expr(i.indpred, i.indrelid, true) AS predicate
FROM pg_catalog.pg_index i
JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
JOIN pg_catalog.pg_am am ON am.oid = ic.relam
WHERE i.indrelid = ANY ($1::oid[])
ORDER BY i.indrelid, ic.relname`;

export interface EnumRow {
  readonly type_oid: number;
  readonly schema: string;
  readonly name: string;
  readonly labels: string[];
}

/** https://www.postgresql.org/docs/current/catalog-pg-enum.html ; labels in declared order (enumsortorder). */
/** The fields of the composite types of the user's schemas (not the row types of tables). */
export const COMPOSITES_SQL = `
SELECT n.nspname::text AS schema, t.typname::text AS name, a.attname::text AS field,
       pg_catalog.format_type(a.atttypid, a.atttypmod) AS data_type
FROM pg_catalog.pg_type t
JOIN pg_catalog.pg_class c ON c.oid = t.typrelid AND c.relkind = 'c'
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
WHERE ${SYSTEM_SCHEMA_FILTER}
ORDER BY n.nspname, t.typname, a.attnum`;

/**
 * The types directly inside the type `t` (a `pg_type` row in scope), as `inner_type(oid)`: a domain's base type, an
 * array's element, the fields of a composite or row type, a range's subtype and a multirange's range. Followed
 * recursively, it is every type a value of `t` is built from (ROW_TYPE_REFS_SQL here, the object check in pg-exec.ts).
 */
export const TYPES_INSIDE = `CROSS JOIN LATERAL (
    SELECT t.typbasetype WHERE t.typtype = 'd'
    UNION ALL SELECT t.typelem WHERE t.typcategory = 'A' AND t.typelem <> 0
    UNION ALL SELECT a.atttypid FROM pg_catalog.pg_attribute a WHERE t.typrelid <> 0 AND a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL SELECT r.rngsubtype FROM pg_catalog.pg_range r WHERE r.rngtypid = t.oid
    UNION ALL SELECT r.rngtypid FROM pg_catalog.pg_range r WHERE r.rngmultitypid = t.oid
  ) inner_type(oid)`;

/**
 * The relations whose rows a column's type holds, at any depth: through domains, arrays, ranges and the fields of
 * composite and row types (a column of `users`, of a domain over `users[]`, of a type `(u users)`), and the composite
 * types it holds the same way (a domain over `cred`, a range of `cred`): the classifier reads their fields. Only
 * columns of types that are not built in are followed.
 */
export const ROW_TYPE_REFS_SQL = `
WITH RECURSIVE col AS (
  SELECT a.attrelid AS rel, a.attname::text AS col, a.atttypid AS typ, 0 AS depth
  FROM pg_catalog.pg_attribute a
  JOIN pg_catalog.pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE a.attnum > 0 AND NOT a.attisdropped AND a.atttypid >= 16384 AND ${SYSTEM_SCHEMA_FILTER}
  UNION
  SELECT col.rel, col.col, inner_type.oid, col.depth + 1
  FROM col JOIN pg_catalog.pg_type t ON t.oid = col.typ
  ${TYPES_INSIDE}
  WHERE col.depth < 8 AND inner_type.oid >= 16384
)
SELECT DISTINCT n.nspname::text AS schema, c.relname::text AS name, col.col AS column, rn.nspname::text AS ref_schema, rc.relname::text AS ref_name
FROM col
JOIN pg_catalog.pg_type t ON t.oid = col.typ AND t.typrelid <> 0
JOIN pg_catalog.pg_class rc ON rc.oid = t.typrelid AND rc.relkind IN ('r', 'v', 'm', 'p', 'f', 'c')
JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
JOIN pg_catalog.pg_class c ON c.oid = col.rel
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace`;

export const ENUMS_SQL = `
SELECT t.oid::int4 AS type_oid, n.nspname::text AS schema, t.typname::text AS name,
       array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
FROM pg_catalog.pg_type t
JOIN pg_catalog.pg_enum e ON e.enumtypid = t.oid
JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
WHERE ${SYSTEM_SCHEMA_FILTER}
GROUP BY t.oid, n.nspname, t.typname
ORDER BY n.nspname, t.typname`;

export interface StatsRow {
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  readonly inherited: boolean;
  readonly null_frac: number | null;
  readonly n_distinct: number | null;
  readonly avg_width: number | null;
  readonly mcv: string[] | null;
  readonly mcf: number[] | null;
  readonly min_value: string | null;
  readonly max_value: string | null;
}

/**
 * https://www.postgresql.org/docs/current/view-pg-stats.html : planner statistics gathered by ANALYZE, so no table is
 * scanned here. anyarray columns are turned into text[] through their text form; values are cut to 200 characters
 * and most common values to the first 25. min/max are the first and last histogram bounds.
 * $1/$2: schema and table names, pairwise.
 */
export const STATS_SQL = `
SELECT s.schemaname::text AS schema, s.tablename::text AS table, s.attname::text AS column, s.inherited,
       s.null_frac::float8 AS null_frac, s.n_distinct::float8 AS n_distinct, s.avg_width::int4 AS avg_width,
       CASE WHEN mv.v IS NOT NULL AND array_ndims(mv.v) = 1
            THEN array(SELECT left(x, 200) FROM unnest(mv.v[1:25]) AS x) END AS mcv,
       (s.most_common_freqs::float8[])[1:25] AS mcf,
       CASE WHEN array_ndims(hb.h) = 1 THEN left(hb.h[1], 200) END AS min_value,
       CASE WHEN array_ndims(hb.h) = 1 THEN left(hb.h[array_upper(hb.h, 1)], 200) END AS max_value
FROM pg_catalog.pg_stats s
CROSS JOIN LATERAL (SELECT s.most_common_vals::text::text[] AS v) AS mv
CROSS JOIN LATERAL (SELECT s.histogram_bounds::text::text[] AS h) AS hb
WHERE (s.schemaname, s.tablename) IN (SELECT * FROM unnest($1::text[], $2::text[]))`;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Comments on the columns of partitions, by the root they are folded into: a partition's column may be documented
 * (`user password (plaintext)`) where its parent's is not, and the classifier reads comments.
 */
export const PARTITION_COLUMN_COMMENTS_SQL = `
SELECT pg_partition_root(c.oid)::oid::int4 AS root, a.attname::text AS column, d.description AS comment
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_catalog.pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objsubid = a.attnum
WHERE c.relispartition`;

export interface PartitionCommentRow {
  readonly root: number;
  readonly column: string;
  readonly comment: string;
}
