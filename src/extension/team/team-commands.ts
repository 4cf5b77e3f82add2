import * as vscode from 'vscode';
import type { Log } from '../log';
import { schemaBrainToolNames, waitForServerSwap } from '../mcp/provider';
import type { Notifier, Prompter } from '../prompter';
import { TEAM_COMMANDS, TeamError, normalizeTeamUrl, type TeamConnection, type WhoAmI } from './team-connection';

export type TeamCommandResult = { readonly ok: true; readonly whoami?: WhoAmI } | { readonly ok: false; readonly message: string };

export interface TeamCommandDeps {
  readonly team: TeamConnection;
  readonly prompter: () => Prompter;
  readonly notifier: Notifier;
  readonly log?: Log;
}

/** After the team connection changed, returns once agents no longer see the previous server's tools. */
async function settleServerSwap(previous: readonly string[], log: Log | undefined): Promise<void> {
  if (!(await waitForServerSwap(previous))) log?.warn('the editor still lists the previous SchemaBrain server\'s tools; agents may reach it until it stops');
}

/**
 * SchemaBrain: Connect to Team Server asks for the server URL (prefilled from `schemabrain.team.url`) and the
 * bearer token (a password box), checks the token against the server, and only then keeps it in SecretStorage.
 * Disconnect forgets both and returns to the local catalog and server.
 */
export function registerTeamCommands(context: vscode.ExtensionContext, deps: TeamCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(TEAM_COMMANDS.connect, async (): Promise<TeamCommandResult> => {
      const current = deps.team.url()?.toString();
      const url = await deps.prompter().input({
        title: 'Team server URL',
        prompt: 'The team server\'s MCP address, e.g. https://schemabrain.example.com/mcp',
        value: current ?? '',
        ignoreFocusOut: true,
        validateInput: (v) => {
          try {
            normalizeTeamUrl(v);
            return undefined;
          } catch (e) {
            return (e as Error).message;
          }
        },
      });
      if (!url) return { ok: false, message: 'cancelled' };
      const token = await deps.prompter().input({ title: 'Team server token', prompt: 'The bearer token from `schemabrain token create` (kept in the editor\'s secret storage)', password: true, ignoreFocusOut: true });
      if (!token) return { ok: false, message: 'cancelled' };
      try {
        // From the local server to the team server (a new token for the same server keeps the same tools).
        const previous = deps.team.active ? [] : schemaBrainToolNames();
        const who = await deps.team.connect(url, token);
        await settleServerSwap(previous, deps.log);
        deps.notifier.notify('info', `SchemaBrain: connected to the team server as ${who.principal} (${who.role}). Agents now use the team server's tools.`);
        return { ok: true, whoami: who };
      } catch (e) {
        const message = `SchemaBrain: ${e instanceof TeamError ? e.message : `connecting failed (${(e as Error).message})`}`;
        deps.notifier.notify('error', message);
        return { ok: false, message };
      }
    }),
    vscode.commands.registerCommand(TEAM_COMMANDS.disconnect, async (): Promise<TeamCommandResult> => {
      const previous = deps.team.active ? schemaBrainToolNames() : [];
      await deps.team.disconnect();
      await settleServerSwap(previous, deps.log);
      deps.notifier.notify('info', 'SchemaBrain: disconnected from the team server; using the local catalog and server.');
      return { ok: true };
    }),
  );
}
