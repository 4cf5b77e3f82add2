import * as vscode from 'vscode';
import { formatCount } from '../format';
import type { ConnectionNode } from '../views/connections-tree';
import { ProfilePanel, summarizeProfile, type ProfileRun } from '../webviews/profile-panel';
import { runVerb, type SemanticDeps } from './deps';

/** Profile Table called with arguments (tests, links). */
export interface ProfileTableArgs {
  readonly qualifiedName: string;
  readonly source?: string;
  readonly sampleRows?: number;
}

export type ProfileTableTarget = ConnectionNode | ProfileTableArgs | undefined;

/**
 * Profile Table: the table from the Connections view node, the argument, or a QuickPick over every indexed table;
 * runs `cli.js profile … --json`, opens the reports in the profile panel and sums the findings up in a notification.
 */
export async function profileTable(deps: SemanticDeps, target?: ProfileTableTarget): Promise<ProfileRun | undefined> {
  let args: ProfileTableArgs | undefined;
  if (target && 'kind' in target) {
    if (target.kind !== 'table') return undefined;
    args = { qualifiedName: target.entry.qualifiedName, source: target.entry.source.name };
  } else args = target;
  if (!args) {
    const view = deps.catalogView();
    if (!view || view.isEmpty) {
      deps.notifier.notify('info', 'SchemaBrain: nothing is indexed yet. Add a connection and index it, then profile its tables.');
      return undefined;
    }
    const several = view.sources.length > 1;
    const items = view.sources.flatMap((s) =>
      view.tablesOf(s.name).map((e) => ({
        label: e.qualifiedName,
        description: [several ? s.name : '', e.table.kind !== 'table' ? e.table.kind.replace('_', ' ') : '', e.table.rowEstimate !== null ? `~${formatCount(e.table.rowEstimate)} rows` : ''].filter(Boolean).join(' · '),
        source: s.name,
      })),
    );
    const pick = await deps.prompter().pick(items, { title: 'SchemaBrain: profile which table?', placeHolder: 'schema.table', ignoreFocusOut: true, matchOnDescription: true });
    if (!pick) return undefined;
    args = { qualifiedName: pick.label, source: pick.source };
  }
  const argv = ['profile', args.qualifiedName, ...(args.source ? ['--source', args.source] : []), ...(args.sampleRows !== undefined ? ['--sample-rows', String(args.sampleRows)] : [])];
  const name = args.qualifiedName;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SchemaBrain: profiling ${name}`, cancellable: true },
    (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return runVerb(deps, argv, abort.signal);
    },
  );
  if (!outcome.ok && outcome.kind === 'cancelled') return undefined;
  const run: ProfileRun = outcome.ok
    ? { qualifiedName: name, source: args.source ?? null, envelope: outcome.envelope, failure: null }
    : { qualifiedName: name, source: args.source ?? null, envelope: null, failure: { kind: outcome.kind, message: outcome.message } };
  const summary = summarizeProfile(run);
  deps.log.info(`profile ${name}: ${summary}`);
  ProfilePanel.show(run);
  const failed = !run.envelope || run.envelope.status === 'error' || run.envelope.status === 'refused';
  deps.notifier.notify(failed ? 'error' : 'info', `SchemaBrain: ${failed ? '' : 'profiled '}${summary}`);
  return run;
}
