import { CatalogError } from '../../core/catalog/errors';
import { IndexCancelledError } from '../../core/indexing/unchanged';
import type { UnchangedOutcome } from '../../core/indexing/unchanged';
import type { IndexEvent, IndexOutcome } from '../../core/indexing/run-index';
import { PolicyError } from '../../core/pii/policy-error';
import { SourceError } from '../../core/sources/errors';
import { SourceSpecError } from '../../core/sources/locator';
import path from 'node:path';
import { fetchSecretsFromChannel, scrubSecretChannelEnv } from '../../core/secrets/channel';
import { parseSourceSpec } from '../../core/sources/locator';
import type { SourceSpec } from '../../core/sources/locator';
import { defaultCatalogPath } from '../../core/util/home';
import type { FlagSpec } from '../args';
import { intFlag, parseArgs, stringFlag, UsageError } from '../args';
import type { CliIO } from '../command';
import { EXIT_OPERATIONAL } from '../command';
import { readStdin } from '../io';
import { ProgressBar } from '../progress';

/**
 * What the `index` verb accepts and prints, shared by the command (index-source.ts) and the quick unchanged check
 * that runs before the rest of the CLI is loaded (cli/index-quick.ts): both answer in the same words.
 */

export const USAGE = `schemabrain index --source <postgres or mysql URL | sqlite file> [--name NAME] [--catalog PATH]
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

const INDEX_FLAGS: FlagSpec = { source: 'string', name: 'string', catalog: 'string', 'password-stdin': 'boolean', schemas: 'string', 'sample-rows': 'string', 'pii-policy': 'string', full: 'boolean', rebuild: 'boolean', json: 'boolean' };

export interface IndexArgs {
  /** What the user typed for the source; a `${VAR}` password reference in it is kept for reconnecting. */
  readonly source: string;
  readonly spec: SourceSpec;
  readonly catalogPath: string;
  readonly schemas: readonly string[] | undefined;
  readonly sampleRows: number;
  /** `--pii-policy`, resolved; undefined means the default policy file when there is one. */
  readonly policyFile: string | undefined;
  readonly passwordStdin: boolean;
  readonly full: boolean;
  readonly rebuild: boolean;
}

/** Parses the verb's flags; throws UsageError or SourceSpecError. (`--store` is handled before this.) */
/** A source name given with --name (the editor's connection names follow the same rule). */
const SOURCE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function parseIndexArgs(argv: readonly string[], env: NodeJS.ProcessEnv): IndexArgs {
  const p = parseArgs(argv, INDEX_FLAGS);
  const source = stringFlag(p, 'source') ?? p.positional[0];
  if (!source) throw new UsageError('--source is required');
  if (p.positional.length > (stringFlag(p, 'source') ? 0 : 1)) throw new UsageError(`unexpected argument '${p.positional[p.positional.length - 1]}'`);
  const name = stringFlag(p, 'name');
  // The name is what tools, resources and the editor show: plain, short, and never empty (an empty one fell back to
  // the default without a word).
  if (name !== undefined && !SOURCE_NAME.test(name)) throw new UsageError(`--name must be 1-64 letters, digits, dots, dashes or underscores; got '${name.slice(0, 40).replace(/[^\x20-\x7e]/g, '?')}'${name.length > 40 ? '…' : ''}`);
  const spec = parseSourceSpec(source, { name, env });
  const policyFile = stringFlag(p, 'pii-policy');
  return {
    source,
    spec,
    catalogPath: path.resolve(stringFlag(p, 'catalog') ?? defaultCatalogPath(env)),
    schemas: stringFlag(p, 'schemas')?.split(',').map((s) => s.trim()).filter(Boolean),
    sampleRows: intFlag(p, 'sample-rows', 0, 10_000) ?? 200,
    policyFile: policyFile ? path.resolve(policyFile) : undefined,
    passwordStdin: p.flags['password-stdin'] === true,
    full: p.flags.full === true,
    rebuild: p.flags.rebuild === true,
  };
}

/** True when the output is JSON lines (not a terminal, or `--json`). */
export function jsonOutput(argv: readonly string[], io: CliIO): boolean {
  return !io.isTTY || argv.includes('--json');
}

/**
 * The password for this run: from the editor's secret channel (one fetch, then its variables are removed from the
 * environment) and `--password-stdin`, which wins. Both can be read once only: a step of the same process that
 * already read them hands the answer on through `io.prefetchedPassword`.
 */
export async function indexPassword(args: IndexArgs, io: CliIO): Promise<string | undefined> {
  if (io.prefetchedPassword) return io.prefetchedPassword.value;
  const fromChannel = await fetchSecretsFromChannel(io.env);
  scrubSecretChannelEnv(io.env);
  let password = fromChannel.get(args.spec.name);
  if (args.passwordStdin) password = (await readStdin()).replace(/\r?\n$/, '');
  return password;
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
            : e.code === 'name_taken'
              ? 'give this connection another --name'
              : 'check the path and its permissions';
    return { kind: `catalog_${e.code}`, message: e.message, hint };
  }
  if (/database disk image is malformed|file is not a database|database corrupt/i.test((e as Error)?.message ?? '')) {
    // SQLite found damage in the catalog while reading it (after the check on open): the same answer as on open.
    return { kind: 'catalog_corrupt', message: `catalog ${catalogPath} is damaged: ${(e as Error).message}`, hint: `re-run with --rebuild to move ${catalogPath} aside and index afresh` };
  }
  return { kind: 'internal_error', message: `unexpected failure: ${(e as Error).message}`, hint: 'this is a bug; please report it with the output above' };
}

/** The last line of a run: a JSON `result` record, or one sentence for a person at a terminal. */
export function reportOutcome(outcome: IndexOutcome | UnchangedOutcome, catalogPath: string, json: boolean, io: CliIO): void {
  if (json) {
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
      ...('renamedFrom' in outcome && outcome.renamedFrom !== undefined ? { renamed_from: outcome.renamedFrom } : {}),
    };
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  io.stdout.write(
    `indexed ${outcome.source.name} (${outcome.source.engine}): ${outcome.tablesTotal} tables, ${outcome.source.columnCount} columns, ` +
      `${outcome.tablesChanged} changed, ${outcome.tablesRemoved} removed${outcome.piiColumns === null ? '' : `, ${outcome.piiColumns} PII columns`} — ${outcome.mode}, generation ${outcome.generation}, ${outcome.durationMs} ms\n` +
      `catalog: ${catalogPath}\n` +
      ('renamedFrom' in outcome && outcome.renamedFrom !== undefined ? `renamed: this database was indexed as '${outcome.renamedFrom}'; tools now know it as '${outcome.source.name}'\n` : ''),
  );
}

/** Progress as a run goes: JSON lines, or a bar on stderr at a terminal; `finish` ends the bar's line. */
export function progressPrinter(sourceName: string, json: boolean, io: CliIO): { onEvent: (e: IndexEvent) => void; finish: () => void } {
  const bar = json ? null : new ProgressBar(io.stderr, `indexing ${sourceName}`);
  const line = jsonProgressThrottle();
  return {
    onEvent: (e) => {
      if (e.type !== 'progress') return;
      if (json && line(e)) io.stdout.write(`${JSON.stringify({ type: 'progress', phase: e.phase, done: e.done, total: e.total, percent: e.percent })}\n`);
      bar?.update(e.percent, e.phase);
    },
    finish: () => bar?.done(),
  };
}

/** How often a phase that reports every table (samples: one event per table) may print a JSON progress line. */
export const JSON_PROGRESS_INTERVAL_MS = 200;

/**
 * Which progress events become JSON lines: the first and the last of each phase, every change of the whole percent,
 * and otherwise at most one line per {@link JSON_PROGRESS_INTERVAL_MS}, so that a phase reporting each of ten thousand
 * tables prints a heartbeat rather than ten thousand lines. `now` is injectable for tests.
 */
export function jsonProgressThrottle(now: () => number = Date.now): (e: { phase: string; done: number; total: number; percent: number }) => boolean {
  let phase = '';
  let percent = -1;
  let at = 0;
  return (e) => {
    const t = now();
    const pct = Math.floor(e.percent);
    const print = e.phase !== phase || e.done === 0 || e.done >= e.total || pct !== percent || t - at >= JSON_PROGRESS_INTERVAL_MS;
    if (print) {
      phase = e.phase;
      percent = pct;
      at = t;
    }
    return print;
  };
}

/** A failed run: one `error` line, or the message and the next step on stderr. Returns the exit code. */
export function reportIndexError(e: unknown, catalogPath: string, json: boolean, io: CliIO): number {
  const info = describeIndexError(e, catalogPath);
  if (json) io.stdout.write(`${JSON.stringify({ type: 'error', ...info })}\n`);
  else io.stderr.write(`\nschemabrain index: ${info.message}\n  next: ${info.hint}\n`);
  return EXIT_OPERATIONAL;
}
