/**
 * Extracts the column inventory that the labelled evaluation set is built from: real schemas under
 * ../shared/data beside the repository (PostgreSQL dumps, SQLite files, BIRD/Spider tables.json). Run once with
 * `npx tsx bench/pii/extract-columns.ts > bench/pii/columns.jsonl`; labels are then written by hand in
 * bench/pii/labels-positive.txt and merged by build-labels.ts. The inventory is committed so the set is stable.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import initSqlJs from 'sql.js';

const DATA = process.env.SCHEMABRAIN_SHARED_DATA ?? path.resolve(__dirname, '..', '..', '..', 'shared', 'data');

interface ExtractedColumn {
  readonly source: string;
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  readonly dataType: string;
  readonly comment: string | null;
  readonly tableComment: string | null;
}

const out: ExtractedColumn[] = [];
const seen = new Set<string>();
function push(c: ExtractedColumn, dedupKey?: string): void {
  const k = dedupKey ?? `${c.source}|${c.schema}|${c.table}|${c.column}`.toLowerCase();
  if (seen.has(k)) return;
  seen.add(k);
  out.push(c);
}

function unquote(s: string): string {
  return s.replace(/^"(.*)"$/, '$1');
}

/** pg_dump text: `CREATE TABLE s.t (` column lines `);`, plus `COMMENT ON COLUMN|TABLE`. */
function fromPgDump(source: string, sql: string, keepTable: (schema: string, table: string) => boolean, defaultSchema = 'public'): void {
  const colComments = new Map<string, string>();
  const tblComments = new Map<string, string>();
  for (const m of sql.matchAll(/COMMENT ON COLUMN ([\w."]+) IS '((?:[^']|'')*)';/g)) colComments.set(m[1]!.replace(/"/g, '').toLowerCase(), m[2]!.replace(/''/g, "'"));
  for (const m of sql.matchAll(/COMMENT ON TABLE ([\w."]+) IS '((?:[^']|'')*)';/g)) tblComments.set(m[1]!.replace(/"/g, '').toLowerCase(), m[2]!.replace(/''/g, "'"));
  for (const m of sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([\w."]+) \(\n([\s\S]*?)\n\)( PARTITION OF| INHERITS)?/g)) {
    const parts = m[1]!.split('.').map(unquote);
    const schema = parts.length > 1 ? parts[0]! : defaultSchema;
    const table = parts[parts.length - 1]!;
    if (!keepTable(schema, table)) continue;
    if (/_p\d{4}_\d\d$/.test(table)) continue; // partitions repeat the parent's columns
    const tableComment = tblComments.get(`${schema}.${table}`.toLowerCase()) ?? null;
    for (const line of m[2]!.split('\n')) {
      const t = line.trim().replace(/,$/, '');
      if (!t || /^(CONSTRAINT|PRIMARY KEY|FOREIGN KEY|UNIQUE|CHECK)\b/i.test(t)) continue;
      const cm = /^("[^"]+"|[\w]+)\s+(.+?)(?:\s+(?:DEFAULT|NOT NULL|NULL|COLLATE|GENERATED|CONSTRAINT|CHECK|PRIMARY|REFERENCES|UNIQUE)\b.*)?$/i.exec(t);
      if (!cm) continue;
      const column = unquote(cm[1]!);
      push({ source, schema, table, column, dataType: cm[2]!.trim(), comment: colComments.get(`${schema}.${table}.${column}`.toLowerCase()) ?? null, tableComment });
    }
  }
}

async function fromSqlite(source: string, file: string, dedupAgainst?: string): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    const tables = db.exec("SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")[0]?.values ?? [];
    for (const [name] of tables) {
      const table = String(name);
      const cols = db.exec(`PRAGMA table_info("${table.replace(/"/g, '""')}")`)[0]?.values ?? [];
      for (const row of cols) {
        const column = String(row[1]);
        const key = dedupAgainst ? `${dedupAgainst}|${table}|${column}`.toLowerCase() : undefined;
        push({ source, schema: 'main', table, column, dataType: String(row[2] || 'TEXT'), comment: null, tableComment: null }, key);
      }
    }
  } finally {
    db.close();
  }
}

interface TablesJson {
  readonly db_id: string;
  readonly table_names_original: readonly string[];
  readonly column_names_original: readonly (readonly [number, string])[];
  readonly column_types: readonly string[];
}

function fromTablesJson(source: string, file: string, dbs: ReadonlySet<string>): void {
  const all = JSON.parse(readFileSync(file, 'utf8')) as TablesJson[];
  for (const d of all) {
    if (!dbs.has(d.db_id)) continue;
    d.column_names_original.forEach(([ti, col], i) => {
      if (ti < 0) return;
      push({ source: `${source}/${d.db_id}`, schema: 'main', table: d.table_names_original[ti]!, column: col, dataType: d.column_types[i]!, comment: null, tableComment: null });
    });
  }
}

async function main(): Promise<void> {
  fromPgDump('pagila', readFileSync(`${DATA}/pagila/pagila-schema.sql`, 'utf8'), () => true);
  // Sakila repeats Pagila; keep only what Pagila lacks.
  for (const c of out.filter((c) => c.source === 'pagila')) seen.add(`pagila|${c.table}|${c.column}`.toLowerCase());
  await fromSqlite('sakila', `${DATA}/sakila-sqlite/sakila.db`, 'pagila');
  await fromSqlite('chinook', `${DATA}/chinook/Chinook_Sqlite.sqlite`);
  fromPgDump('northwind', gunzipSync(readFileSync(`${DATA}/northwind-psql/northwind.sql.gz`)).toString('utf8'), () => true);
  fromPgDump('adventureworks', gunzipSync(readFileSync(`${DATA}/adventureworks-pg/adventureworks-schema.pg_dump.sql.gz`)).toString('utf8'), (s) =>
    ['humanresources', 'person', 'sales', 'purchasing'].includes(s),
  );
  const mbTables = new Set(['editor', 'editor_preference', 'editor_oauth_token', 'application', 'editor_language', 'editor_subscribe_editor', 'artist', 'area', 'place', 'label', 'release', 'recording', 'event', 'editor_collection', 'edit', 'edit_note', 'vote', 'annotation', 'artist_credit_name', 'work', 'old_editor_name', 'editor_watch_preferences', 'artist_ipi', 'artist_isni', 'coordinates_test']);
  fromPgDump('musicbrainz', gunzipSync(readFileSync(`${DATA}/musicbrainz/musicbrainz-schema.pg_dump.sql.gz`)).toString('utf8'), (_s, t) => mbTables.has(t));
  fromTablesJson('bird', `${DATA}/bird-dev/dev_tables.json`, new Set(['debit_card_specializing', 'financial', 'formula_1', 'student_club', 'superhero', 'codebase_community', 'thrombosis_prediction', 'california_schools']));
  fromTablesJson('spider', `${DATA}/spider1-dev/tables.json`, new Set(['hospital_1', 'student_assessment', 'dog_kennels', 'e_learning', 'customers_and_invoices', 'hr_1', 'company_1', 'scientist_1', 'allergy_1', 'apartment_rentals', 'customers_card_transactions', 'student_transcripts_tracking', 'twitter_1', 'dorm_1', 'phone_1', 'phone_market', 'flight_1', 'bike_1', 'world_1', 'wine_1', 'activity_1', 'poker_player', 'network_2', 'behavior_monitoring']));
  for (const c of out) process.stdout.write(JSON.stringify(c) + '\n');
}

void main();
