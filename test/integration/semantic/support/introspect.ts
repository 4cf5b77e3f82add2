import type { Client } from 'pg';
import type { Database } from 'sql.js';
import type { ColumnInfo, ForeignKeyInfo, KeyConstraint, TableInfo } from '../../../../src/core/catalog/model';

/**
 * A deliberately small introspection for the semantic-layer tests: tables, columns, primary/unique keys and
 * foreign keys, which is all the semantic layer reads. It keeps these tests independent of the indexer; the
 * indexer's own tests cover the full catalog.
 */

function column(name: string, ordinal: number, dataType: string, isNullable: boolean): ColumnInfo {
  return { name, ordinal, dataType, isNullable, defaultExpr: null, isGenerated: false, isIdentity: false, comment: null, enumLabels: null, stats: null, pii: null };
}

function table(schema: string, name: string, kind: TableInfo['kind'], columns: ColumnInfo[], pk: KeyConstraint | null, uniques: KeyConstraint[], fks: ForeignKeyInfo[]): TableInfo {
  return { schema, name, kind, comment: null, rowEstimate: null, columns, primaryKey: pk, uniqueConstraints: uniques, checkConstraints: [], foreignKeys: fks, indexes: [], partitions: [], viewDefinition: null, fingerprint: '' };
}

interface PgColumnRow { table_name: string; column_name: string; attnum: number; data_type: string; not_null: boolean; relkind: string }
interface PgConstraintRow { table_name: string; conname: string; contype: string; cols: string[]; ref_schema: string | null; ref_table: string | null; ref_cols: string[] | null }

/** Ordinary and partitioned tables of one schema (partitions folded away), from pg_catalog (https://www.postgresql.org/docs/current/catalog-pg-constraint.html). */
export async function introspectPostgres(c: Client, schema = 'public'): Promise<TableInfo[]> {
  const cols = await c.query<PgColumnRow>(
    `SELECT cl.relname AS table_name, a.attname AS column_name, a.attnum, format_type(a.atttypid, a.atttypmod) AS data_type, a.attnotnull AS not_null, cl.relkind::text AS relkind
       FROM pg_class cl JOIN pg_namespace n ON n.oid = cl.relnamespace
       JOIN pg_attribute a ON a.attrelid = cl.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND cl.relkind IN ('r', 'p') AND NOT cl.relispartition
      ORDER BY cl.relname, a.attnum`,
    [schema],
  );
  const cons = await c.query<PgConstraintRow>(
    `SELECT cl.relname AS table_name, co.conname, co.contype::text AS contype,
            ARRAY(SELECT a.attname::text FROM unnest(co.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.n ORDER BY k.i) AS cols,
            rn.nspname AS ref_schema, rc.relname AS ref_table,
            CASE WHEN co.contype = 'f' THEN ARRAY(SELECT a.attname::text FROM unnest(co.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = co.confrelid AND a.attnum = k.n ORDER BY k.i) END AS ref_cols
       FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
       LEFT JOIN pg_class rc ON rc.oid = co.confrelid LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
      WHERE n.nspname = $1 AND co.contype IN ('p', 'u', 'f') AND NOT cl.relispartition AND co.conparentid = 0
      ORDER BY cl.relname, co.conname`,
    [schema],
  );
  const byTable = new Map<string, { kind: TableInfo['kind']; columns: ColumnInfo[] }>();
  for (const r of cols.rows) {
    const t = byTable.get(r.table_name) ?? { kind: r.relkind === 'p' ? 'partitioned_table' : 'table', columns: [] };
    t.columns.push(column(r.column_name, r.attnum, r.data_type, !r.not_null));
    byTable.set(r.table_name, t);
  }
  return [...byTable.entries()].map(([name, t]) => {
    const mine = cons.rows.filter((r) => r.table_name === name);
    const pk = mine.find((r) => r.contype === 'p');
    return table(
      schema,
      name,
      t.kind,
      t.columns,
      pk ? { name: pk.conname, columns: pk.cols } : null,
      mine.filter((r) => r.contype === 'u').map((r) => ({ name: r.conname, columns: r.cols })),
      mine.filter((r) => r.contype === 'f').map((r) => ({ name: r.conname, columns: r.cols, targetSchema: r.ref_schema!, targetTable: r.ref_table!, targetColumns: r.ref_cols!, onDelete: null, onUpdate: null })),
    );
  });
}

/** Tables of a SQLite database through PRAGMAs (https://www.sqlite.org/pragma.html#pragma_table_info). */
export function introspectSqlite(db: Database): TableInfo[] {
  const rows = <T>(sql: string): T[] => {
    const res = db.exec(sql);
    if (res.length === 0) return [];
    const { columns, values } = res[0]!;
    return values.map((v) => Object.fromEntries(columns.map((c, i) => [c, v[i]])) as T);
  };
  const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
  const names = rows<{ name: string }>(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`);
  return names.map(({ name }) => {
    const info = rows<{ cid: number; name: string; type: string; notnull: number; pk: number }>(`PRAGMA table_info(${lit(name)})`);
    const pkCols = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const uniques: KeyConstraint[] = [];
    for (const ix of rows<{ name: string; unique: number; origin: string; partial: number }>(`PRAGMA index_list(${lit(name)})`)) {
      if (ix.unique && ix.origin !== 'pk' && !ix.partial) uniques.push({ name: ix.name, columns: rows<{ name: string }>(`PRAGMA index_info(${lit(ix.name)})`).map((c) => c.name) });
    }
    const fkRows = rows<{ id: number; seq: number; table: string; from: string; to: string | null }>(`PRAGMA foreign_key_list(${lit(name)})`);
    const fks: ForeignKeyInfo[] = [];
    for (const id of [...new Set(fkRows.map((r) => r.id))]) {
      const parts = fkRows.filter((r) => r.id === id).sort((a, b) => a.seq - b.seq);
      fks.push({ name: `fk_${name}_${id}`, columns: parts.map((p) => p.from), targetSchema: 'main', targetTable: parts[0]!.table, targetColumns: parts.map((p) => p.to ?? ''), onDelete: null, onUpdate: null });
    }
    return table(
      'main',
      name,
      'table',
      info.map((c) => column(c.name, c.cid + 1, c.type, c.notnull === 0 && c.pk === 0)),
      pkCols.length ? { name: `pk_${name}`, columns: pkCols } : null,
      uniques,
      fks,
    );
  });
}
