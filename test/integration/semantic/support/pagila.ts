import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Client } from 'pg';
import { dataPath } from '../../../support/datasets';

/**
 * Private loader for Pagila into `sb_sem_pagila` (the semantic-layer tests' own database). Runs the schema
 * script, then turns the data dump's `COPY … FROM stdin` blocks into batched parameterised INSERTs (node-postgres
 * has no COPY FROM STDIN without an extra package). Idempotent: a database whose row counts already match is
 * reused; anything else is dropped and rebuilt.
 */

export const PAGILA_DB = 'sb_sem_pagila';
export const DATA_DIR = dataPath('pagila');
const PG = { host: process.env.PGHOST ?? '127.0.0.1', port: Number(process.env.PGPORT ?? 5432), user: process.env.PGUSER ?? 'postgres' };

/** Row counts of the dump, the marker of a complete load. */
const EXPECTED = { rental: 16044, payment: 16049, film_category: 1000 };

export function pagilaClient(): Client {
  return new Client({ ...PG, database: PAGILA_DB });
}

export async function ensurePagila(): Promise<void> {
  if (await isLoaded()) return;
  const admin = new Client({ ...PG, database: 'postgres' });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${PAGILA_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${PAGILA_DB}`);
  } finally {
    await admin.end();
  }
  const c = pagilaClient();
  await c.connect();
  try {
    await c.query(readFileSync(`${DATA_DIR}/pagila-schema.sql`, 'utf8'));
    await c.query('BEGIN');
    // store.manager_staff_id and staff.store_id reference each other; the dump relies on triggers being off.
    await c.query('SET LOCAL session_replication_role = replica');
    await loadData(c, gunzipSync(readFileSync(`${DATA_DIR}/pagila-data.sql.gz`)).toString('utf8'));
    await c.query('COMMIT');
    await c.query('ANALYZE');
  } finally {
    await c.end();
  }
}

async function isLoaded(): Promise<boolean> {
  const c = pagilaClient();
  try {
    await c.connect();
  } catch {
    return false;
  }
  try {
    for (const [t, n] of Object.entries(EXPECTED)) {
      const r = await c.query<{ n: string }>(`SELECT count(*) AS n FROM public.${t}`);
      if (Number(r.rows[0]!.n) !== n) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    await c.end();
  }
}

async function loadData(c: Client, dump: string): Promise<void> {
  const lines = dump.split('\n');
  let statement = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const copy = /^COPY ([^ ]+) \(([^)]*)\) FROM stdin;$/.exec(line);
    if (copy) {
      const rows: (string | null)[][] = [];
      for (i++; i < lines.length && lines[i] !== '\\.'; i++) rows.push(lines[i]!.split('\t').map(unescapeCopy));
      await insertRows(c, copy[1]!, copy[2]!, rows);
      continue;
    }
    if (line.startsWith('--') || line.trim() === '') continue;
    statement += `${line}\n`;
    if (line.trimEnd().endsWith(';')) {
      if (!/^SELECT pg_catalog\.set_config\('search_path'/.test(statement)) await c.query(statement);
      statement = '';
    }
  }
}

async function insertRows(c: Client, table: string, columnList: string, rows: (string | null)[][]): Promise<void> {
  const width = columnList.split(',').length;
  const batch = Math.max(1, Math.floor(30000 / width));
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch);
    const params: (string | null)[] = [];
    const tuples = chunk.map((r) => `(${r.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`);
    await c.query(`INSERT INTO ${table} (${columnList}) VALUES ${tuples.join(', ')}`, params);
  }
}

/** COPY text format escapes: https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2 */
function unescapeCopy(field: string): string | null {
  if (field === '\\N') return null;
  if (!field.includes('\\')) return field;
  return field.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' } as Record<string, string>)[e] ?? e;
  });
}
