import path from 'node:path';
import * as vscode from 'vscode';
import { schemabrainHome } from '../core/util/home';
import { CONFIG_SECTION, PII_FLOOR, SETTING_KEYS } from './constants';

/** The settings the extension and its child processes need, resolved to absolute paths. */
export interface Settings {
  readonly home: string;
  readonly catalogPath: string;
  readonly auditPath: string;
  readonly eventsPath: string;
  readonly piiBlock: readonly string[];
  readonly rowCap: number;
  /** Row cap for runs a person starts in the editor (Run Metric, Preview Rows); the agent keeps `rowCap`. */
  readonly personRowCap: number;
  readonly statementTimeoutMs: number;
  readonly mcpEnabled: boolean;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const cfg = vscode.workspace.getConfiguration(CONFIG_SECTION);
  // The catalog home and events path are machine-scoped (package.json): the editor ignores them in workspace settings,
  // so a repository cannot point the server's files (or the PII policy it loads from the home) elsewhere.
  const homeSetting = cfg.get<string>(SETTING_KEYS.catalogHome, '').trim();
  const home = homeSetting ? path.resolve(expandHome(homeSetting, env)) : schemabrainHome(env);
  const eventsSetting = cfg.get<string>(SETTING_KEYS.eventsPath, '').trim();
  // The block list may be set per workspace, but a workspace can only add categories: the user's list (or the
  // default) plus every workspace level, plus the floor.
  const levels = cfg.inspect<string[]>(SETTING_KEYS.piiBlock);
  const block = new Set<string>([
    ...PII_FLOOR,
    ...(levels?.globalValue ?? levels?.defaultValue ?? []),
    ...(levels?.workspaceValue ?? []),
    ...(levels?.workspaceFolderValue ?? []),
  ]);
  return {
    home,
    catalogPath: path.join(home, 'catalog.sqlite'),
    auditPath: path.join(home, 'audit.log'),
    eventsPath: eventsSetting ? path.resolve(expandHome(eventsSetting, env)) : path.join(home, 'events.jsonl'),
    piiBlock: [...block].sort(),
    rowCap: tightest(cfg, SETTING_KEYS.rowCap, 100),
    personRowCap: tightest(cfg, SETTING_KEYS.personRowCap, 5000),
    statementTimeoutMs: tightest(cfg, SETTING_KEYS.statementTimeoutMs, 5000),
    mcpEnabled: cfg.get<boolean>(SETTING_KEYS.mcpEnabled, true),
  };
}

/**
 * A limit (row cap, statement timeout) as the user set it (or its default), which a workspace may lower but never
 * raise: a repository's `.vscode/settings.json` must not widen what the agent may read.
 */
function tightest(cfg: vscode.WorkspaceConfiguration, key: string, fallback: number): number {
  const levels = cfg.inspect<number>(key);
  const valid = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
  const user = [levels?.globalValue, levels?.defaultValue, fallback].find(valid) ?? fallback;
  const narrower = [levels?.workspaceValue, levels?.workspaceFolderValue].filter(valid);
  return Math.min(user, ...narrower);
}

function expandHome(p: string, env: NodeJS.ProcessEnv): string {
  return p.startsWith('~/') && env.HOME ? path.join(env.HOME, p.slice(2)) : p;
}

/**
 * Environment for child processes (MCP server, CLI indexer): where the files are. Secrets never travel here (they go
 * over the secret channel); query limits and the PII block list go to the server as flags. ELECTRON_RUN_AS_NODE makes the editor's own binary behave as Node; where
 * the host already is Node (code-server, remote hosts) it is ignored.
 */
export function childEnv(settings: Settings, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    ELECTRON_RUN_AS_NODE: '1',
    SCHEMABRAIN_HOME: settings.home,
    SCHEMABRAIN_EVENTS_PATH: settings.eventsPath,
    SCHEMABRAIN_AUDIT_PATH: settings.auditPath,
    ...extra,
  };
}
