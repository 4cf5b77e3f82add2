import path from 'node:path';
import { CatalogError } from '../../core/catalog/store';
import { IndexCancelledError, moveCorruptCatalogAside, runIndex } from '../../core/indexing/run-index';
import type { IndexEvent, IndexOutcome } from '../../core/indexing/run-index';
import { mineExampleQueries } from '../../core/examples';
import type { ExampleQuery } from '../../core/examples';
import { classifyColumn, loadPolicy, PolicyError } from '../../core/pii';
import { createReadOnlyPool, loadSqlGuard } from '../../core/sql';
import { fetchSecretsFromChannel, scrubSecretChannelEnv } from '../../core/secrets';
import { createIntrospector } from '../../core/sources';
import { SourceError } from '../../core/sources/errors';
import { parseSourceSpec, SourceSpecError } from '../../core/sources/locator';
import type { SourceSpec } from '../../core/sources/locator';
import { defaultCatalogPath } from '../../core/util/home';
import { intFlag, parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_OK, EXIT_OPERATIONAL } from '../command';
import type { CliCommand, CliIO } from '../command';
import { readStdin } from '../io';
import { ProgressBar } from '../progress';

const USAGE = `schemabrain index --source <postgres or mysql URL | sqlite file> [--name NAME] [--catalog PATH]
                 [--password-stdin] [--schemas a,b] [--sample-rows N] [--pii-policy FILE] [--full] [--rebuild] [--json]

  --source          postgres://user@host:5432/db (\${ENV_VAR} references are expanded; the password may come
                    from \${VAR}, PGPASSWORD, ~/.pgpass or --password-stdin) or a SQLite file path
  --name            name of the source in the catalog (default: database or file name)
  --catalog         catalog file (default: $SCHEMABRAIN_HOME/catalog.sqlite)
  --password-stdin  read the password from standard input (never pass it on the command line)
  --schemas         only these schemas (comma-separated)
  --sample-rows     rows sampled per table for PII value patterns and the value index (default 200, 0 = off)
  --pii-policy      PII policy whose column overrides apply on every run (default: $SCHEMABRAIN_HOME/pii-policy.yaml)
  --full            re-read everything even when the structure is unchanged (refreshes statistics and samples)
  --rebuild         move a damaged catalog aside and start a fresh one
  --json            JSON lines on stdout (the default when stdout is not a terminal)`;

/** Reads pg_stat_statements over one short-lived read-only connection (the same guarded path run_query uses). */
async function mineExamples(spec: SourceSpec, secrets: { password?: string }, signal?: AbortSignal): Promise<{ ok: true; queries: readonly ExampleQuery[] } | { ok: false; message: string }> {
  if (spec.engine !== 'postgres') return { ok: false, message: 'SQLite keeps no query log' };
  const pool = createReadOnlyPool({ host: spec.host, port: spec.port, database: spec.database, user: spec.user, password: () => secrets.password ?? spec.password, maxConnections: 1 });
  try {
    // Most databases do not have the extension: find out with one catalog query before loading the SQL parser.
    const ext = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_stat_statements'`);
    if (!ext.rows[0]?.n) return { ok: false, message: 'pg_stat_statements is not installed in this database' };
    const mined = await mineExampleQueries(pool, await loadSqlGuard(), { timeoutMs: 5000, signal });
    return mined.ok ? { ok: true, queries: mined.queries } : { ok: false, message: mined.message };
  } finally {
    await pool.end().catch(() => undefined);
  }
}

export interface IndexErrorInfo {
  readonly kind: string;
  readonly message: string;
  readonly hint: string;
}

/** Every expected failure of an index run, as a kind + message + next step (never a stack trace or a secret). */
export function describeIndexError(e: unknown, catalogPath: string): IndexErrorInfo {
  if (e instanceof UsageError) return { kind: 'usage', message: e.message, hint: `usage: ${USAGE.split('\n')[0]}` };
  if (e instanceof SourceSpecError) return { kind: e.code, message: e.message, hint: e.hint };
  if (e instanceof SourceError) return { kind: e.code, message: e.message, hint: e.hint };
  if (e instanceof PolicyError) return { kind: 'pii_policy', message: e.message, hint: 'fix the policy file and run again' };
  if (e instanceof IndexCancelledError) return { kind: 'cancelled', message: e.message, hint: 'run the index again when ready' };
  if (e instanceof CatalogError) {
    const hint =
      e.code === 'corrupt'
        ? `re-run with --rebuild to move ${catalogPath} aside and index afresh`
        : e.code === 'locked'
          ? 'another index is writing this catalog; wait for it to finish'
          : e.code === 'too_new'
            ? 'upgrade SchemaBrain, or point --catalog at another file'
            : 'check the path and its permissions';
    return { kind: `catalog_${e.code}`, message: e.message, hint };
  }
  if (/database disk image is malformed|file is not a database|database corrupt/i.test((e as Error)?.message ?? '')) {
    // SQLite found damage in the catalog while reading it (after the check on open): the same answer as on open.
    return { kind: 'catalog_corrupt', message: `catalog ${catalogPath} is damaged: ${(e as Error).message}`, hint: `re-run with --rebuild to move ${catalogPath} aside and index afresh` };
  }
  return { kind: 'internal_error', message: `unexpected failure: ${(e as Error).message}`, hint: 'this is a bug; please report it with the output above' };
}

export const indexCommand: CliCommand = {
  name: 'index',
  summary: 'Index a PostgreSQL or MySQL/MariaDB database or a SQLite file into the catalog',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    // --store: the same run against a copy of the team store's newest generation, published as the next one.
    if (argv.some((a) => a === '--store' || a.startsWith('--store='))) return (require('./store-index') as typeof import('./store-index')).indexIntoStore(argv, io, indexCommand);
    const json = !io.isTTY || argv.includes('--json');
    const write = (obj: Record<string, unknown>): void => {
      if (json) io.stdout.write(`${JSON.stringify(obj)}\n`);
    };
    let catalogPath = defaultCatalogPath(io.env);
    const fail = (e: unknown): number => {
      const info = describeIndexError(e, catalogPath);
      if (json) write({ type: 'error', ...info });
      else io.stderr.write(`\nschemabrain index: ${info.message}\n  next: ${info.hint}\n`);
      return EXIT_OPERATIONAL;
    };
    const controller = new AbortController();
    const onSignal = (): void => controller.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const p = parseArgs(argv, { source: 'string', name: 'string', catalog: 'string', 'password-stdin': 'boolean', schemas: 'string', 'sample-rows': 'string', 'pii-policy': 'string', full: 'boolean', rebuild: 'boolean', json: 'boolean' });
      const source = stringFlag(p, 'source') ?? p.positional[0];
      if (!source) throw new UsageError('--source is required');
      if (p.positional.length > (stringFlag(p, 'source') ? 0 : 1)) throw new UsageError(`unexpected argument '${p.positional[p.positional.length - 1]}'`);
      catalogPath = path.resolve(stringFlag(p, 'catalog') ?? catalogPath);
      const spec = parseSourceSpec(source, { name: stringFlag(p, 'name'), env: io.env });
      let password: string | undefined;
      const fromChannel = await fetchSecretsFromChannel(io.env);
      scrubSecretChannelEnv(io.env);
      password = fromChannel.get(spec.name);
      if (p.flags['password-stdin']) password = (await readStdin()).replace(/\r?\n$/, '');
      const schemas = stringFlag(p, 'schemas')?.split(',').map((s) => s.trim()).filter(Boolean);
      const sampleRows = intFlag(p, 'sample-rows', 0, 10_000) ?? 200;
      const policyFile = stringFlag(p, 'pii-policy');
      const policy = loadPolicy({ file: policyFile ? path.resolve(policyFile) : null, env: io.env });
      const bar = !json ? new ProgressBar(io.stderr, `indexing ${spec.name}`) : null;
      const onEvent = (e: IndexEvent): void => {
        if (e.type !== 'progress') return;
        write({ type: 'progress', phase: e.phase, done: e.done, total: e.total, percent: e.percent });
        bar?.update(e.percent, e.phase);
      };
      const attempt = (): Promise<IndexOutcome> =>
        runIndex({ spec, sourceInput: source, password, catalogPath, deps: { createIntrospector, classifyColumn, mineExamples }, policy, full: p.flags.full === true, sampleRows, schemas, signal: controller.signal, onEvent });
      let outcome: IndexOutcome;
      try {
        outcome = await attempt();
      } catch (e) {
        if (e instanceof CatalogError && e.code === 'corrupt' && p.flags.rebuild) {
          const aside = moveCorruptCatalogAside(catalogPath);
          if (json) write({ type: 'log', message: `damaged catalog moved to ${aside}` });
          else io.stderr.write(`damaged catalog moved to ${aside}\n`);
          outcome = await attempt();
        } else throw e;
      }
      bar?.done();
      const result = {
        type: 'result',
        source: outcome.source.name,
        engine: outcome.source.engine,
        locator: outcome.source.locator,
        catalog: catalogPath,
        generation: outcome.generation,
        mode: outcome.mode,
        tables: outcome.tablesTotal,
        columns: outcome.source.columnCount,
        changed: outcome.tablesChanged,
        removed: outcome.tablesRemoved,
        pii_columns: outcome.piiColumns,
        duration_ms: outcome.durationMs,
      };
      if (json) write(result);
      else {
        io.stdout.write(
          `indexed ${outcome.source.name} (${outcome.source.engine}): ${outcome.tablesTotal} tables, ${outcome.source.columnCount} columns, ` +
            `${outcome.tablesChanged} changed, ${outcome.tablesRemoved} removed${outcome.piiColumns === null ? '' : `, ${outcome.piiColumns} PII columns`} — ${outcome.mode}, generation ${outcome.generation}, ${outcome.durationMs} ms\n` +
            `catalog: ${catalogPath}\n`,
        );
      }
      return EXIT_OK;
    } catch (e) {
      return fail(e);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
