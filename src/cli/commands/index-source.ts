import { CatalogError } from '../../core/catalog/store';
import { moveCorruptCatalogAside, runIndex } from '../../core/indexing/run-index';
import type { IndexOutcome } from '../../core/indexing/run-index';
import type { ExampleQuery } from '../../core/examples';
import { classifyColumn, loadPolicy } from '../../core/pii';
import { createReadOnlyPool } from '../../core/sql/pg-pool';
import { createIntrospector } from '../../core/sources';
import type { SourceSpec } from '../../core/sources/locator';
import { defaultCatalogPath } from '../../core/util/home';
import { EXIT_OK } from '../command';
import type { CliCommand, CliIO } from '../command';
import { indexPassword, jsonOutput, parseIndexArgs, progressPrinter, reportIndexError, reportOutcome, USAGE } from './index-common';

export { describeIndexError } from './index-common';
export type { IndexErrorInfo } from './index-common';

/** Reads pg_stat_statements over one short-lived read-only connection (the same guarded path run_query uses). */
async function mineExamples(spec: SourceSpec, secrets: { password?: string }, signal?: AbortSignal): Promise<{ ok: true; queries: readonly ExampleQuery[] } | { ok: false; message: string }> {
  if (spec.engine !== 'postgres') return { ok: false, message: 'SQLite keeps no query log' };
  const pool = createReadOnlyPool({ host: spec.host, port: spec.port, database: spec.database, user: spec.user, password: () => secrets.password ?? spec.password, maxConnections: 1 });
  try {
    // Most databases do not have the extension: find out with one catalog query before loading the SQL parser.
    const ext = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_stat_statements'`);
    if (!ext.rows[0]?.n) return { ok: false, message: 'pg_stat_statements is not installed in this database' };
    // The miner and the SQL guard (the PostgreSQL parser behind it) are loaded only where there is a log to read.
    const { mineExampleQueries } = require('../../core/examples/mine') as typeof import('../../core/examples/mine');
    const { loadSqlGuard } = require('../../core/sql/guard') as typeof import('../../core/sql/guard');
    const mined = await mineExampleQueries(pool, await loadSqlGuard(), { timeoutMs: 5000, signal });
    return mined.ok ? { ok: true, queries: mined.queries } : { ok: false, message: mined.message };
  } finally {
    await pool.end().catch(() => undefined);
  }
}

export const indexCommand: CliCommand = {
  name: 'index',
  summary: 'Index a PostgreSQL or MySQL/MariaDB database or a SQLite file into the catalog',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    // --store: the same run against a copy of the team store's newest generation, published as the next one.
    if (argv.some((a) => a === '--store' || a.startsWith('--store='))) return (require('./store-index') as typeof import('./store-index')).indexIntoStore(argv, io, indexCommand);
    const json = jsonOutput(argv, io);
    let catalogPath = defaultCatalogPath(io.env);
    const controller = new AbortController();
    const onSignal = (): void => controller.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const args = parseIndexArgs(argv, io.env);
      catalogPath = args.catalogPath;
      const { spec, source, schemas, sampleRows } = args;
      const password = await indexPassword(args, io);
      const policy = loadPolicy({ file: args.policyFile ?? null, env: io.env });
      const { onEvent, finish } = progressPrinter(spec.name, json, io);
      const attempt = (): Promise<IndexOutcome> =>
        runIndex({ spec, sourceInput: source, password, catalogPath, deps: { createIntrospector, classifyColumn, mineExamples }, policy, full: args.full, sampleRows, schemas, signal: controller.signal, onEvent });
      let outcome: IndexOutcome;
      try {
        outcome = await attempt();
      } catch (e) {
        if (e instanceof CatalogError && e.code === 'corrupt' && args.rebuild) {
          const aside = moveCorruptCatalogAside(catalogPath, spec.engine === 'sqlite' ? spec.path : undefined);
          if (json) io.stdout.write(`${JSON.stringify({ type: 'log', message: `damaged catalog moved to ${aside}` })}\n`);
          else io.stderr.write(`damaged catalog moved to ${aside}\n`);
          outcome = await attempt();
        } else throw e;
      }
      finish();
      reportOutcome(outcome, catalogPath, json, io);
      return EXIT_OK;
    } catch (e) {
      return reportIndexError(e, catalogPath, json, io);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
