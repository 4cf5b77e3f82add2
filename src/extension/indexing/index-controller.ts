import fs from 'node:fs';
import * as vscode from 'vscode';
import { childEnv, type Settings } from '../config';
import { sourceLocator } from '../connections/model';
import type { ConnectionStore } from '../connections/store';
import { CONTEXT_KEYS } from '../constants';
import type { Log } from '../log';
import type { Notifier } from '../prompter';
import { runIndex, type IndexOutcome, type IndexProgress } from './run-index';

export interface IndexControllerDeps {
  readonly store: ConnectionStore;
  readonly settings: () => Settings;
  readonly cliPath: string;
  readonly nodePath: string;
  readonly notifier: Notifier;
  readonly log: Log;
  /** Called whenever the set of running indexes or their progress changes. */
  readonly onProgress: (running: ReadonlyMap<string, string>) => void;
  /** Called after a run finished (any outcome) so views reload the catalog. */
  readonly onFinished: (name: string, outcome: IndexOutcome) => void;
}

export interface IndexOptions {
  /** Aborts the run as the notification's Cancel button would. */
  readonly signal?: AbortSignal;
}

/** Runs `schemabrain index` for connections, one at a time per connection, with a cancellable progress notification. */
export class IndexController {
  private readonly running = new Map<string, string>();

  constructor(private readonly deps: IndexControllerDeps) {}

  get progress(): ReadonlyMap<string, string> {
    return this.running;
  }

  async index(name: string, options: IndexOptions = {}): Promise<IndexOutcome> {
    const conn = this.deps.store.get(name);
    if (!conn) {
      const message = `no connection named '${name}'`;
      this.deps.notifier.notify('error', `SchemaBrain: ${message}. Add it with SchemaBrain: Add Connection.`);
      return { status: 'failed', kind: 'unknown_connection', message };
    }
    if (this.running.has(name)) {
      this.deps.notifier.notify('info', `SchemaBrain: '${name}' is already being indexed.`);
      return { status: 'failed', kind: 'already_running', message: `'${name}' is already being indexed` };
    }
    if (!fs.existsSync(this.deps.cliPath)) {
      const message = `the indexer is missing (${this.deps.cliPath}); reinstall the extension`;
      this.deps.notifier.notify('error', `SchemaBrain: ${message}.`);
      return { status: 'failed', kind: 'indexer_missing', message };
    }
    const settings = this.deps.settings();
    const password = conn.engine === 'postgres' ? await this.deps.store.getPassword(name) : undefined;
    this.setRunning(name, 'starting');
    const t0 = Date.now();
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `SchemaBrain: indexing '${name}'`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        options.signal?.addEventListener('abort', () => abort.abort(), { once: true });
        if (options.signal?.aborted) abort.abort();
        let lastPct = 0;
        return runIndex({
          nodePath: this.deps.nodePath,
          cliPath: this.deps.cliPath,
          name,
          source: sourceLocator(conn),
          catalogPath: settings.catalogPath,
          password,
          env: childEnv(settings),
          signal: abort.signal,
          onStderr: (line) => this.deps.log.info(`[index ${name}] ${line}`),
          onProgress: (p: IndexProgress) => {
            const text = describeProgress(p);
            const pct = typeof p.percent === 'number' ? Math.round(p.percent) : p.total ? Math.min(100, Math.round(((p.done ?? 0) / p.total) * 100)) : undefined;
            const increment = pct !== undefined && pct > lastPct ? pct - lastPct : undefined;
            if (pct !== undefined) lastPct = Math.max(lastPct, pct);
            progress.report({ message: text, increment });
            this.setRunning(name, pct !== undefined ? `${pct}%` : text);
          },
        });
      },
    );
    this.running.delete(name);
    this.deps.onProgress(this.running);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.indexing, this.running.size > 0);
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    switch (outcome.status) {
      case 'succeeded': {
        const r = outcome.result;
        const tables = r.tables ?? r.tableCount ?? r.tablesTotal;
        this.deps.notifier.notify('info', `SchemaBrain: indexed '${name}'${tables !== undefined ? ` (${String(tables)} tables)` : ''} in ${secs}s.`);
        break;
      }
      case 'cancelled':
        this.deps.notifier.notify('warning', `SchemaBrain: indexing '${name}' was cancelled; the previous catalog is unchanged.`);
        break;
      case 'failed':
        this.deps.log.error(`indexing '${name}' failed: ${outcome.kind}: ${outcome.message}`);
        this.deps.notifier.notify('error', `SchemaBrain: indexing '${name}' failed: ${outcome.message}. Next: ${outcome.hint ?? nextStepFor(outcome.kind)}`);
        break;
    }
    this.deps.onFinished(name, outcome);
    return outcome;
  }

  async indexAll(options: IndexOptions = {}): Promise<Map<string, IndexOutcome>> {
    const out = new Map<string, IndexOutcome>();
    for (const c of this.deps.store.list()) {
      if (options.signal?.aborted) break;
      out.set(c.name, await this.index(c.name, options));
    }
    if (out.size === 0) this.deps.notifier.notify('info', 'SchemaBrain: no connections to index. Use SchemaBrain: Add Connection.');
    return out;
  }

  private setRunning(name: string, text: string): void {
    this.running.set(name, text);
    this.deps.onProgress(this.running);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.indexing, true);
  }
}

function describeProgress(p: IndexProgress): string {
  const count = p.total ? ` ${p.done ?? 0}/${p.total}` : '';
  return `${p.message ?? p.phase ?? 'working'}${count}`;
}

/** A next step per failure kind reported by the indexer (kinds from the charter's error taxonomy and the CLI). */
export function nextStepFor(kind: string): string {
  switch (kind) {
    case 'source_unreachable':
    case 'unreachable':
    case 'connection_failed':
      return 'Check the host and port and that the server is running, then Index Connection again.';
    case 'auth_failed':
    case 'permission_denied':
    case 'missing_credential':
      return 'Edit Connection to set the right user and password.';
    case 'not_found':
    case 'file_missing':
    case 'source_not_found':
      return 'Edit Connection and pick an existing database or file.';
    case 'timeout':
      return 'Try again, or raise schemabrain.query.statementTimeoutMs.';
    default:
      return 'See the SchemaBrain output channel for details.';
  }
}
