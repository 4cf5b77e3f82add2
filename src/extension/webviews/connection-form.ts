import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { ENGINES, engineSpec } from '../connections/engines';
import type { ConnectionConfig } from '../connections/model';
import { validateConnectionName } from '../connections/model';
import type { ConnectionStore } from '../connections/store';
import { testConnection, type ConnectionProblem, type ConnectionTestResult } from '../connections/test-connection';
import type { Notifier } from '../prompter';
import { scriptedPanelHtml } from './panel-html';

/** What the form holds (strings, as typed). The password is '' for "keep the stored one" when editing. */
export interface FormValues {
  readonly engine: string;
  readonly name: string;
  readonly host?: string;
  readonly port?: string;
  readonly database?: string;
  readonly user?: string;
  readonly password?: string;
  /** Editing: remove the stored password. */
  readonly clearPassword?: boolean;
  readonly sslmode?: string;
  readonly file?: string;
}

export type FormAction = 'test' | 'save' | 'saveUntested';

/** What the form shows after an action: errors next to fields, a summary line, and whether it closed. */
export interface FormReply {
  readonly ok: boolean;
  readonly message: string;
  readonly fieldErrors: Readonly<Record<string, string>>;
  readonly saved: boolean;
  /** The connection's name once saved. */
  readonly name?: string;
  readonly test?: ConnectionTestResult;
}

type FromWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'submit'; readonly action: FormAction; readonly values: FormValues }
  | { readonly type: 'browse'; readonly values: FormValues }
  | { readonly type: 'cancel' };

export interface ConnectionFormDeps {
  readonly extensionUri: vscode.Uri;
  readonly store: ConnectionStore;
  readonly notifier: Notifier;
  readonly indexAfterSave: (name: string) => void;
}

/** The field a test failure belongs next to. */
const FIELD_OF: Readonly<Record<ConnectionProblem, string>> = {
  unreachable: 'host',
  auth_failed: 'password',
  role_not_permitted: 'user',
  database_missing: 'database',
  missing_credential: 'password',
  file_missing: 'file',
  not_sqlite: 'file',
  timeout: 'host',
  unknown: 'form',
};

/**
 * One form for Add and Edit Connection (a webview: every field at once, SSL mode, Test, errors next to their field,
 * the values kept when something fails, native controls so the keyboard and screen readers work, theme colours).
 * The engine list comes from ENGINES, so another engine adds its entry there and the form follows.
 */
export class ConnectionForm implements vscode.Disposable {
  private static current: ConnectionForm | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private readonly done: Promise<FormReply | undefined>;
  private resolveDone!: (r: FormReply | undefined) => void;
  private lastReply: FormReply | undefined;
  private readonly replyEmitter = new vscode.EventEmitter<FormReply>();
  /** Fires after each Test/Save with what the form now shows. */
  readonly onDidReply = this.replyEmitter.event;

  static get instance(): ConnectionForm | undefined {
    return ConnectionForm.current;
  }

  /** Opens the form (Add when `existing` is undefined); resolves when it is saved (the reply) or closed (undefined). */
  static open(extensionUri: vscode.Uri, deps: ConnectionFormDeps, existing?: ConnectionConfig): ConnectionForm {
    ConnectionForm.current?.dispose();
    const panel = vscode.window.createWebviewPanel('schemabrain.connectionForm', existing ? `Edit Connection: ${existing.name}` : 'Add Connection', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media', 'connection')],
    });
    ConnectionForm.current = new ConnectionForm(panel, extensionUri, deps, existing);
    return ConnectionForm.current;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly deps: ConnectionFormDeps,
    readonly existing: ConnectionConfig | undefined,
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'schemabrain.svg');
    panel.webview.html = scriptedPanelHtml(panel.webview, extensionUri, {
      mediaDir: 'connection',
      css: 'form.css',
      js: 'form.js',
      title: 'SchemaBrain Connection',
      body: '<main id="app" aria-live="polite"></main>',
    });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: FromWebview) => void this.onMessage(m)),
      this.replyEmitter,
    );
  }

  /** Resolves with the saving reply, or undefined when the form was closed without saving. */
  get result(): Promise<FormReply | undefined> {
    return this.done;
  }

  /** What the form last showed after Test or Save. */
  get reply(): FormReply | undefined {
    return this.lastReply;
  }

  /** Runs an action on the given values as the form's buttons do (the page posts exactly this). */
  async submit(action: FormAction, values: FormValues): Promise<FormReply> {
    const reply = await this.handle(action, values);
    this.lastReply = reply;
    void this.panel.webview.postMessage({ type: 'reply', reply });
    this.replyEmitter.fire(reply);
    if (reply.saved) {
      this.resolveDone(reply);
      this.panel.dispose();
    }
    return reply;
  }

  private async onMessage(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        void this.panel.webview.postMessage({ type: 'init', engines: ENGINES, values: this.initialValues(), editing: Boolean(this.existing), hasPassword: Boolean(this.existing?.hasPassword) });
        return;
      case 'submit':
        await this.submit(m.action, m.values);
        return;
      case 'browse': {
        const spec = engineSpec(m.values.engine);
        const uri = await vscode.window.showOpenDialog({
          canSelectMany: false,
          openLabel: 'Use this database',
          defaultUri: m.values.file ? vscode.Uri.file(m.values.file) : undefined,
          filters: spec?.fileExtensions ? { [`${spec.label} databases`]: [...spec.fileExtensions], 'All files': ['*'] } : undefined,
        });
        if (uri?.[0]) void this.panel.webview.postMessage({ type: 'file', path: uri[0].fsPath });
        return;
      }
      case 'cancel':
        this.panel.dispose();
        return;
    }
  }

  private initialValues(): FormValues {
    const c = this.existing;
    if (!c) {
      const first = ENGINES[0]!;
      return { engine: first.id, name: '', host: '127.0.0.1', port: String(first.defaultPort ?? ''), database: first.defaultDatabase ?? '', user: first.defaultUser ?? '', sslmode: first.sslModes[0] ?? '' };
    }
    return { engine: c.engine, name: c.name, host: c.host ?? '', port: c.port !== undefined ? String(c.port) : '', database: c.database ?? '', user: c.user ?? '', sslmode: c.sslmode ?? '', file: c.file ?? '' };
  }

  /** Checks the fields, tests the connection, and saves when asked and it works (or when saving untested). */
  private async handle(action: FormAction, v: FormValues): Promise<FormReply> {
    const errors: Record<string, string> = {};
    const spec = engineSpec(v.engine);
    if (!spec) errors.engine = `Choose one of ${ENGINES.map((e) => e.label).join(', ')}.`;
    const taken = this.deps.store.list().map((c) => c.name).filter((n) => n !== this.existing?.name);
    const nameError = validateConnectionName(v.name.trim(), taken);
    if (nameError) errors.name = nameError;
    let config: ConnectionConfig | undefined;
    if (spec?.kind === 'file') {
      const file = (v.file ?? '').trim();
      if (!file) errors.file = 'Pick the database file.';
      else if (!path.isAbsolute(file)) errors.file = 'Give the absolute path of the file.';
      else if (action !== 'saveUntested' && !fs.existsSync(file)) errors.file = `No file at ${file}.`;
      config = { name: v.name.trim(), engine: spec.id as ConnectionConfig['engine'], file };
    } else if (spec) {
      const port = Number(v.port ?? '');
      if (!/^\d{1,5}$/.test(v.port ?? '') || port < 1 || port > 65535) errors.port = 'A port number between 1 and 65535.';
      if (!(v.host ?? '').trim()) errors.host = 'The server\'s host name or address.';
      if (!(v.database ?? '').trim() && !spec.databaseOptional) errors.database = 'The database to index.';
      if (v.sslmode && !spec.sslModes.includes(v.sslmode)) errors.sslmode = `One of ${spec.sslModes.join(', ')}.`;
      config = {
        name: v.name.trim(),
        engine: spec.id as ConnectionConfig['engine'],
        host: (v.host ?? '').trim(),
        port,
        database: (v.database ?? '').trim() || undefined,
        user: (v.user ?? '').trim() || undefined,
        sslmode: (v.sslmode || undefined) as ConnectionConfig['sslmode'],
      };
    }
    if (Object.keys(errors).length || !config) return { ok: false, saved: false, message: 'Fix the marked fields.', fieldErrors: errors };

    // '' keeps the stored password when editing; a typed one replaces it; clearPassword removes it.
    const typed = v.password ? v.password : undefined;
    const newPassword: string | null | undefined = v.clearPassword ? null : typed;
    let test: ConnectionTestResult | undefined;
    if (action !== 'saveUntested') {
      const pw = newPassword === null ? undefined : newPassword ?? (this.existing ? await this.deps.store.reusablePassword(this.existing.name, config) : undefined);
      test = await testConnection(config, pw);
      if (!test.ok) {
        return { ok: false, saved: false, test, message: `${test.message} ${test.nextStep}`, fieldErrors: { [FIELD_OF[test.kind]]: `${test.message} ${test.nextStep}` } };
      }
      if (action === 'test') return { ok: true, saved: false, test, message: `Connected: ${test.detail}.`, fieldErrors: {} };
    }
    await this.deps.store.save(config, newPassword, this.existing?.name ?? config.name);
    const name = config.name;
    const detail = test?.ok ? ` (${test.detail})` : ' without testing';
    this.deps.notifier.notify('info', `SchemaBrain: connection '${name}' saved${detail}.`, ['Index Now'], (c) => {
      if (c === 'Index Now') this.deps.indexAfterSave(name);
    });
    return { ok: true, saved: true, name, test, message: `Saved '${name}'.`, fieldErrors: {} };
  }

  dispose(): void {
    if (ConnectionForm.current === this) ConnectionForm.current = undefined;
    this.resolveDone(undefined);
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }

  /** Whether the page has loaded (tests wait for it before driving the DOM). */
  get isReady(): boolean {
    return this.ready;
  }
}
