import * as vscode from 'vscode';
import type { TableEntry } from '../../core/catalog/view';
import { formatCount } from '../format';
import { runVerb, type SemanticDeps } from '../semantic/deps';
import type { ConnectionNode } from '../views/connections-tree';
import { ResultsPanel, type ResultsRun } from '../webviews/results-panel';

/** Rows a preview asks for unless told otherwise (the person's row cap still bounds it). */
export const PREVIEW_ROWS_DEFAULT = 100;

/** Preview Rows called with arguments (tests, links). */
export interface PreviewRowsArgs {
  readonly qualifiedName: string;
  readonly source?: string;
  readonly limit?: number;
}

export type PreviewRowsTarget = ConnectionNode | PreviewRowsArgs | undefined;

/** An identifier quoted for the source's dialect (MySQL backticks, ANSI double quotes elsewhere). */
export function quoteIdent(name: string, engine: string): string {
  return engine === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}

/** `SELECT * FROM schema.table LIMIT n` for the relation, quoted for its engine. */
export function previewSql(entry: TableEntry, limit: number): string {
  const engine = entry.source.engine;
  return `SELECT * FROM ${quoteIdent(entry.table.schema, engine)}.${quoteIdent(entry.table.name, engine)} LIMIT ${limit}`;
}

function findEntry(deps: SemanticDeps, args: PreviewRowsArgs): TableEntry | undefined {
  const view = deps.catalogView();
  if (!view) return undefined;
  const entries = args.source ? view.tablesOf(args.source) : view.tablesOf();
  return entries.find((e) => e.qualifiedName === args.qualifiedName || `${e.table.schema}.${e.table.name}` === args.qualifiedName);
}

/**
 * Preview Rows: the first rows of a table or view, through `cli.js query … --json`, i.e. the run_query tool with the
 * agent's SQL guard, PII masking at the source and an audit row, held to the person's row cap. Shows them in the
 * results grid; resolves with the run, or undefined when the picker was dismissed.
 */
export async function previewRows(deps: SemanticDeps, target?: PreviewRowsTarget): Promise<ResultsRun | undefined> {
  let entry: TableEntry | undefined;
  let limit = PREVIEW_ROWS_DEFAULT;
  if (target && 'kind' in target) {
    if (target.kind !== 'table') return undefined;
    entry = target.entry;
  } else if (target) {
    entry = findEntry(deps, target);
    if (target.limit !== undefined) limit = target.limit;
    if (!entry) {
      deps.notifier.notify('error', `SchemaBrain: ${target.qualifiedName} is not in the catalog${target.source ? ` of '${target.source}'` : ''}. Re-index the connection, then try again.`);
      return undefined;
    }
  } else {
    const view = deps.catalogView();
    if (!view || view.isEmpty) {
      deps.notifier.notify('info', 'SchemaBrain: nothing is indexed yet. Add a connection and index it, then preview its tables.');
      return undefined;
    }
    const several = view.sources.length > 1;
    const items = view.tablesOf().map((e) => ({
      label: e.qualifiedName,
      description: [several ? e.source.name : '', e.table.kind !== 'table' ? e.table.kind.replace('_', ' ') : '', e.table.rowEstimate !== null && e.table.rowEstimate >= 0 ? `~${formatCount(e.table.rowEstimate)} rows` : ''].filter(Boolean).join(' · '),
      entry: e,
    }));
    const pick = await deps.prompter().pick(items, { title: 'SchemaBrain: preview the rows of which table?', placeHolder: 'schema.table', ignoreFocusOut: true, matchOnDescription: true });
    if (!pick) return undefined;
    entry = pick.entry;
  }
  limit = Math.max(1, Math.min(10_000, Math.floor(limit)));
  const rowCap = deps.settings().personRowCap;
  const sql = previewSql(entry, limit);
  // The person's cap is the server cap here (rows past it come back truncated, status partial), as for Run Metric.
  const argv = ['query', sql, '--source', entry.source.name, '--max-rows', String(rowCap)];
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SchemaBrain: reading ${entry.qualifiedName}`, cancellable: true },
    (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return runVerb(deps, argv, abort.signal);
    },
  );
  if (!outcome.ok && outcome.kind === 'cancelled') return undefined;
  const base = { title: entry.qualifiedName, source: entry.source.name, sql, limit, rowCap };
  const run: ResultsRun = outcome.ok
    ? { ...base, envelope: outcome.envelope, failure: null, ms: outcome.ms }
    : { ...base, envelope: null, failure: { kind: outcome.kind, message: outcome.message }, ms: null };
  deps.log.info(`preview ${entry.qualifiedName}: ${run.envelope?.status ?? 'error'}${run.envelope?.error ? ` (${run.envelope.error.kind})` : ''}${run.failure ? ` (${run.failure.message})` : ''}`);
  ResultsPanel.show(deps.extensionUri, { prompter: deps.prompter, notifier: deps.notifier }, run);
  return run;
}
