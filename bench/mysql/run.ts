/**
 * MySQL/MariaDB benchmark: introspection time against `mysqldump --no-data` of the same database (one run each,
 * medians of 5), and guarded-query latency p50/p99 over 200 calls. Writes bench/results/mysql.md.
 * Run: npx tsx bench/mysql/run.ts   (needs the MariaDB on 127.0.0.1:3306, or SCHEMABRAIN_TEST_MARIADB_URL)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createIntrospector, parseSourceSpec, type MysqlSourceSpec } from '../../src/core/sources';
import { loadSqlGuard } from '../../src/core/sql';
import { mysqlConnectionOptions } from '../../src/core/sql/mysql-driver';
import { runReadOnlyMysql } from '../../src/core/sql/mysql-exec';
import { CHINOOK_DB, loadChinook, loadSqliteSample, MARIADB_URL, SAKILA_DB, sakilaSqlite, urlFor } from '../../test/integration/mysql/support/mariadb';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

async function main(): Promise<void> {
  const dbs = [await loadChinook()];
  const sakila = sakilaSqlite();
  if (sakila) dbs.push(await loadSqliteSample(sakila, SAKILA_DB));
  const dump = ['mariadb-dump', 'mysqldump'].find((b) => spawnSync(b, ['--version']).status === 0);
  const u = new URL(MARIADB_URL);
  const lines: string[] = [
    '# MySQL/MariaDB source benchmark',
    '',
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), shared with other work; server ${MARIADB_URL.replace(/:[^:@/]*@/, ':***@')}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '## Index time against `mysqldump --no-data` (median of 5)',
    '',
    '| database | tables | dump --no-data ms | introspect (no samples) ms | ratio | introspect (50-row samples) ms | ratio |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const db of dbs) {
    const spec = parseSourceSpec(urlFor(MARIADB_URL, db));
    const d: number[] = [];
    const i0: number[] = [];
    const i50: number[] = [];
    let tables = 0;
    for (let k = 0; k < 5; k++) {
      let t = performance.now();
      const r = spawnSync(dump!, ['-h', u.hostname, '-P', u.port || '3306', '-u', decodeURIComponent(u.username || 'root'), '--no-data', '--skip-comments', db], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      d.push(performance.now() - t);
      t = performance.now();
      const res = await createIntrospector(spec).introspect({ sampleRows: 0 });
      i0.push(performance.now() - t);
      tables = res.snapshot.tables.length;
      t = performance.now();
      await createIntrospector(spec).introspect({ sampleRows: 50 });
      i50.push(performance.now() - t);
    }
    const [md, m0, m50] = [median(d), median(i0), median(i50)];
    lines.push(`| ${db} | ${tables} | ${md.toFixed(0)} | ${m0.toFixed(0)} | ${(m0 / md).toFixed(2)}× | ${m50.toFixed(0)} | ${(m50 / md).toFixed(2)}× |`);
  }
  const guard = await loadSqlGuard();
  const target = { options: mysqlConnectionOptions(parseSourceSpec(urlFor(MARIADB_URL, CHINOOK_DB)) as MysqlSourceSpec) };
  const queries: Array<[string, string]> = [
    ['point lookup', 'SELECT Name FROM Track WHERE TrackId = 42'],
    ['group by + join', 'SELECT g.Name, COUNT(*) FROM Track t JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name'],
    ['window', 'SELECT InvoiceId, SUM(Total) OVER (PARTITION BY CustomerId ORDER BY InvoiceDate) FROM Invoice'],
  ];
  lines.push('', '## Guarded query latency (parse + fresh connection + READ ONLY transaction + caps), 200 calls each', '', '| query | p50 ms | p99 ms | guard only p50 ms |', '|---|---|---|---|');
  for (const [label, sql] of queries) {
    const all: number[] = [];
    const g: number[] = [];
    for (let k = 0; k < 200; k++) {
      let t = performance.now();
      guard.guard(sql, 'mysql');
      g.push(performance.now() - t);
      t = performance.now();
      const r = await runReadOnlyMysql(target, guard, sql, [], { maxRows: 100 });
      if (!r.ok) throw new Error(JSON.stringify(r));
      all.push(performance.now() - t);
    }
    lines.push(`| ${label} | ${pct(all, 50).toFixed(1)} | ${pct(all, 99).toFixed(1)} | ${pct(g, 50).toFixed(2)} |`);
  }
  const out = path.join(__dirname, '..', 'results', 'mysql.md');
  fs.writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(lines.join('\n'));
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
