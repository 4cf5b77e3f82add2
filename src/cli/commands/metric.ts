import path from 'node:path';
import { failure } from '../../core/envelope';
import type { Envelope, Recovery } from '../../core/envelope';
import { PolicyError } from '../../core/pii';
import { METRIC_LIMIT_DEFAULT, METRIC_LIMIT_MAX } from '../../core/semantic';
import { terminalSafe, terminalSafeLines } from '../../core/util/terminal-text';
import { createServer } from '../../server/create-server';
import { parseServerOptions, ServerOptionsError } from '../../server/options';
import { buildServerDeps } from '../../server/run';
import { SEMANTIC_FOLDER } from '../../server/semantic-model';
import { intFlag, parseArgs, stringFlag, UsageError } from '../args';
import type { FlagSpec, ParsedArgs } from '../args';
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_OPERATIONAL } from '../command';
import type { CliCommand, CliIO } from '../command';

/**
 * `schemabrain metric` and `schemabrain profile` run the real MCP tools in this process, through the same server
 * factory and dependencies as `schemabrain serve` (PII policy, row and time caps, audit log, secret channel), so a
 * person at a terminal or in the editor gets exactly the envelope an agent would.
 */

/** Flags every tool-running verb accepts; they become the server's own flags (same names, same precedence). */
export const SERVER_FLAGS: FlagSpec = {
  catalog: 'string',
  'pii-block': 'string',
  'pii-policy': 'string',
  'max-rows': 'string',
  'statement-timeout-ms': 'string',
  'no-audit': 'boolean',
  json: 'boolean',
};

export const SERVER_FLAGS_USAGE = `  --catalog               catalog file (default: $SCHEMABRAIN_HOME/catalog.sqlite)
  --pii-block             extra PII categories to refuse, comma-separated (the credential, payment_card and
                          government_id floor always applies)
  --pii-policy            PII policy file (default: $SCHEMABRAIN_HOME/pii-policy.yaml)
  --max-rows              row cap (default 1000); --statement-timeout-ms  time cap (default 15000)
  --no-audit              do not record the call in the audit log (it is recorded by default, like any tool call)
  --json                  print the charter envelope as one JSON line

Passwords come from the editor's secret channel, a \${VAR} in the stored source, PGPASSWORD or ~/.pgpass.
Exit codes: 0 success, empty, partial or degraded; 1 refused (e.g. pii_blocked); 2 error (bad argument,
unknown name, no catalog, the database failed).`;

/** 0 for answers (success/empty/partial/degraded), 1 for a refusal, 2 for an error. */
export function exitCodeFor(env: Envelope<unknown>): number {
  if (env.status === 'refused') return EXIT_CHECK_FAILED;
  if (env.status === 'error') return EXIT_OPERATIONAL;
  return EXIT_OK;
}

/** Server flags rebuilt from this verb's flags, so parseServerOptions applies its own checks and env precedence. */
function serverArgv(p: ParsedArgs, workspace: string | null): string[] {
  const out: string[] = [];
  for (const name of ['catalog', 'pii-block', 'pii-policy', 'max-rows', 'statement-timeout-ms']) {
    const v = stringFlag(p, name);
    if (v !== undefined) out.push(`--${name}`, v);
  }
  if (p.flags['no-audit']) out.push('--no-audit');
  if (workspace) out.push('--workspace', workspace);
  return out;
}

/**
 * Runs one tool through `createServer(...).callTool` with the dependencies `serve` builds. Option problems are
 * usage errors; everything the tool itself can fail at comes back as an envelope.
 */
export async function callToolInProcess(p: ParsedArgs, io: CliIO, tool: string, args: Record<string, unknown>, workspace: string | null = null): Promise<Envelope<unknown>> {
  let options;
  try {
    options = parseServerOptions(serverArgv(p, workspace), io.env);
  } catch (e) {
    if (e instanceof ServerOptionsError) throw new UsageError(e.message.split('\n')[0]!);
    throw e;
  }
  let deps;
  try {
    deps = await buildServerDeps(options, io.env);
  } catch (e) {
    if (e instanceof PolicyError) throw new UsageError(e.message);
    throw e;
  }
  try {
    return await createServer(deps).callTool(tool, args);
  } finally {
    await deps.recorder?.close();
    await deps.connections.close();
  }
}

/**
 * Prints the outcome: the envelope as one JSON line with --json; otherwise `body` for answers, and the error or
 * refusal with its next step on stderr. Returns the exit code.
 */
export function report(io: CliIO, verb: string, env: Envelope<unknown>, json: boolean, body: (data: Record<string, unknown>) => string): number {
  if (json) {
    io.stdout.write(`${JSON.stringify(env)}\n`);
    return exitCodeFor(env);
  }
  if (env.status === 'error' || env.status === 'refused') {
    const e = env.error!;
    const lines = [`schemabrain ${verb}: ${env.status} (${e.kind}): ${e.message}`, ...recoveryLines(e.recovery)];
    io.stderr.write(`${terminalSafeLines(lines.join('\n'))}\n`);
    return exitCodeFor(env);
  }
  const head = `status: ${env.status}${env.confidence ? ` · confidence ${env.confidence}` : ''}${env.degradation_reason ? ` · degraded: ${env.degradation_reason}` : ''}`;
  // The body carries database values and names; the table escapes each cell, and this escapes whatever a body
  // prints in its own lines (notes, findings, the SQL).
  io.stdout.write(`${terminalSafeLines(body((env.data ?? {}) as Record<string, unknown>))}${head}\n`);
  return exitCodeFor(env);
}

/**
 * The next steps of an error or refusal, one indented line each, for a person to read. Every member is written
 * out by its own shape: `widening_hint` is an object (the scope that would unblock the call, whether widening it
 * would, and why), never interpolated as it is.
 */
export function recoveryLines(r: Recovery | null | undefined): string[] {
  if (!r) return [];
  const lines: string[] = [];
  if (r.suggested_rewrite) lines.push(`  try: ${r.suggested_rewrite.rewritten} (${r.suggested_rewrite.reason})`);
  if (r.fuzzy_matches?.length) lines.push(`  did you mean: ${r.fuzzy_matches.join(', ')}`);
  const w = r.widening_hint;
  if (w) lines.push(`  hint: ${w.reason} (scope ${w.scope_requested}; widening it would${w.would_unblock ? '' : ' not'} unblock this call)`);
  if (r.suggested_tool) lines.push(`  next: ${r.suggested_tool}${r.suggested_args && Object.keys(r.suggested_args).length ? ` ${JSON.stringify(r.suggested_args)}` : ''}`);
  return lines;
}

/** Usage errors become an `invalid_argument` envelope with --json (the editor reads stdout), else the usual stderr text. */
export function usageFailure(io: CliIO, json: boolean, e: UsageError, usage: string, nextTool: string): number {
  if (!json) throw e;
  const env = failure('invalid_argument', `${e.message}. usage: ${usage.split('\n')[0]!.replace(/\s+/g, ' ')}`, { recovery: { suggested_tool: nextTool, suggested_args: {} } });
  io.stdout.write(`${JSON.stringify(env)}\n`);
  return EXIT_OPERATIONAL;
}

/** Pulls every occurrence of repeatable flags (`--group-by a --group-by b`, `--filter=…`) out of argv. */
export function takeRepeated(argv: readonly string[], names: readonly string[]): { rest: string[]; values: Record<string, string[]> } {
  const values: Record<string, string[]> = Object.fromEntries(names.map((n) => [n, []]));
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? (eq > 0 ? a.slice(2, eq) : a.slice(2)) : '';
    if (!names.includes(name)) {
      rest.push(a);
      continue;
    }
    const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    values[name]!.push(v);
  }
  return { rest, values };
}

const SYMBOL_OPS: Record<string, string> = { '=': 'eq', '==': 'eq', '!=': 'ne', '<>': 'ne', '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };
const WORD_OPS: Record<string, string> = {
  eq: 'eq', ne: 'ne', lt: 'lt', lte: 'lte', gt: 'gt', gte: 'gte', in: 'in', not_in: 'not_in', 'not in': 'not_in',
  is_null: 'is_null', 'is null': 'is_null', not_null: 'not_null', 'is not null': 'not_null',
};

function scalar(raw: string): string | number | boolean {
  const s = raw.trim();
  const quoted = /^'(.*)'$/s.exec(s) ?? /^"(.*)"$/s.exec(s);
  if (quoted) return quoted[1]!;
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^-?\d+(\.\d+)?$/.test(s) && Number.isFinite(Number(s))) return Number(s);
  return s;
}

export interface FilterArg {
  readonly column: string;
  readonly op: string;
  readonly value?: string | number | boolean | (string | number | boolean)[];
}

/** `'invoice.Total > 10'`, `'customer.Country in USA,Canada'`, `'invoice.BillingState is null'` → a get_metric filter. */
export function parseFilter(text: string): FilterArg {
  const bad = (why: string): UsageError =>
    new UsageError(`--filter '${text}' ${why}; write 'entity.column op value' with op one of =, !=, <, <=, >, >=, in, not_in, is_null, not_null (e.g. --filter 'invoice.Total > 10')`);
  let column: string;
  let op: string;
  let rest: string;
  const sym = /^\s*([^\s=<>!]+)\s*(<=|>=|!=|<>|==|=|<|>)\s*(.*)$/s.exec(text);
  if (sym) {
    column = sym[1]!;
    op = SYMBOL_OPS[sym[2]!]!;
    rest = sym[3]!;
  } else {
    const word = /^\s*(\S+)\s+(is not null|is null|not in|not_in|not_null|is_null|eq|ne|lte|lt|gte|gt|in)\b\s*(.*)$/is.exec(text);
    if (!word) throw bad('has no operator');
    column = word[1]!;
    op = WORD_OPS[word[2]!.toLowerCase()]!;
    rest = word[3]!;
  }
  if (!column.includes('.')) throw bad(`names column '${column}' without its entity`);
  if (op === 'is_null' || op === 'not_null') {
    if (rest.trim()) throw bad(`gives a value to ${op}`);
    return { column, op };
  }
  if (!rest.trim()) throw bad('has no value');
  if (op === 'in' || op === 'not_in') return { column, op, value: rest.split(',').map(scalar) };
  return { column, op, value: scalar(rest) };
}

/** `invoice.Total` or `invoice_total:desc`. */
export function parseOrderBy(text: string): { column: string; direction: 'asc' | 'desc' } {
  const m = /^(.+?)(?::(asc|desc))?$/i.exec(text.trim());
  if (!m || !m[1]) throw new UsageError(`--order-by '${text}' must be a column, optionally followed by :asc or :desc`);
  return { column: m[1], direction: (m[2]?.toLowerCase() as 'asc' | 'desc' | undefined) ?? 'asc' };
}

/** A value as one cell: control characters shown escaped (a cell is one line, so line feeds too), then shortened. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '∅';
  const s = terminalSafe(typeof v === 'number' ? String(Math.round(v * 1e6) / 1e6) : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

/** A plain text table; numbers right-aligned. Headers and cells come from the database, so both are escaped. */
export function textTable(rawHeaders: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const headers = rawHeaders.map((h) => terminalSafe(String(h)));
  const cells = rows.map((r) => headers.map((_, i) => cell(r[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === null || r[i] === undefined || typeof r[i] === 'number'));
  const line = (vals: readonly string[]): string => vals.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

const USAGE = `schemabrain metric <name> [--group-by entity.column]… [--filter 'entity.column op value']… [--grain G]
                  [--time-dimension entity.column] [--via join]… [--limit N] [--order-by column[:desc]]…
                  [--source S] [--workspace DIR] [--catalog PATH] [--json]

Computes a governed metric from the definitions in <workspace>/.schemabrain/ (the get_metric tool).
  --group-by        break the metric down by this column (repeat, or comma-separate)
  --filter          a condition, ANDed with the others: =, !=, <, <=, >, >=, in (comma list), not_in, is_null, not_null
  --grain           time bucket: day, week, month, quarter or year
  --time-dimension  the time column to bucket by, when not the metric's own
  --via             join names forcing the path (repeatable)
  --limit           rows at most (default ${METRIC_LIMIT_DEFAULT}, at most ${METRIC_LIMIT_MAX})
  --order-by        an output column, :asc (default) or :desc (repeatable)
  --source          the indexed source, when several hold the tables
  --workspace       folder holding .schemabrain/ (default: $SCHEMABRAIN_WORKSPACE, else the current folder)
${SERVER_FLAGS_USAGE}`;

function metricBody(d: Record<string, unknown>): string {
  const columns = (d.columns as { name: string }[] | undefined) ?? [];
  const rows = (d.rows as unknown[][] | Record<string, unknown>[] | undefined) ?? [];
  const asArrays = rows.map((r) => (Array.isArray(r) ? r : columns.map((c) => (r as Record<string, unknown>)[c.name])));
  const out = [`${String(d.metric)} on ${String(d.source)} (${String(d.row_count ?? asArrays.length)} row${d.row_count === 1 ? '' : 's'}${d.truncated ? ', truncated' : ''})`];
  out.push(textTable(columns.map((c) => c.name), asArrays));
  const fan = d.fan_out as { note?: string } | undefined;
  if (fan?.note) out.push(`fan-out: ${fan.note}`);
  for (const n of (d.notes as string[] | undefined) ?? []) out.push(`note: ${n}`);
  out.push(`sql: ${String(d.sql)}`);
  if (Array.isArray(d.params) && d.params.length) out.push(`params: ${JSON.stringify(d.params)}`);
  return `${out.join('\n')}\n`;
}

/**
 * get_metric answers `empty` when the workspace defines no metric at all (an agent is told where definitions go). A
 * person who names a metric asked for that one: as when other metrics are defined, it is an unknown metric (exit 2),
 * said with the folder that was read and, when its files failed to load, the first error.
 */
function noDefinitionsAsUnknown(env: Envelope<unknown>, name: string, workspace: string): Envelope<unknown> {
  const d = env.data as { metrics?: unknown; definition_errors?: { file: string; line: number; message: string }[]; definition_errors_total?: number } | null;
  if (env.status !== 'empty' || !Array.isArray(d?.metrics)) return env;
  const folder = path.join(workspace, SEMANTIC_FOLDER);
  const errors = d.definition_errors ?? [];
  const first = errors[0];
  const why = first
    ? `the files there have ${d.definition_errors_total ?? errors.length} error(s), the first in ${first.file}:${first.line}: ${first.message}; run 'schemabrain check --workspace ${workspace}' for all`
    : 'add entities, joins and metrics as YAML files there';
  return failure('unknown_metric', `Metric '${name}' is not defined: no definitions found in ${folder} (${why}).`, { recovery: { suggested_tool: 'list_metrics', suggested_args: {} } });
}

export const metricCommand: CliCommand = {
  name: 'metric',
  summary: 'Compute a governed metric from .schemabrain/ definitions (get_metric); exit 1 when refused',
  usage: USAGE,
  async run(argv, io: CliIO) {
    const json = argv.includes('--json');
    try {
      const { rest, values } = takeRepeated(argv, ['group-by', 'filter', 'order-by', 'via']);
      const p = parseArgs(rest, { ...SERVER_FLAGS, grain: 'string', 'time-dimension': 'string', limit: 'string', source: 'string', workspace: 'string' });
      const name = p.positional[0];
      if (!name) throw new UsageError('the metric name is required (see list_metrics, or the Metrics view in VS Code)');
      if (p.positional.length > 1) throw new UsageError(`unexpected argument '${p.positional[1]}' (quote a --filter that has spaces)`);
      const groupBy = values['group-by']!.flatMap((g) => g.split(',')).map((g) => g.trim()).filter(Boolean);
      for (const g of groupBy) if (!g.includes('.')) throw new UsageError(`--group-by '${g}' must be written entity.column`);
      const limit = intFlag(p, 'limit', 1, METRIC_LIMIT_MAX);
      const args: Record<string, unknown> = { name };
      if (groupBy.length) args.group_by = groupBy;
      if (values.filter!.length) args.filters = values.filter!.map(parseFilter);
      const grain = stringFlag(p, 'grain');
      if (grain) args.time_grain = grain;
      const timeDimension = stringFlag(p, 'time-dimension');
      if (timeDimension) args.time_dimension = timeDimension;
      if (values.via!.length) args.via = values.via;
      if (limit !== undefined) args.limit = limit;
      if (values['order-by']!.length) args.order_by = values['order-by']!.map(parseOrderBy);
      const source = stringFlag(p, 'source');
      if (source) args.source = source;
      const workspace = path.resolve(stringFlag(p, 'workspace') ?? io.env.SCHEMABRAIN_WORKSPACE ?? process.cwd());
      const env = await callToolInProcess(p, io, 'get_metric', args, workspace);
      return report(io, 'metric', noDefinitionsAsUnknown(env, name, workspace), json, metricBody);
    } catch (e) {
      if (e instanceof UsageError) return usageFailure(io, json, e, USAGE, 'list_metrics');
      throw e;
    }
  },
};
