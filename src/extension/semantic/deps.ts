import * as vscode from 'vscode';
import type { CatalogView } from '../../core/catalog/view';
import { semanticCatalog, type SemanticCatalog } from '../../core/semantic/catalog';
import type { LoadResult } from '../../core/semantic/load';
import { childEnv, type Settings } from '../config';
import type { ConnectionStore } from '../connections/store';
import type { Log } from '../log';
import type { Notifier, Prompter } from '../prompter';
import { runToolCli, type ToolCliOutcome } from '../tools/run-tool-cli';

/** What the semantic-layer and profiling features need from the composition root. */
export interface SemanticDeps {
  readonly extensionUri: vscode.Uri;
  readonly nodePath: string;
  readonly cliPath: string;
  readonly settings: () => Settings;
  readonly store: ConnectionStore;
  readonly prompter: () => Prompter;
  readonly notifier: Notifier;
  readonly log: Log;
  /** The catalog as last loaded, when it is ready. */
  readonly catalogView: () => CatalogView | undefined;
  /** The Metrics view's last load of `.schemabrain/` (validated against the catalog). */
  readonly definitions: () => LoadResult | undefined;
  /** Re-reads definitions into the Metrics view. */
  readonly reloadDefinitions: () => Promise<LoadResult | undefined>;
}

/** The workspace folder whose `.schemabrain/` the features read and write (the first one, as the Metrics view). */
export function workspaceDir(): string | undefined {
  const f = vscode.workspace.workspaceFolders?.[0];
  return f?.uri.scheme === 'file' ? f.uri.fsPath : undefined;
}

const catalogs = new WeakMap<CatalogView, SemanticCatalog>();

/** Every indexed source's tables as the semantic layer resolves them; built once per catalog generation. */
export function semanticCatalogOf(view: CatalogView): SemanticCatalog {
  let c = catalogs.get(view);
  if (!c) {
    c = semanticCatalog(view.sources.map((s) => ({ source: s.name, tables: view.tablesOf(s.name).map((e) => e.table) })));
    catalogs.set(view, c);
  }
  return c;
}

/** Runs a tool verb of dist/cli.js with the settings as flags and every stored password offered over the channel. */
export async function runVerb(deps: SemanticDeps, args: readonly string[], signal?: AbortSignal): Promise<ToolCliOutcome> {
  const s = deps.settings();
  const flags = ['--catalog', s.catalogPath, '--pii-block', s.piiBlock.join(','), '--statement-timeout-ms', String(s.statementTimeoutMs)];
  return runToolCli({
    nodePath: deps.nodePath,
    cliPath: deps.cliPath,
    args: [...args, ...flags],
    env: childEnv(s),
    passwords: await deps.store.passwords(),
    signal,
    onStderr: (line) => deps.log.info(`[${args[0]}] ${line}`),
  });
}
