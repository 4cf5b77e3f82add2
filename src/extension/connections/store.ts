import * as vscode from 'vscode';
import { CONFIG_SECTION, SETTING_KEYS, passwordSecretKey } from '../constants';
import type { ConnectionConfig } from './model';

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

  list(): ConnectionConfig[] {
    const raw = vscode.workspace.getConfiguration(CONFIG_SECTION).get<unknown[]>(SETTING_KEYS.connections, []);
    return raw.filter(isConnection);
  }

  get(name: string): ConnectionConfig | undefined {
    return this.list().find((c) => c.name === name);
  }

  /** Adds or replaces (by `previousName`, default the same name). `password: undefined` keeps the stored one. */
  async save(conn: ConnectionConfig, password?: string | null, previousName: string = conn.name): Promise<void> {
    const others = this.list().filter((c) => c.name !== previousName && c.name !== conn.name);
    if (previousName !== conn.name) {
      const old = await this.secrets.get(passwordSecretKey(previousName));
      await this.secrets.delete(passwordSecretKey(previousName));
      if (password === undefined && old !== undefined) password = old;
    }
    if (typeof password === 'string' && password.length > 0) await this.secrets.store(passwordSecretKey(conn.name), password);
    else if (password === null) await this.secrets.delete(passwordSecretKey(conn.name));
    const hasPassword = (await this.secrets.get(passwordSecretKey(conn.name))) !== undefined;
    const stored: ConnectionConfig = stripUndefined({ ...conn, hasPassword: conn.engine === 'postgres' ? hasPassword : undefined });
    await this.write([...others, stored].sort((a, b) => a.name.localeCompare(b.name)));
  }

  async remove(name: string): Promise<boolean> {
    const all = this.list();
    if (!all.some((c) => c.name === name)) return false;
    await this.secrets.delete(passwordSecretKey(name));
    await this.write(all.filter((c) => c.name !== name));
    return true;
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

  private async write(list: ConnectionConfig[]): Promise<void> {
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(SETTING_KEYS.connections, list, vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.emitter.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function isConnection(v: unknown): v is ConnectionConfig {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o.name === 'string' && (o.engine === 'postgres' || o.engine === 'sqlite');
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
