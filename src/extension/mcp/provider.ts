import crypto from 'node:crypto';
import fs from 'node:fs';
import * as vscode from 'vscode';
import { createSecretChannel, type SecretChannel } from '../../core/secrets';
import { childEnv, type Settings } from '../config';
import { EXTENSION_ID, MCP_PROVIDER_ID, MCP_SERVER_LABEL } from '../constants';
import type { ConnectionStore } from '../connections/store';
import type { Log } from '../log';
import { TEAM_MCP_LABEL, type TeamConnection } from '../team/team-connection';

/** The id the workbench gives our server: `<extension id, lower case>/<label>` (used by workbench.mcp.* commands). */
export const MCP_SERVER_DEFINITION_ID = `${EXTENSION_ID.toLowerCase()}/${MCP_SERVER_LABEL}`;

export interface McpProviderDeps {
  readonly serverPath: string;
  readonly extensionVersion: string;
  readonly connections: ConnectionStore;
  readonly settings: () => Settings;
  /** Node for the child: the editor's own binary (ELECTRON_RUN_AS_NODE=1 makes Electron act as Node). */
  readonly nodePath: string;
  readonly log: Log;
  /** When connected to a team server, it is offered instead of the local server (token from SecretStorage). */
  readonly team?: TeamConnection;
}

/**
 * Offers the SchemaBrain MCP server to the editor (Copilot agent mode and any MCP client inside VS Code).
 * `provide…` is cheap and eager (no secrets, no I/O beyond a stat); `resolve…` runs right before each launch and
 * opens a fresh one-shot secret channel that the server uses to fetch passwords, so they never reach argv or env.
 */
export class SchemaBrainMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpServerDefinition>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.emitter.event;
  private channel: SecretChannel | undefined;
  private restartNonce = 0;
  provideCalls = 0;
  resolveCalls = 0;

  constructor(private readonly deps: McpProviderDeps) {}

  /** Connections changed, the catalog generation moved, or settings changed: tell the editor to ask again. */
  changed(): void {
    this.emitter.fire();
  }

  /** Changes the definition's version so the editor treats it as a new server (a restart picks up new secrets). */
  bumpVersion(): void {
    this.restartNonce += 1;
    this.emitter.fire();
  }

  provideMcpServerDefinitions(): vscode.McpServerDefinition[] {
    this.provideCalls += 1;
    const settings = this.deps.settings();
    const team = this.deps.team;
    const teamUrl = team?.active ? team.url() : undefined;
    if (settings.mcpEnabled && teamUrl) {
      // No header here: the token is added in resolve, right before each start, from SecretStorage.
      return [new vscode.McpHttpServerDefinition(TEAM_MCP_LABEL, vscode.Uri.parse(teamUrl.toString()), {}, `${this.deps.extensionVersion}+team.r${this.restartNonce}`)];
    }
    if (!settings.mcpEnabled || !fs.existsSync(this.deps.serverPath)) return [];
    // Settings travel as the server's own flags (none of them is a secret).
    const args = [
      this.deps.serverPath,
      '--catalog', settings.catalogPath,
      '--audit-path', settings.auditPath,
      '--events-path', settings.eventsPath,
      '--pii-block', settings.piiBlock.join(','),
      '--max-rows', String(settings.rowCap),
      '--statement-timeout-ms', String(settings.statementTimeoutMs),
    ];
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder?.uri.scheme === 'file') args.push('--workspace', folder.uri.fsPath);
    const def = new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, this.deps.nodePath, args, childEnv(settings), this.version());
    return [def];
  }

  async resolveMcpServerDefinition(def: vscode.McpServerDefinition): Promise<vscode.McpServerDefinition | undefined> {
    this.resolveCalls += 1;
    if (def instanceof vscode.McpHttpServerDefinition) {
      const token = await this.deps.team?.token();
      if (!token) {
        this.deps.log.warn('the team server has no token in secret storage; run SchemaBrain: Connect to Team Server');
        return undefined;
      }
      def.headers = { ...def.headers, Authorization: `Bearer ${token}` };
      this.deps.log.info(`MCP team server launch prepared (${def.uri.authority}; token from secret storage)`);
      return def;
    }
    this.channel?.dispose();
    const passwords = await this.deps.connections.passwords();
    this.channel = await createSecretChannel(passwords, { maxUses: 1, ttlMs: 120_000 });
    def.env = { ...def.env, ...this.channel.env };
    this.deps.log.info(`MCP server launch prepared (${passwords.size} stored credential(s) offered over a one-shot channel)`);
    return def;
  }

  /**
   * The version changes when the set of connections (names and fields, never secrets) changes or a restart was
   * asked for, so the editor offers to restart the server; catalog generations are picked up by the server itself.
   */
  private version(): string {
    const h = crypto.createHash('sha256').update(JSON.stringify(this.deps.connections.list())).digest('hex').slice(0, 8);
    return `${this.deps.extensionVersion}+c${h}.r${this.restartNonce}`;
  }

  dispose(): void {
    this.channel?.dispose();
    this.emitter.dispose();
  }
}

/** The names of the SchemaBrain tools the editor currently lists for agents (`mcp_schemabrain_…`). */
export function schemaBrainToolNames(): string[] {
  return vscode.lm.tools.filter((t) => /schemabrain/i.test(t.name)).map((t) => t.name);
}

/**
 * Waits until the editor has dropped the tools of the server offered before a switch (local ↔ team): the workbench
 * swaps servers a moment after the definitions change, and until then an agent's call would still reach the old
 * server. Resolves true when none of `previous` is listed any more, false after `timeoutMs`.
 */
export async function waitForServerSwap(previous: readonly string[], timeoutMs = 10_000): Promise<boolean> {
  if (previous.length === 0) return true;
  const old = new Set(previous);
  const deadline = Date.now() + timeoutMs;
  while (schemaBrainToolNames().some((n) => old.has(n))) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** The subset of `vscode.lm` we need; a parameter so tests can simulate an editor without the MCP API. */
export interface McpRegistrationApi {
  registerMcpServerDefinitionProvider?: (id: string, provider: vscode.McpServerDefinitionProvider) => vscode.Disposable;
}

export type McpRegistration =
  | { readonly registered: true; readonly provider: SchemaBrainMcpProvider }
  | { readonly registered: false; readonly message: string };

export const MCP_API_MISSING_MESSAGE =
  'SchemaBrain: this editor has no MCP server API (VS Code 1.101 or newer is needed), so Copilot agent mode cannot use SchemaBrain here. ' +
  'The schema views still work, and any MCP client can run the server with `schemabrain serve`.';

export function registerMcpProvider(
  context: vscode.ExtensionContext,
  lm: McpRegistrationApi | undefined,
  deps: McpProviderDeps,
): McpRegistration {
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function') {
    deps.log.warn(MCP_API_MISSING_MESSAGE);
    return { registered: false, message: MCP_API_MISSING_MESSAGE };
  }
  const provider = new SchemaBrainMcpProvider(deps);
  try {
    context.subscriptions.push(provider, lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
  } catch (e) {
    provider.dispose();
    const message = `SchemaBrain: registering the MCP server failed (${(e as Error).message}).`;
    deps.log.error(message);
    return { registered: false, message };
  }
  return { registered: true, provider };
}
