import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { introspectPostgres, introspectSqlite } from './introspect';
import { ensurePagila, pagilaClient } from './pagila';

/**
 * Regenerates test/fixtures/semantic/{pagila,chinook}/catalog.json (the catalogs unit tests and the compile
 * bench read without a database). Run: npx tsx test/integration/semantic/support/write-catalog-fixtures.ts
 */
async function main(): Promise<void> {
  await ensurePagila();
  const c = pagilaClient();
  await c.connect();
  try {
    writeFileSync('test/fixtures/semantic/pagila/catalog.json', `${JSON.stringify(await introspectPostgres(c), null, 1)}\n`);
  } finally {
    await c.end();
  }
  const SQL = await initSqlJs();
  const db = new SQL.Database(readFileSync(path.resolve(__dirname, '../../../../samples/chinook.sqlite')));
  writeFileSync('test/fixtures/semantic/chinook/catalog.json', `${JSON.stringify(introspectSqlite(db), null, 1)}\n`);
  db.close();
}

void main();
