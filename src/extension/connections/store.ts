import * as vscode from 'vscode';
import { CONFIG_SECTION, SETTING_KEYS, passwordSecretKey } from '../constants';
import { engineSpec } from './engines';
import { CONNECTION_NAME_PATTERN, sameDestination, usesPassword, type ConnectionConfig } from './model';

/**
 * Connections: fields in the `schemabrain.connections` setting (global), passwords in SecretStorage only.
 * Fires `onDidChange` whenever either changes (settings edited by hand included).
 */
export class ConnectionStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${CONFIG_SECTION}.${SETTING_KEYS.connections}`)) this.emitter.fire();
      }),
      secrets.onDidChange((e) => {
        if (e.key.startsWith('schemabrain.password.')) this.emitter.fire();
      }),
    );
  }

  /**
   * The user's connections, then those the workspace settings add (a team can keep its connections, never passwords,
   * in `.vscode/settings.json`); on a name clash the user's own wins.
   */
  list(): ConnectionConfig[] {
    const cfg = vscode.workspace.getConfiguration(CONFIG_SECTION);
    const levels = cfg.inspect<unknown[]>(SETTING_KEYS.connections);
    const inWorkspace = levels?.workspaceValue !== undefined || levels?.workspaceFolderValue !== undefined;
    // Without workspace connections the merged value is the user's (local or remote user settings alike).
    const user = (inWorkspace ? levels?.globalValue ?? [] : cfg.get<unknown[]>(SETTING_KEYS.connections, [])).filter(isConnection);
    const names = new Set(user.map((c) => c.name));
    // A workspace's entries are taken only with a well-formed name (the settings schema's rule, which an editor
    // shows but does not enforce): a name lands in toasts, the status bar and secret keys.
    const workspace = [...(levels?.workspaceValue ?? []), ...(levels?.workspaceFolderValue ?? [])]
      .filter(isConnection)
      .filter((c) => CONNECTION_NAME_PATTERN.test(c.name))
      .filter((c) => !names.has(c.name) && (names.add(c.name), true))
      .map((c) => ({ ...c, origin: 'workspace' as const }));
    return [...user, ...workspace];
  }

  get(name: string): ConnectionConfig | undefined {
    return this.list().find((c) => c.name === name);
  }

  /**
   * Adds or replaces (by `previousName`, default the same name). `password: undefined` keeps the stored one, only
   * while the connection still goes where that password was given (sameDestination); otherwise it is deleted.
   */
  async save(conn: ConnectionConfig, password?: string | null, previousName: string = conn.name): Promise<void> {
    const prev = this.get(previousName);
    if (password === undefined && prev && !sameDestination(prev, conn)) password = null;
    const target = prev?.origin === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    const others = this.listAt(target).filter((c) => c.name !== previousName && c.name !== conn.name);
    if (previousName !== conn.name) {
      const old = await this.secrets.get(passwordSecretKey(previousName));
      await this.secrets.delete(passwordSecretKey(previousName));
      if (password === undefined && old !== undefined) password = old;
    }
    if (typeof password === 'string' && password.length > 0) await this.secrets.store(passwordSecretKey(conn.name), password);
    else if (password === null) await this.secrets.delete(passwordSecretKey(conn.name));
    const hasPassword = (await this.secrets.get(passwordSecretKey(conn.name))) !== undefined;
    const stored: ConnectionConfig = stripUndefined({ ...conn, origin: undefined, hasPassword: usesPassword(conn) ? hasPassword : undefined });
    await this.write([...others, stored].sort((a, b) => a.name.localeCompare(b.name)), target);
  }

  async remove(name: string): Promise<boolean> {
    const conn = this.get(name);
    if (!conn) return false;
    const target = conn.origin === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await this.secrets.delete(passwordSecretKey(name));
    await this.write(this.listAt(target).filter((c) => c.name !== name), target);
    return true;
  }

  /** The connections stored at one settings level, as written there. */
  private listAt(target: vscode.ConfigurationTarget): ConnectionConfig[] {
    const levels = vscode.workspace.getConfiguration(CONFIG_SECTION).inspect<unknown[]>(SETTING_KEYS.connections);
    if (target === vscode.ConfigurationTarget.Workspace) return (levels?.workspaceValue ?? []).filter(isConnection);
    return this.list().filter((c) => c.origin !== 'workspace').map(({ origin: _origin, ...c }) => c);
  }

  /** The password stored for `previousName`, only when `next` goes where it was given (sameDestination). */
  async reusablePassword(previousName: string, next: ConnectionConfig): Promise<string | undefined> {
    const prev = this.get(previousName);
    return prev && sameDestination(prev, next) ? this.getPassword(previousName) : undefined;
  }

  getPassword(name: string): Thenable<string | undefined> {
    return this.secrets.get(passwordSecretKey(name));
  }

  /** Source name → password for every connection that has one (what the secret channel serves). */
  async passwords(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const c of this.list()) {
      const p = await this.getPassword(c.name);
      if (p !== undefined) out.set(c.name, p);
    }
    return out;
  }

  private async write(list: ConnectionConfig[], target: vscode.ConfigurationTarget): Promise<void> {
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(SETTING_KEYS.connections, list, target);
  }

  dispose(): void {
    this.emitter.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function isConnection(v: unknown): v is ConnectionConfig {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o.name === 'string' && typeof o.engine === 'string' && engineSpec(o.engine) !== undefined;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
