import path from 'node:path';
import * as vscode from 'vscode';
import type { ConnectionConfig } from '../connections/model';
import { parsePostgresUrl, validateConnectionName } from '../connections/model';
import type { ConnectionStore } from '../connections/store';
import { testConnection, type ConnectionTestResult } from '../connections/test-connection';
import type { Notifier, Prompter } from '../prompter';
import { ConnectionForm } from '../webviews/connection-form';

/**
 * Arguments for Add/Edit Connection when driven by a caller (tests, walkthrough links, other extensions) rather
 * than the guided QuickPick flow. A `url` may carry a password: it is moved to SecretStorage.
 */
export interface ConnectionArgs {
  readonly name: string;
  readonly engine?: 'postgres' | 'sqlite' | 'mysql';
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
  readonly extensionUri: vscode.Uri;
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
    return fromForm(deps, undefined);
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
    return fromForm(deps, existing);
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
  const password = draft.password === undefined && previousName ? await deps.store.reusablePassword(previousName, draft.config) : draft.password ?? undefined;
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
    config: engine === 'mysql'
      ? { name: a.name, engine, host: a.host ?? '127.0.0.1', port: a.port ?? 3306, database: a.database, user: a.user, sslmode: a.sslmode }
      : { name: a.name, engine, host: a.host ?? '127.0.0.1', port: a.port ?? 5432, database: a.database ?? 'postgres', user: a.user, sslmode: a.sslmode },
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

/** Add/Edit through the connection form: resolves when it is saved or closed. */
async function fromForm(deps: ConnectionCommandDeps, existing: ConnectionConfig | undefined): Promise<ConnectionCommandResult> {
  const form = ConnectionForm.open(deps.extensionUri, deps, existing);
  const reply = await form.result;
  return reply ? { saved: true, name: reply.name, test: reply.test } : { saved: false, cancelled: true };
}
