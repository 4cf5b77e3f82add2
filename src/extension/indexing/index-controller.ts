import fs from 'node:fs';
import * as vscode from 'vscode';
import { childEnv, type Settings } from '../config';
import { describeConnection, sourceLocator, usesPassword, type ConnectionConfig } from '../connections/model';
import type { ConnectionStore } from '../connections/store';
import { COMMAND_IDS, CONTEXT_KEYS } from '../constants';
import type { Log } from '../log';
import type { Notifier, Prompter } from '../prompter';
import { plural } from '../format';
import { runIndex, type IndexOutcome, type IndexProgress } from './run-index';

export interface IndexControllerDeps {
  readonly store: ConnectionStore;
  readonly settings: () => Settings;
  readonly cliPath: string;
  readonly nodePath: string;
  readonly notifier: Notifier;
  readonly prompter: () => Prompter;
  readonly log: Log;
  /** Called whenever the set of running indexes or their progress changes. */
  readonly onProgress: (running: ReadonlyMap<string, string>) => void;
  /** Called after a run finished (any outcome) so views reload the catalog. */
  readonly onFinished: (name: string, outcome: IndexOutcome) => void;
  /** When the catalog last indexed this source (re-read from the file), to tell what a cancelled run left behind. */
  readonly indexedAt: (name: string) => Promise<string | undefined>;
  /** Where the person's approvals of workspace-defined connections are kept (the extension's global state). */
  readonly approvals?: vscode.Memento;
}

const APPROVALS_KEY = 'schemabrain.approvedWorkspaceConnections';

/** Where a connection goes: what the person approves for a connection a workspace defines. */
function destinationOf(c: ConnectionConfig): string {
  return JSON.stringify([c.engine, c.host ?? null, c.port ?? null, c.user ?? null, c.database ?? null, c.file ?? null, c.sslmode ?? null]);
}

export interface IndexOptions {
  /** Aborts the run as the notification's Cancel button would. */
  readonly signal?: AbortSignal;
  /** Each progress line of the indexer, as it arrives. */
  readonly onProgress?: (p: IndexProgress) => void;
}

/** The last failed run of a connection, shown in the tree until a run succeeds. */
export interface IndexFailure {
  readonly kind: string;
  readonly message: string;
  readonly nextStep: string;
  readonly at: string;
}

/** Failure kinds (and driver messages) that mean the server wants a password the editor does not have. */
function wantsPassword(o: Extract<IndexOutcome, { status: 'failed' }>): boolean {
  return o.kind === 'auth_failed' || o.kind === 'missing_credential' || /password/i.test(o.message);
}

/** Runs `schemabrain index` for connections, one at a time per connection, with a cancellable progress notification. */
export class IndexController {
  private readonly running = new Map<string, string>();
  private readonly failed = new Map<string, IndexFailure>();

  constructor(private readonly deps: IndexControllerDeps) {}

  get progress(): ReadonlyMap<string, string> {
    return this.running;
  }

  /** Connections whose last index failed, with why (cleared by the next successful run). */
  get failures(): ReadonlyMap<string, IndexFailure> {
    return this.failed;
  }

  /** Whether the person approved connecting to this workspace connection's destination; asks once per destination. */
  private async approved(name: string, conn: ConnectionConfig): Promise<boolean> {
    const dest = destinationOf(conn);
    const list = this.deps.approvals?.get<string[]>(APPROVALS_KEY, []) ?? [];
    if (list.includes(dest)) return true;
    const choice = await this.deps.prompter().choose(
      'warning',
      `SchemaBrain: the connection '${name}' is defined by this workspace's settings, not by you. It reads ${describeConnection(conn)}. Connect to it?`,
      'Connect',
      'Cancel',
    );
    if (choice !== 'Connect') return false;
    await this.deps.approvals?.update(APPROVALS_KEY, [...list.slice(-199), dest]);
    return true;
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
    // A connection from the workspace's settings was written by whoever wrote the repository: the first run to a
    // destination waits for the person to approve where it connects (and which file or server it reads).
    if (conn.origin === 'workspace' && !(await this.approved(name, conn))) {
      const message = `'${name}' comes from this workspace's settings and was not approved`;
      this.deps.notifier.notify('warning', `SchemaBrain: not indexing ${message}.`);
      return { status: 'failed', kind: 'not_approved', message };
    }
    const stored = usesPassword(conn) ? await this.deps.store.getPassword(name) : undefined;
    const before = await this.deps.indexedAt(name).catch(() => undefined);
    const t0 = Date.now();
    let outcome = await this.run(name, conn, stored, options);
    // The server asked for a password and none is stored: ask the person once, keep it only if it works.
    if (outcome.status === 'failed' && usesPassword(conn) && stored === undefined && wantsPassword(outcome) && !options.signal?.aborted) {
      this.deps.log.info(`indexing '${name}' needs a password (${outcome.kind}); asking for it`);
      const pw = await this.deps.prompter().input({
        title: `SchemaBrain: password for '${name}' (${describeConnection(conn)})`,
        prompt: 'The server asks for a password. It is kept in the editor\'s secret storage, never in settings.',
        password: true,
        ignoreFocusOut: true,
      });
      if (pw) {
        outcome = await this.run(name, conn, pw, options);
        if (outcome.status === 'succeeded') await this.deps.store.save(conn, pw, name);
      }
    }
    // A cancel can land after the indexer wrote the catalog; the catalog itself says which happened.
    if (outcome.status === 'cancelled') {
      const after = await this.deps.indexedAt(name).catch(() => undefined);
      if (after !== undefined && after !== before) outcome = { status: 'succeeded', result: {}, cancelTooLate: true };
    }
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    switch (outcome.status) {
      case 'succeeded': {
        this.failed.delete(name);
        const r = outcome.result;
        const tables = r.tables ?? r.tableCount ?? r.tablesTotal;
        const count = typeof tables === 'number' ? ` (${plural(tables, 'table')})` : '';
        if (outcome.cancelTooLate) {
          this.deps.notifier.notify('warning', `SchemaBrain: the cancel came too late: '${name}' had already been indexed${count}; the catalog holds the new index.`);
        } else {
          this.deps.notifier.notify('info', `SchemaBrain: indexed '${name}'${count} in ${secs}s.`);
        }
        break;
      }
      case 'cancelled':
        this.deps.notifier.notify('warning', `SchemaBrain: indexing '${name}' was cancelled; the previous catalog is unchanged.`);
        break;
      case 'failed': {
        const nextStep = outcome.hint ?? nextStepFor(outcome.kind);
        this.failed.set(name, { kind: outcome.kind, message: outcome.message, nextStep, at: new Date().toISOString() });
        this.deps.log.error(`indexing '${name}' failed: ${outcome.kind}: ${outcome.message}`);
        this.deps.notifier.notify('error', `SchemaBrain: indexing '${name}' failed: ${outcome.message}. Next: ${nextStep}`, ['Edit Connection', 'Show Log'], (c) => {
          if (c === 'Edit Connection') void vscode.commands.executeCommand(COMMAND_IDS.editConnection, name);
          else if (c === 'Show Log') this.deps.log.show();
        });
        break;
      }
    }
    this.deps.onProgress(this.running);
    this.deps.onFinished(name, outcome);
    return outcome;
  }

  /** One indexer run under a cancellable progress notification. */
  private async run(name: string, conn: ConnectionConfig, password: string | undefined, options: IndexOptions): Promise<IndexOutcome> {
    const settings = this.deps.settings();
    this.setRunning(name, 'starting');
    try {
      return await vscode.window.withProgress(
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
              options.onProgress?.(p);
            },
          });
        },
      );
    } finally {
      this.running.delete(name);
      void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.indexing, this.running.size > 0);
    }
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
