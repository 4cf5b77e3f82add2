/**
 * Benchmark sets: catalogs converted from the external data in ../shared/data beside the repository (or SCHEMABRAIN_BENCH_DATA) and
 * their questions with gold tables. Gold is a list of groups; a group is satisfied when any of its tables is
 * retrieved (a Spider 2.0 wildcard such as `ga_sessions_*` accepts any shard).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { SearchTableInput } from '../../src/core/search/index';
import { parseCopyBlocks, withCodeLists } from './code-lists';
import { parseDdlColumns } from './ddl';
import { parsePgDump } from './pg-dump';
import { fk, makeTable, type ColumnSpec } from './table-info';

export const DATA_DIR = process.env.SCHEMABRAIN_BENCH_DATA ?? process.env.SCHEMABRAIN_SHARED_DATA ?? path.resolve(__dirname, '..', '..', '..', 'shared', 'data');
const QUESTIONS_DIR = path.join(__dirname, 'questions');

export interface BenchQuestion {
  readonly id: string;
  readonly text: string;
  /** Search only this source (per-database sets); undefined searches the whole index. */
  readonly source: string | undefined;
  /** Groups of acceptable `source|schema.table` keys. */
  readonly gold: readonly (readonly string[])[];
  /** Fixed split: every fifth question (1-based) is the dev set that tuning may look at; the rest is held out. */
  readonly dev: boolean;
  /** The blind writer's main style label (`terse`, `chatty`, `multi_hop`, …), where the question file gives one. */
  readonly style?: string;
}

export interface BenchSet {
  readonly name: string;
  readonly note: string;
  readonly tables: readonly SearchTableInput[];
  readonly questions: readonly BenchQuestion[];
}

export const key = (source: string, qualifiedName: string): string => `${source}|${qualifiedName}`;
const isDev = (i: number): boolean => (i + 1) % 5 === 0;
const readJson = <T>(p: string): T => JSON.parse(readFileSync(path.join(DATA_DIR, p), 'utf8')) as T;
const readLines = <T>(p: string, gz = false): T[] => {
  const buf = readFileSync(path.join(DATA_DIR, p));
  return (gz ? gunzipSync(buf) : buf)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as T);
};

// ---- Spider-format schemas (Spider 1.0 tables.json, BIRD dev_tables.json) ----

interface SpiderSchemaRow {
  db_id: string;
  table_names_original: string[];
  table_names: string[];
  column_names_original: Array<[number, string]>;
  column_names: Array<[number, string]>;
  column_types: string[];
  primary_keys: Array<number | number[]>;
  foreign_keys: Array<[number, number]>;
}

const normalise = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
const spaced = (s: string): string => normalise(s.replace(/([a-z])([A-Z])/g, '$1 $2'));

/**
 * Spider-format schema → tables. `readableAsComments`: BIRD's readable names come from its per-database
 * description files (what a documented catalog would hold as comments), so they become comments where they say
 * more than the identifier; Spider's are mechanical renderings of the identifiers and are not used.
 */
function spiderTables(row: SpiderSchemaRow, readableAsComments: boolean): SearchTableInput[] {
  const cols: ColumnSpec[][] = row.table_names_original.map(() => []);
  const colRef: Array<{ t: number; name: string }> = [];
  row.column_names_original.forEach(([t, name], i) => {
    colRef.push({ t, name });
    if (t < 0) return;
    const readable = row.column_names[i]![1];
    const comment = readableAsComments && normalise(readable) !== spaced(name) ? readable : null;
    cols[t]!.push({ name, dataType: row.column_types[i] ?? 'text', comment });
  });
  const fks = row.table_names_original.map(() => [] as ReturnType<typeof fk>[]);
  for (const [from, to] of row.foreign_keys) {
    const a = colRef[from]!;
    const b = colRef[to]!;
    fks[a.t]!.push(fk(`fk_${a.t}_${from}_${to}`, [a.name], 'main', row.table_names_original[b.t]!, [b.name]));
  }
  return row.table_names_original.map((name, t) => ({
    sourceName: row.db_id,
    table: makeTable({
      schema: 'main',
      name,
      comment: readableAsComments && normalise(row.table_names[t]!) !== spaced(name) ? row.table_names[t]! : null,
      columns: cols[t]!,
      foreignKeys: fks[t]!,
    }),
  }));
}

function goldFor(db: string, tables: readonly string[], known: ReadonlySet<string>): string[][] {
  const out: string[][] = [];
  for (const t of tables) {
    const match = [...known].find((k) => k.toLowerCase() === key(db, `main.${t}`).toLowerCase());
    if (match !== undefined) out.push([match]);
  }
  return out;
}

export function spiderSets(): BenchSet[] {
  const rows = readJson<SpiderSchemaRow[]>('spider1-dev/tables.json');
  const qs = readLines<{ index: number; db_id: string; question: string; gold_tables: string[] }>('spider1-dev/dev_gold_tables.jsonl');
  const devDbs = new Set(qs.map((q) => q.db_id));
  // Every dev database, including the four whose questions are held back, so the pooled index is the real one.
  const allDev = new Set([...devDbs, ...devDatabaseIds(rows)]);
  const tables = rows.filter((r) => allDev.has(r.db_id)).flatMap((r) => spiderTables(r, false));
  const known = new Set(tables.map((t) => key(t.sourceName, `main.${t.table.name}`)));
  const questions = (scoped: boolean): BenchQuestion[] =>
    qs.map((q, i) => ({ id: `spider-${q.index}`, text: q.question, source: scoped ? q.db_id : undefined, gold: goldFor(q.db_id, q.gold_tables, known), dev: isDev(i) }));
  const note = `${allDev.size} dev databases, ${tables.length} tables; identifiers only (Spider's readable names are mechanical and not used)`;
  return [
    { name: 'spider-dev-per-db', note, tables, questions: questions(true) },
    { name: 'spider-dev-pooled', note: `${note}; one index, no database filter`, tables, questions: questions(false) },
  ];
}

/** The 20 Spider dev databases (dev.json's db_ids are a subset here because four are held back). */
function devDatabaseIds(rows: readonly SpiderSchemaRow[]): string[] {
  const dev = readJson<Array<{ db_id: string }>>('spider1-dev/dev.json');
  const ids = new Set(dev.map((d) => d.db_id));
  // The four held-back databases are absent from dev.json here; the well-known dev list names them.
  for (const id of ['concert_singer', 'pets_1', 'car_1', 'flight_2', 'employee_hire_evaluation', 'cre_Doc_Template_Mgt', 'course_teach', 'museum_visit', 'wta_1', 'battle_death', 'student_transcripts_tracking', 'tvshow', 'poker_player', 'voter_1', 'world_1', 'orchestra', 'network_1', 'dog_kennels', 'singer', 'real_estate_properties']) {
    if (rows.some((r) => r.db_id === id)) ids.add(id);
  }
  return [...ids];
}

export function birdSets(): BenchSet[] {
  const rows = readJson<SpiderSchemaRow[]>('bird-dev/dev_tables.json');
  const qs = readLines<{ question_id: number; db_id: string; question: string; evidence: string; gold_tables: string[] }>('bird-dev/dev_gold_tables.jsonl');
  const tables = rows.flatMap((r) => spiderTables(r, true));
  const known = new Set(tables.map((t) => key(t.sourceName, `main.${t.table.name}`)));
  const make = (scoped: boolean, evidence: boolean): BenchQuestion[] =>
    qs.map((q, i) => ({
      id: `bird-${q.question_id}`,
      text: evidence && q.evidence ? `${q.question} ${q.evidence}` : q.question,
      source: scoped ? q.db_id : undefined,
      gold: goldFor(q.db_id, q.gold_tables, known),
      dev: isDev(i),
    }));
  const note = `${rows.length} databases, ${tables.length} tables; readable column/table names from BIRD's description files used as comments where they differ from the identifier`;
  return [
    { name: 'bird-dev-per-db', note: `${note}; question only`, tables, questions: make(true, false) },
    { name: 'bird-dev-per-db-evidence', note: `${note}; question + evidence`, tables, questions: make(true, true) },
    { name: 'bird-dev-pooled', note: `${note}; one index, question only`, tables, questions: make(false, false) },
    { name: 'bird-dev-pooled-evidence', note: `${note}; one index, question + evidence`, tables, questions: make(false, true) },
  ];
}

interface DdlRow {
  engine: string;
  db: string;
  schema: string | null;
  table_name: string;
  ddl: string;
  description?: string;
}

export function spider2Set(): BenchSet {
  const ddl = readLines<DdlRow>('spider2-lite/ddl.jsonl.gz', true);
  const tables: SearchTableInput[] = [];
  const byDb = new Map<string, Array<{ name: string; k: string }>>();
  const seen = new Set<string>();
  for (const row of ddl) {
    const name = row.table_name.split('.').pop()!;
    const schema = row.schema ?? 'main';
    const k = key(row.db, `${schema}.${name}`);
    if (seen.has(k)) continue;
    seen.add(k);
    tables.push({ sourceName: row.db, table: makeTable({ schema, name, comment: row.description ?? null, columns: parseDdlColumns(row.ddl ?? '') }) });
    const list = byDb.get(row.db) ?? [];
    list.push({ name: name.toLowerCase(), k });
    byDb.set(row.db, list);
  }
  const gold = new Map(readLines<{ instance_id: string; sql: string }>('spider2-lite/gold_sql.jsonl').map((g) => [g.instance_id, g.sql]));
  const qs = readLines<{ instance_id: string; db: string; question: string }>('spider2-lite/spider2-lite.jsonl').filter((q) => gold.has(q.instance_id));
  const questions: BenchQuestion[] = [];
  let i = 0;
  for (const q of qs) {
    const groups = goldFromSql(gold.get(q.instance_id)!, byDb.get(q.db) ?? []);
    if (groups.length === 0) continue;
    questions.push({ id: `s2-${q.instance_id}`, text: q.question, source: q.db, gold: groups, dev: isDev(i++) });
  }
  return {
    name: 'spider2-lite',
    note: `${tables.length} tables in ${byDb.size} databases, no FKs; gold tables from the public gold SQL (FROM/JOIN references; a wildcard accepts any matching shard); ${qs.length - questions.length} questions without resolvable gold skipped`,
    tables,
    questions,
  };
}

function goldFromSql(sql: string, tables: ReadonlyArray<{ name: string; k: string }>): string[][] {
  const groups = new Map<string, string[]>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+([`"[]?[\w\-.$*`"\]]+)/gi)) {
    const ref = m[1]!.replace(/[`"[\]]/g, '');
    const last = ref.split('.').pop()!.toLowerCase();
    if (last.length === 0) continue;
    const matches = last.endsWith('*')
      ? tables.filter((t) => t.name.startsWith(last.slice(0, -1)))
      : tables.filter((t) => t.name === last);
    if (matches.length > 0) groups.set(last, matches.map((t) => t.k));
  }
  return [...groups.values()];
}

/** MusicBrainz, AdventureWorks, Pagila: pg_dump schemas and the hand-written questions in ./questions. */
export function ownSets(): BenchSet[] {
  // `data`: a data dump whose small tables give the catalog its code-list labels, as indexing the live database
  // would (AdventureWorks and MusicBrainz ship as schema only).
  const specs: ReadonlyArray<{ name: string; file: string; data?: string }> = [
    { name: 'musicbrainz', file: 'musicbrainz/musicbrainz-schema.pg_dump.sql.gz' },
    { name: 'adventureworks', file: 'adventureworks-pg/adventureworks-schema.pg_dump.sql.gz' },
    { name: 'pagila', file: 'pagila/pagila-schema.sql', data: 'pagila/pagila-data.sql.gz' },
  ];
  const readSql = (file: string): string => {
    const raw = readFileSync(path.join(DATA_DIR, file));
    return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  };
  return specs.map(({ name, file, data }) => {
    const parsed = parsePgDump(readSql(file));
    const rows = data !== undefined && existsSync(path.join(DATA_DIR, data)) && process.env.SCHEMABRAIN_BENCH_NO_ROWS !== '1';
    const withData = rows ? withCodeLists(parsed, parseCopyBlocks(readSql(data))) : parsed;
    const tables = withData.map((table) => ({ sourceName: name, table }));
    const labelled = withData.filter((t) => t.columns.some((c) => c.codeValues !== undefined)).length;
    const qs = readFileSync(path.join(QUESTIONS_DIR, `${name}.jsonl`), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { id: string; question: string; gold_tables: string[] });
    return {
      name,
      note: `${tables.length} tables from the pg_dump schema (partitions folded)${rows ? `, code-list labels of ${labelled} small tables from the data dump` : ''}; ${qs.length} hand-written questions`,
      tables,
      questions: qs.map((q, i) => ({ id: q.id, text: q.question, source: undefined, gold: q.gold_tables.map((g) => [key(name, g)]), dev: isDev(i) })),
    };
  });
}
