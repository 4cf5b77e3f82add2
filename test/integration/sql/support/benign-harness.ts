/** Builds what the benign corpora run against and runs one case; shared by the tests and `bench/sql/run.ts`. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from 'sql.js';
import { sqlJsModule } from './databases';

export interface SpiderCorpus {
  readonly schemas: Readonly<Record<string, ReadonlyArray<{ table: string; columns: ReadonlyArray<[string, string]> }>>>;
  readonly queries: ReadonlyArray<{ db: string; sql: string }>;
}

export function loadSpider(): SpiderCorpus {
  return JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/sql-corpus/spider-dev.json'), 'utf8')) as SpiderCorpus;
}

const SPIDER_TYPES: Record<string, string> = { number: 'NUMERIC', text: 'TEXT', time: 'TEXT', boolean: 'INTEGER', others: 'TEXT' };
const q = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** Empty tables with Spider's schema for one database (Spider ships schemas, not the SQLite files). */
export async function spiderDatabase(corpus: SpiderCorpus, db: string): Promise<Database> {
  const SQL = await sqlJsModule();
  const d = new SQL.Database();
  for (const t of corpus.schemas[db] ?? []) {
    if (t.table.toLowerCase().startsWith('sqlite_')) continue;
    const seen = new Set<string>();
    const cols = t.columns.filter(([n]) => !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
    d.run(`CREATE TABLE ${q(t.table)} (${cols.map(([n, ty]) => `${q(n)} ${SPIDER_TYPES[ty] ?? 'TEXT'}`).join(', ')})`);
  }
  return d;
}
