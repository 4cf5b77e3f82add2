import path from 'node:path';
import * as vscode from 'vscode';
import type { ConnectionConfig } from '../connections/model';
import { parsePostgresUrl, validateConnectionName } from '../connections/model';
import type { ConnectionStore } from '../connections/store';
import { testConnection, type ConnectionTestResult } from '../connections/test-connection';
import type { Notifier, Prompter } from '../prompter';

/**
 * Arguments for Add/Edit Connection when driven by a caller (tests, walkthrough links, other extensions) rather
 * than the guided QuickPick flow. A `url` may carry a password: it is moved to SecretStorage.
 */
export interface ConnectionArgs {
  readonly name: string;
  readonly engine?: 'postgres' | 'sqlite';
  readonly url?: string;
  readonly host?: string;
  readonly port?: number;
  readonly database?: string;
  readonly user?: string;
  readonly sslmode?: ConnectionConfig['sslmode'];
  readonly file?: string;
  /** `undefined` keeps the stored password (edit), `''`/`null` removes it. */
  readonly password?: string | null;
  /** Save even when the connection test fails (default: do not). */
  readonly saveOnFailure?: boolean;
}

export interface ConnectionCommandResult {
  readonly saved: boolean;
  readonly name?: string;
  readonly test?: ConnectionTestResult;
  readonly cancelled?: boolean;
}

export interface ConnectionCommandDeps {
  readonly store: ConnectionStore;
  readonly prompter: () => Prompter;
  readonly notifier: Notifier;
  readonly indexAfterSave: (name: string) => void;
}

type Draft = { config: ConnectionConfig; password?: string | null };

export async function addConnection(deps: ConnectionCommandDeps, args?: ConnectionArgs): Promise<ConnectionCommandResult> {
  const taken = deps.store.list().map((c) => c.name);
  let draft: Draft | undefined;
  if (args) {
    const built = draftFromArgs(args);
    if (typeof built === 'string') {
      deps.notifier.notify('error', built);
      return { saved: false };
    }
    const nameError = validateConnectionName(built.config.name, taken);
    if (nameError) {
      deps.notifier.notify('error', `SchemaBrain: ${nameError}`);
      return { saved: false };
    }
    draft = built;
  } else {
    draft = await guidedDraft(deps.prompter(), taken);
    if (!draft) return { saved: false, cancelled: true };
  }
  return testAndSave(deps, draft, args?.saveOnFailure ?? false, undefined, args !== undefined);
}

export async function editConnection(deps: ConnectionCommandDeps, target?: { name: string } | string, args?: Partial<ConnectionArgs>): Promise<ConnectionCommandResult> {
  const name = typeof target === 'string' ? target : target?.name ?? (await pickConnection(deps));
  if (!name) return { saved: false, cancelled: true };
  const existing = deps.store.get(name);
  if (!existing) {
    deps.notifier.notify('error', `SchemaBrain: no connection named '${name}'. Add it with SchemaBrain: Add Connection.`);
    return { saved: false };
  }
  let draft: Draft | undefined;
  if (args) {
    const merged = draftFromArgs({ ...existing, ...args, name: args.name ?? name } as ConnectionArgs);
    if (typeof merged === 'string') {
      deps.notifier.notify('error', merged);
      return { saved: false };
    }
    draft = { config: merged.config, password: args.password === undefined ? undefined : merged.password ?? null };
  } else {
    draft = await guidedEdit(deps.prompter(), existing);
    if (!draft) return { saved: false, cancelled: true };
  }
  const taken = deps.store.list().map((c) => c.name).filter((n) => n !== name);
  const nameError = validateConnectionName(draft.config.name, taken);
  if (nameError) {
    deps.notifier.notify('error', `SchemaBrain: ${nameError}`);
    return { saved: false };
  }
  return testAndSave(deps, draft, args?.saveOnFailure ?? false, name, args !== undefined);
}

export async function removeConnection(deps: ConnectionCommandDeps, target?: { name: string } | string, confirmed = false): Promise<boolean> {
  const name = typeof target === 'string' ? target : target?.name ?? (await pickConnection(deps));
  if (!name) return false;
  if (!confirmed) {
    const ok = await deps.prompter().choose('warning', `Remove connection '${name}' and its stored password? The catalog keeps its last index until re-indexed.`, 'Remove');
    if (ok !== 'Remove') return false;
  }
  const removed = await deps.store.remove(name);
  if (removed) deps.notifier.notify('info', `SchemaBrain: removed connection '${name}'.`);
  return removed;
}

async function testAndSave(deps: ConnectionCommandDeps, draft: Draft, saveOnFailure: boolean, previousName: string | undefined, headless: boolean): Promise<ConnectionCommandResult> {
  const password = draft.password === undefined && previousName ? await deps.store.getPassword(previousName) : draft.password ?? undefined;
  const test = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SchemaBrain: testing connection '${draft.config.name}'…` },
    () => testConnection(draft.config, password ?? undefined),
  );
  if (!test.ok) {
    let save = saveOnFailure;
    if (!headless) {
      const choice = await deps.prompter().choose('error', `SchemaBrain: ${test.message} ${test.nextStep}`, 'Save Anyway', 'Cancel');
      save = choice === 'Save Anyway';
    } else {
      deps.notifier.notify('error', `SchemaBrain: ${test.message} ${test.nextStep}`);
    }
    if (!save) return { saved: false, name: draft.config.name, test };
  }
  await deps.store.save(draft.config, draft.password, previousName ?? draft.config.name);
  if (test.ok) {
    deps.notifier.notify('info', `SchemaBrain: connection '${draft.config.name}' saved (${test.detail}).`, ['Index Now'], (c) => {
      if (c === 'Index Now') deps.indexAfterSave(draft.config.name);
    });
  }
  return { saved: true, name: draft.config.name, test };
}

function draftFromArgs(a: ConnectionArgs): Draft | string {
  if (a.url) {
    const parsed = parsePostgresUrl(a.url);
    if (typeof parsed === 'string') return `SchemaBrain: ${parsed}`;
    return { config: { ...parsed.config, name: a.name }, password: a.password ?? parsed.password };
  }
  const engine = a.engine ?? (a.file ? 'sqlite' : 'postgres');
  if (engine === 'sqlite') {
    if (!a.file) return 'SchemaBrain: a SQLite connection needs a file. Pick the database file.';
    return { config: { name: a.name, engine, file: path.resolve(a.file) } };
  }
  return {
    config: { name: a.name, engine, host: a.host ?? '127.0.0.1', port: a.port ?? 5432, database: a.database ?? 'postgres', user: a.user, sslmode: a.sslmode },
    password: a.password,
  };
}

async function pickConnection(deps: ConnectionCommandDeps): Promise<string | undefined> {
  const items = deps.store.list().map((c) => ({ label: c.name, description: c.engine }));
  if (!items.length) {
    deps.notifier.notify('info', 'SchemaBrain: no connections yet. Use SchemaBrain: Add Connection.');
    return undefined;
  }
  return (await deps.prompter().pick(items, { title: 'SchemaBrain: choose a connection', ignoreFocusOut: true }))?.label;
}

async function guidedDraft(p: Prompter, taken: readonly string[]): Promise<Draft | undefined> {
  const kind = await p.pick(
    [
      { label: 'PostgreSQL', description: 'host, port, database, user', id: 'pg' },
      { label: 'PostgreSQL from URL', description: 'postgres://user@host:5432/db', id: 'url' },
      { label: 'SQLite file', description: 'pick a .sqlite / .db file', id: 'sqlite' },
    ],
    { title: 'SchemaBrain: Add Connection (1/3) — engine', placeHolder: 'What kind of database?' },
  );
  if (!kind) return undefined;
  if (kind.id === 'sqlite') {
    const uri = await p.openFile({ canSelectMany: false, openLabel: 'Use this database', filters: { 'SQLite databases': ['sqlite', 'sqlite3', 'db', 'db3'], 'All files': ['*'] } });
    if (!uri) return undefined;
    const name = await askName(p, path.basename(uri.fsPath).replace(/\.[^.]+$/, ''), taken);
    return name ? { config: { name, engine: 'sqlite', file: uri.fsPath } } : undefined;
  }
  let base: Omit<ConnectionConfig, 'name'>;
  let password: string | undefined;
  if (kind.id === 'url') {
    const url = await p.input({
      title: 'SchemaBrain: PostgreSQL URL',
      placeHolder: 'postgres://user@host:5432/database?sslmode=prefer',
      ignoreFocusOut: true,
      validateInput: (v) => {
        const r = parsePostgresUrl(v);
        return typeof r === 'string' ? r : undefined;
      },
    });
    if (!url) return undefined;
    const parsed = parsePostgresUrl(url);
    if (typeof parsed === 'string') return undefined;
    base = parsed.config;
    password = parsed.password;
  } else {
    const host = await p.input({ title: 'SchemaBrain: PostgreSQL host', value: '127.0.0.1', ignoreFocusOut: true });
    if (host === undefined) return undefined;
    const portText = await p.input({
      title: 'SchemaBrain: port',
      value: '5432',
      ignoreFocusOut: true,
      validateInput: (v) => (/^\d{1,5}$/.test(v) && Number(v) > 0 && Number(v) < 65536 ? undefined : 'A port number between 1 and 65535'),
    });
    if (portText === undefined) return undefined;
    const database = await p.input({ title: 'SchemaBrain: database', value: 'postgres', ignoreFocusOut: true });
    if (database === undefined) return undefined;
    const user = await p.input({ title: 'SchemaBrain: user', value: 'postgres', ignoreFocusOut: true });
    if (user === undefined) return undefined;
    base = { engine: 'postgres', host: host || '127.0.0.1', port: Number(portText), database: database || 'postgres', user: user || undefined };
  }
  if (password === undefined) {
    const pw = await p.input({
      title: 'SchemaBrain: password (stored in the editor\'s secret storage; leave empty for none)',
      password: true,
      ignoreFocusOut: true,
    });
    if (pw === undefined) return undefined;
    password = pw || undefined;
  }
  const name = await askName(p, base.database ?? 'postgres', taken);
  return name ? { config: { ...base, name }, password } : undefined;
}

async function guidedEdit(p: Prompter, c: ConnectionConfig): Promise<Draft | undefined> {
  if (c.engine === 'sqlite') {
    const uri = await p.openFile({ canSelectMany: false, openLabel: 'Use this database', defaultUri: c.file ? vscode.Uri.file(c.file) : undefined });
    return uri ? { config: { ...c, file: uri.fsPath } } : undefined;
  }
  const field = await p.pick(
    [
      { label: 'Host', description: c.host, id: 'host' },
      { label: 'Port', description: String(c.port ?? 5432), id: 'port' },
      { label: 'Database', description: c.database, id: 'database' },
      { label: 'User', description: c.user, id: 'user' },
      { label: 'Password', description: c.hasPassword ? 'stored' : 'none', id: 'password' },
    ],
    { title: `SchemaBrain: Edit '${c.name}' — which field?` },
  );
  if (!field) return undefined;
  if (field.id === 'password') {
    const pw = await p.input({ title: 'SchemaBrain: new password (empty removes it)', password: true, ignoreFocusOut: true });
    return pw === undefined ? undefined : { config: c, password: pw || null };
  }
  const current = field.id === 'port' ? String(c.port ?? 5432) : String((c as unknown as Record<string, unknown>)[field.id] ?? '');
  const value = await p.input({ title: `SchemaBrain: ${field.label}`, value: current, ignoreFocusOut: true });
  if (value === undefined) return undefined;
  return { config: { ...c, [field.id]: field.id === 'port' ? Number(value) : value } as ConnectionConfig };
}

async function askName(p: Prompter, suggestion: string, taken: readonly string[]): Promise<string | undefined> {
  let value = suggestion.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || 'db';
  for (let i = 2; taken.includes(value); i++) value = `${suggestion}_${i}`;
  return p.input({
    title: 'SchemaBrain: connection name',
    value,
    ignoreFocusOut: true,
    validateInput: (v) => validateConnectionName(v, taken),
  });
}
