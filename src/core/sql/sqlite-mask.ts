import type { Database } from 'sql.js';
import { asciiLower } from '../util/ascii';
import { guardSqlite, sqliteViewBody } from './sqlite-guard';
import { sqliteFunctionRefusal } from './sqlite-exec';

/**
 * Masking at the source for SQLite. Agent SQL runs on a worker that owns a private in-memory copy of the file
 * (`sqlite-worker.ts`), so the copy itself is masked before the first statement: every stored value of a blocked
 * column is overwritten in the copy with the empty value of its class ('' or 0; NULL stays NULL, so null-ness
 * counts stay right). No query shape — `*`, renames, subqueries, views, `main.`/quoted/bracketed
 * names, set operations, errors — can then reach a stored value, because the value is no longer in the database
 * the statement runs against. The file on disk is never touched.
 *
 * Details that matter:
 * - triggers are dropped from the copy first (an UPDATE must not fire anything), foreign keys and CHECK
 *   constraints are off, and `secure_delete` zeroes freed content;
 * - when a UNIQUE index refuses the empty value, NULL, then a per-row `masked-<rowid>` token; a column that
 *   still cannot be overwritten (generated, WITHOUT ROWID with a unique key) makes the whole table empty in the
 *   copy — fail closed;
 * - `sqlite_stat3`/`sqlite_stat4` (which keep sample values of indexed columns) are emptied;
 * - virtual tables (full-text indexes, R*Trees) and the shadow tables that hold their data are emptied
 *   (emptyVirtualTables).
 */
export interface SqliteMaskPlan {
  readonly tables: readonly { readonly schema: string; readonly table: string; readonly columns: readonly string[] }[];
  /**
   * Every relation of the source the catalog holds (tables and views). A table or view of the file that is not
   * among them (created after the last index, or left out by `--schemas`) has never been classified: it is dropped
   * from the copy, so a statement that reads it fails as `no such table`, as it would on PostgreSQL or MySQL.
   * Absent: nothing is dropped.
   */
  readonly known?: readonly { readonly schema: string; readonly table: string; readonly columns?: readonly string[] }[];
}


function q(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function tryRun(db: Database, sql: string): boolean {
  try {
    db.run(sql);
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies the plan to `db` (a private copy). Returns the `table.column` names that were masked, and the tables that
 * were emptied because a blocked column of theirs could not be overwritten (the rowid, a column a generated one is
 * computed from): a statement that reads one is told it read an empty table.
 */
export function applySqliteMask(db: Database, given: SqliteMaskPlan): { masked: string[]; emptied: string[] } {
  dropHostileViews(db);
  // Columns the catalog does not hold (added after the index) were never classified: masked like blocked ones.
  const unknownColumns = given.known ? dropUnknownRelations(db, given.known) : [];
  const plan: SqliteMaskPlan = unknownColumns.length === 0 ? given : { ...given, tables: [...given.tables, ...unknownColumns] };
  if (plan.tables.length === 0) return { masked: [], emptied: [] };
  db.run('PRAGMA secure_delete = ON');
  db.run('PRAGMA foreign_keys = OFF');
  db.run('PRAGMA ignore_check_constraints = ON');
  const triggers = db.exec("SELECT name FROM sqlite_master WHERE type = 'trigger'");
  for (const row of triggers[0]?.values ?? []) tryRun(db, `DROP TRIGGER IF EXISTS ${q(String(row[0]))}`);
  for (const stat of ['sqlite_stat3', 'sqlite_stat4']) {
    if (db.exec(`SELECT 1 FROM sqlite_master WHERE name = '${stat}'`).length > 0) tryRun(db, `DELETE FROM ${stat}`);
  }
  emptyVirtualTables(db);
  const masked: string[] = [];
  const emptiedTables: string[] = [];
  const views = new Set((db.exec("SELECT name FROM sqlite_master WHERE type = 'view'")[0]?.values ?? []).map((r) => asciiLower(String(r[0]))));
  for (const t of plan.tables) {
    if (asciiLower(t.schema) === 'main' && views.has(asciiLower(t.table))) {
      masked.push(...maskView(db, t.table, t.columns));
      continue;
    }
    const table = `${q(t.schema)}.${q(t.table)}`;
    const info = db.exec(`PRAGMA ${q(t.schema)}.table_xinfo(${q(t.table)})`)[0];
    if (!info) continue; // not in this file: nothing to read either
    const nameIdx = info.columns.indexOf('name');
    const notNullIdx = info.columns.indexOf('notnull');
    const hiddenIdx = info.columns.indexOf('hidden');
    const present = new Map(info.values.map((r) => [asciiLower(String(r[nameIdx])), { name: String(r[nameIdx]), notNull: Number(r[notNullIdx]) === 1, generated: Number(r[hiddenIdx]) >= 2 }]));
    let emptied = false;
    for (const col of t.columns) {
      const c = present.get(asciiLower(col));
      if (!c) continue;
      const target = `${q(c.name)}`;
      const ok =
        !c.generated &&
        (tryRun(db, `UPDATE ${table} SET ${target} = CASE WHEN ${target} IS NULL THEN NULL WHEN typeof(${target}) IN ('integer', 'real') THEN 0 ELSE '' END`) ||
          tryRun(db, `UPDATE ${table} SET ${target} = NULL`) ||
          tryRun(db, `UPDATE ${table} SET ${target} = 'masked-' || rowid`));
      if (!ok) {
        db.run(`DELETE FROM ${table}`);
        emptied = true;
        emptiedTables.push(t.table);
      }
      masked.push(`${t.table}.${c.name}`);
      if (emptied) break;
    }
  }
  return { masked, emptied: emptiedTables };
}

/**
 * A view whose own columns are blocked (a column the classifier tags by its name or by what it reads, or one the
 * operator blocks by name) holds values no base table's mask reaches: `lower(first) || 'x' AS password`. It is
 * defined again over its own definition, every blocked column read as the table mask reads it (NULL stays NULL,
 * anything else ''): `CREATE VIEW v AS WITH sb_view(a, b) AS (<definition>) SELECT a, CASE … END AS b FROM sb_view`.
 * The definition stays inline (no other relation holds it). A view that cannot be defined again is dropped (fail
 * closed: a statement that reads it fails as `no such table`).
 */
function maskView(db: Database, name: string, blocked: readonly string[]): string[] {
  const info = db.exec(`PRAGMA main.table_xinfo(${q(name)})`)[0];
  const sql = db.exec("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", [name])[0]?.values[0]?.[0];
  const drop = (): string[] => {
    tryRun(db, `DROP VIEW IF EXISTS main.${q(name)}`);
    return [];
  };
  if (!info || typeof sql !== 'string') return drop();
  const nameIdx = info.columns.indexOf('name');
  const columns = info.values.map((r) => String(r[nameIdx]));
  const hit = new Set(blocked.map(asciiLower));
  const maskedHere = columns.filter((c) => hit.has(asciiLower(c)));
  if (maskedHere.length === 0) return [];
  const body = sqliteViewBody(sql);
  if (body === null || !tryRun(db, `DROP VIEW main.${q(name)}`)) return drop();
  const items = columns.map((c) => (hit.has(asciiLower(c)) ? `CASE WHEN ${q(c)} IS NULL THEN NULL ELSE '' END AS ${q(c)}` : q(c)));
  const again = `CREATE VIEW main.${q(name)} AS WITH "sb_view"(${columns.map(q).join(', ')}) AS (${body}\n) SELECT ${items.join(', ')} FROM "sb_view"`;
  if (!tryRun(db, again)) return drop();
  return maskedHere.map((c) => `${name}.${c}`);
}

/**
 * A view of the file is read as agent SQL is: one whose definition the guard refuses (a system table such as
 * `sqlite_master`, a `pragma_*` function, a function outside the allow-list) is dropped from the copy, so a statement
 * that reads it fails as `no such table` instead of answering what the statement itself could not ask. Views over a
 * dropped view fail the same way.
 */
function dropHostileViews(db: Database): void {
  const views = db.exec("SELECT name, sql FROM sqlite_master WHERE type = 'view'")[0]?.values ?? [];
  for (const [name, sql] of views) {
    const body = typeof sql === 'string' ? sqliteViewBody(sql) : null;
    const g = body === null ? null : guardSqlite(body);
    const system = g?.ok ? g.tables.some((t) => /^(?:["`[]?(?:main|temp)["`\]]?\.)?["`[]?(?:sqlite_|pragma_|dbstat\b)/i.test(t) || /^["`[]?temp["`\]]?\./i.test(t)) : false;
    const hostile = !g || !g.ok || system || sqliteFunctionRefusal(g, body!) !== null;
    if (hostile) tryRun(db, `DROP VIEW IF EXISTS main.${q(String(name))}`);
  }
}

/**
 * Drops from the copy every table and view of the main schema that the catalog does not hold, except the shadow
 * tables of a virtual table it holds (the module needs them; emptyVirtualTables empties them when anything is masked)
 * and SQLite's own tables. Views first, then tables, then anything a view left behind; triggers go with their tables.
 */
function dropUnknownRelations(db: Database, known: NonNullable<SqliteMaskPlan['known']>): Array<{ schema: string; table: string; columns: string[] }> {
  const main = known.filter((k) => asciiLower(k.schema) === 'main');
  const names = new Set(main.map((k) => asciiLower(k.table)));
  const rows = db.exec("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")[0]?.values ?? [];
  const virtualKnown = rows.filter((r) => String(r[0]) === 'table' && /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(String(r[2] ?? '')) && names.has(asciiLower(String(r[1])))).map((r) => asciiLower(String(r[1])));
  const isShadow = (name: string): boolean => virtualKnown.some((v) => SHADOW_SUFFIXES.some((s) => name === `${v}_${s}`));
  const unknown = rows.filter((r) => !names.has(asciiLower(String(r[1]))) && !isShadow(asciiLower(String(r[1]))));
  const unknownColumns = newColumns(db, main, rows);
  if (unknown.length === 0) return unknownColumns;
  db.run('PRAGMA foreign_keys = OFF');
  for (const kind of ['view', 'table']) {
    for (const r of unknown) {
      if (String(r[0]) !== kind) continue;
      const dropped = tryRun(db, `DROP ${kind === 'view' ? 'VIEW' : 'TABLE'} IF EXISTS main.${q(String(r[1]))}`);
      if (dropped || tryRun(db, `DELETE FROM main.${q(String(r[1]))}`)) continue;
      // A virtual table whose module this build lacks cannot be dropped, emptied or read: no statement reaches its
      // data through it (its shadow tables are plain tables, dropped or masked like any other).
      if (/^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(String(r[2] ?? ''))) continue;
      throw new Error(`the table ${String(r[1])}, which is not in the index, could not be removed from the query copy`);
    }
  }
  return unknownColumns;
}

/** The columns of each known table of the file that the catalog does not list (when it lists the table's columns). */
function newColumns(db: Database, main: NonNullable<SqliteMaskPlan['known']>, rows: unknown[][]): Array<{ schema: string; table: string; columns: string[] }> {
  const out: Array<{ schema: string; table: string; columns: string[] }> = [];
  const byName = new Map(main.filter((k) => k.columns).map((k) => [asciiLower(k.table), new Set(k.columns!.map(asciiLower))]));
  for (const r of rows) {
    if (String(r[0]) !== 'table') continue;
    const name = String(r[1]);
    const listed = byName.get(asciiLower(name));
    if (!listed) continue;
    const info = db.exec(`PRAGMA main.table_xinfo(${q(name)})`)[0];
    const nameIdx = info?.columns.indexOf('name') ?? -1;
    const hiddenIdx = info?.columns.indexOf('hidden') ?? -1;
    // A virtual table's hidden columns (hidden = 1: the FTS table-named column, docid) hold no stored value of their own.
    const extra = (info?.values ?? []).filter((v) => Number(v[hiddenIdx]) !== 1).map((v) => String(v[nameIdx])).filter((c) => !listed.has(asciiLower(c)));
    if (extra.length > 0) out.push({ schema: 'main', table: name, columns: extra });
  }
  return out;
}

/** The tables SQLite's own virtual-table modules keep their data in (`<name>_<suffix>`): FTS3/4/5 and R*Tree. */
const SHADOW_SUFFIXES = ['content', 'segments', 'segdir', 'docsize', 'stat', 'data', 'idx', 'config', 'node', 'rowid', 'parent'];

/**
 * Empties every virtual table of the copy and the shadow tables its module keeps its data in. A full-text index
 * holds the words of the columns it indexes — an SSN or a card number among them — as tokens in its own tables,
 * which masking a column does not reach (FTS4 appends new segments and keeps the old; FTS5 and R*Tree are not even
 * in this SQLite build, so only their shadow tables can be read, and their blocks hold every token). Which column an
 * index was fed from is not known for certain (an external-content index names its own columns), so in a copy that
 * masks anything, no virtual table keeps data (fail closed). A shadow table that cannot be emptied is dropped; one
 * that cannot be dropped either fails the statement.
 */
function emptyVirtualTables(db: Database): void {
  const virtual = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")[0]?.values.map((r) => String(r[0])) ?? [];
  if (virtual.length === 0) return;
  const tables = new Set(db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values.map((r) => String(r[0])) ?? []);
  for (const name of virtual) {
    tryRun(db, `DELETE FROM ${q(name)}`); // through its module, where this build has it
    for (const suffix of SHADOW_SUFFIXES) {
      const shadow = [...tables].find((t) => asciiLower(t) === asciiLower(`${name}_${suffix}`));
      if (shadow === undefined || virtual.includes(shadow)) continue;
      if (!tryRun(db, `DELETE FROM ${q(shadow)}`) && !tryRun(db, `DROP TABLE ${q(shadow)}`)) {
        throw new Error(`the index table ${shadow} of the virtual table ${name} could not be emptied before PII masking`);
      }
    }
  }
}

const DECIDING_KEYWORDS = new Set(['where', 'on', 'having', 'by', 'using']);
const LIST_KEYWORDS = new Set(['select', 'from', 'join', 'limit', 'offset', 'window', 'union', 'intersect', 'except', 'as', 'values']);

/**
 * The first blocked column the statement names in WHERE / ON / USING / GROUP BY / HAVING / ORDER BY / a window's
 * PARTITION BY or ORDER BY (token level: a clause keyword switches the state, a `(` opens a fresh one), or null.
 * Such a statement is refused: the masked copy would answer it on NULLs.
 */
export function sqliteDecidingBlockedColumn(tokens: readonly { readonly text: string; readonly kind: string }[], plan: SqliteMaskPlan): string | null {
  const blocked = new Map<string, string>();
  for (const t of plan.tables) for (const c of t.columns) blocked.set(asciiLower(c), `${t.table}.${c}`);
  if (blocked.size === 0) return null;
  const states: boolean[] = [false];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'comment') continue;
    const lw = asciiLower(t.text);
    if (t.text === '(') states.push(states[states.length - 1]!);
    else if (t.text === ')') {
      if (states.length > 1) states.pop();
    } else if (t.kind === 'keyword' && DECIDING_KEYWORDS.has(lw)) states[states.length - 1] = true;
    else if (t.kind === 'keyword' && LIST_KEYWORDS.has(lw)) states[states.length - 1] = false;
    else if (t.kind === 'identifier' && states[states.length - 1]) {
      // `col IS [NOT] NULL` / `col ISNULL` / `col NOTNULL` read only null-ness, which the mask keeps
      const n1 = tokens[i + 1]?.text.toLowerCase();
      const n2 = tokens[i + 2]?.text.toLowerCase();
      const n3 = tokens[i + 3]?.text.toLowerCase();
      if (n1 === 'isnull' || n1 === 'notnull' || (n1 === 'is' && (n2 === 'null' || (n2 === 'not' && n3 === 'null')))) continue;
      const name = asciiLower(t.text.replace(/^["`[]|["`\]]$/g, ''));
      const hit = blocked.get(name);
      if (hit) return hit;
    }
  }
  return null;
}
