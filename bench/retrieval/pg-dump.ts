/**
 * A small parser for `pg_dump --schema-only` output: CREATE TABLE, CREATE TYPE … AS ENUM, COMMENT ON TABLE/COLUMN,
 * ALTER TABLE … ADD CONSTRAINT … PRIMARY KEY / FOREIGN KEY, and ATTACH PARTITION (children folded into the parent,
 * as the real introspector does). Enough to build benchmark catalogs without a running PostgreSQL.
 */
import type { ForeignKeyInfo, TableInfo } from '../../src/core/catalog/model';
import { fk, makeTable, type ColumnSpec } from './table-info';

interface Draft {
  schema: string;
  name: string;
  comment: string | null;
  columns: Array<ColumnSpec & { comment: string | null }>;
  primaryKey: string[];
  foreignKeys: ForeignKeyInfo[];
  partitions: string[];
}

const unquote = (s: string): string => s.trim().replace(/^"(.*)"$/, '$1').replace(/""/g, '"');
const splitQualified = (s: string): [string, string] => {
  const m = /^((?:"[^"]+"|[\w$]+))\.((?:"[^"]+"|[\w$]+))$/.exec(s.trim());
  return m ? [unquote(m[1]!), unquote(m[2]!)] : ['public', unquote(s)];
};
const sqlString = (s: string): string => s.replace(/^E?'/, '').replace(/'$/, '').replace(/''/g, "'");
const cols = (s: string): string[] => s.split(',').map(unquote);

export function parsePgDump(sql: string): TableInfo[] {
  const drafts = new Map<string, Draft>();
  const enums = new Map<string, string[]>();
  const childOf = new Map<string, string>();

  for (const m of sql.matchAll(/CREATE TYPE ([\w."]+) AS ENUM \(([\s\S]*?)\);/g)) {
    const labels = [...m[2]!.matchAll(/'((?:[^']|'')*)'/g)].map((x) => x[1]!.replace(/''/g, "'"));
    const [schema, name] = splitQualified(m[1]!);
    enums.set(`${schema}.${name}`, labels);
    enums.set(name, labels);
  }
  for (const m of sql.matchAll(/CREATE (?:UNLOGGED )?TABLE ([\w."]+) \(\n([\s\S]*?)\n\)(?:\s*PARTITION BY [^;]*)?;/g)) {
    const [schema, name] = splitQualified(m[1]!);
    const columns: Draft['columns'] = [];
    for (const line of m[2]!.split('\n')) {
      const cm = /^\s+("(?:[^"]|"")+"|[\w$]+) (.+?),?$/.exec(line);
      if (!cm || /^(CONSTRAINT|CHECK)$/i.test(cm[1]!)) continue;
      const type = cm[2]!.replace(/ (NOT NULL|DEFAULT .*|COLLATE .*)$/i, '').trim();
      const typeName = type.split(' ')[0]!.replace(/\[\]$/, '');
      const labels = enums.get(typeName) ?? enums.get(typeName.split('.').pop()!) ?? null;
      columns.push({ name: unquote(cm[1]!), dataType: type, comment: null, enumLabels: labels });
    }
    drafts.set(`${schema}.${name}`, { schema, name, comment: null, columns, primaryKey: [], foreignKeys: [], partitions: [] });
  }
  for (const m of sql.matchAll(/COMMENT ON TABLE ([\w."]+) IS ('(?:[^']|'')*');/g)) {
    const [schema, name] = splitQualified(m[1]!);
    const d = drafts.get(`${schema}.${name}`);
    if (d) d.comment = sqlString(m[2]!);
  }
  for (const m of sql.matchAll(/COMMENT ON COLUMN ([\w."]+)\.([\w"]+) IS ('(?:[^']|'')*');/g)) {
    const [schema, name] = splitQualified(m[1]!);
    const col = drafts.get(`${schema}.${name}`)?.columns.find((c) => c.name === unquote(m[2]!));
    if (col) col.comment = sqlString(m[3]!);
  }
  for (const m of sql.matchAll(/ALTER TABLE (?:ONLY )?([\w."]+)\s+ADD CONSTRAINT ([\w"]+) (PRIMARY KEY|FOREIGN KEY) \(([^)]*)\)(?: REFERENCES ([\w."]+)\(([^)]*)\))?/g)) {
    const [schema, name] = splitQualified(m[1]!);
    const d = drafts.get(`${schema}.${name}`);
    if (!d) continue;
    if (m[3] === 'PRIMARY KEY') d.primaryKey = cols(m[4]!);
    else {
      const [ts, tt] = splitQualified(m[5]!);
      if (!d.foreignKeys.some((f) => f.name === unquote(m[2]!))) d.foreignKeys.push(fk(unquote(m[2]!), cols(m[4]!), ts, tt, cols(m[6]!)));
    }
  }
  for (const m of sql.matchAll(/ALTER TABLE (?:ONLY )?([\w."]+) ATTACH PARTITION ([\w."]+)/g)) {
    const parent = splitQualified(m[1]!).join('.');
    const child = splitQualified(m[2]!).join('.');
    childOf.set(child, parent);
    drafts.get(parent)?.partitions.push(child);
  }
  // Partition FKs belong to the logical table: fold them into the parent, one per target and column list.
  for (const [child, parent] of childOf) {
    const p = drafts.get(parent);
    for (const f of drafts.get(child)?.foreignKeys ?? []) {
      const same = (g: ForeignKeyInfo): boolean => g.targetTable === f.targetTable && g.targetSchema === f.targetSchema && g.columns.join() === f.columns.join();
      if (p && !p.foreignKeys.some(same)) p.foreignKeys.push(f);
    }
  }
  const out: TableInfo[] = [];
  for (const [key, d] of drafts) {
    if (childOf.has(key)) continue;
    out.push(makeTable({ ...d, foreignKeys: d.foreignKeys.filter((f) => !childOf.has(`${f.targetSchema}.${f.targetTable}`)) }));
  }
  return out;
}
