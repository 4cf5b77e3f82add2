/**
 * Code-list labels for benchmark catalogs built from a schema dump: what the indexer reads from a live database
 * (the labels of the short text columns of small tables, core/indexing/code-values.ts), taken here from the
 * `COPY … FROM stdin` blocks of a data dump. A PII-tagged column keeps no labels, as in run-index.ts.
 */
import type { TableInfo } from '../../src/core/catalog/model';
import { codeListValues, isCodeListSize, keepsCodeValues, referencedTables } from '../../src/core/indexing/code-values';
import { classifyColumn } from '../../src/core/pii';

/** The classifier sees this many sampled values per column, as the introspectors' default sample. */
const SAMPLE_ROWS = 50;

/** COPY text format (https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2): tab-separated, `\N` null. */
function copyField(raw: string): string | null {
  if (raw === '\\N') return null;
  return raw.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}

/** Rows of every table in a pg_dump data file, by `schema.table`, as text columns by name. */
export function parseCopyBlocks(sql: string): Map<string, { columns: string[]; rows: (string | null)[][] }> {
  const out = new Map<string, { columns: string[]; rows: (string | null)[][] }>();
  const lines = sql.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^COPY ([\w.]+) \(([^)]*)\) FROM stdin;$/.exec(lines[i]!);
    if (!m) continue;
    const columns = m[2]!.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    const rows: (string | null)[][] = [];
    for (i++; i < lines.length && lines[i] !== '\\.'; i++) rows.push(lines[i]!.split('\t').map(copyField));
    out.set(m[1]!, { columns, rows });
  }
  return out;
}

/** The tables with `codeValues` on their code-list columns (a new object where one changes), as run-index.ts keeps them. */
export function withCodeLists(tables: readonly TableInfo[], data: ReadonlyMap<string, { columns: string[]; rows: (string | null)[][] }>): TableInfo[] {
  const referenced = referencedTables(tables);
  // A partitioned parent's rows are in its partitions; code lists are never partitioned, so a table's own block is enough.
  return tables.map((t) => {
    const block = data.get(`${t.schema}.${t.name}`);
    if (block === undefined || !isCodeListSize(block.rows.length)) return t;
    const valuesOf = (name: string): (string | null)[] | null => {
      const at = block.columns.indexOf(name);
      return at < 0 ? null : block.rows.map((r) => r[at] ?? null);
    };
    const tagged = t.columns.map((c) => {
      const values = valuesOf(c.name) ?? [];
      const samples = values.filter((v): v is string => v !== null && v.length > 0).slice(0, SAMPLE_ROWS);
      return { pii: classifyColumn({ schema: t.schema, table: t.name, column: c.name, dataType: c.dataType, comment: c.comment, tableComment: t.comment, enumLabels: c.enumLabels, samples }) };
    });
    if (!keepsCodeValues({ columns: tagged }, referenced.has(`${t.schema}.${t.name}`))) return t;
    let changed = false;
    const columns = t.columns.map((c) => {
      const values = valuesOf(c.name);
      const codes = values !== null && /char|text|string|citext/i.test(c.dataType) ? codeListValues(values) : null;
      if (codes === null) return c;
      changed = true;
      return { ...c, codeValues: codes };
    });
    return changed ? { ...t, columns } : t;
  });
}
