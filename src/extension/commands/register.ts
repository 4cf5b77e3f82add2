import * as vscode from 'vscode';
import type { AuditService } from '../audit/audit-service';
import { describeVerification } from '../audit/audit-service';
import { COMMAND_IDS } from '../constants';
import type { IndexController, IndexOptions } from '../indexing/index-controller';
import type { SchemaBrainMcpProvider } from '../mcp/provider';
import { MCP_SERVER_DEFINITION_ID } from '../mcp/provider';
import type { Log } from '../log';
import type { Notifier } from '../prompter';
import type { TailChannel } from '../tail/tail-channel';
import { qualifiedNameOf, type ConnectionNode } from '../views/connections-tree';
import { AuditPanel } from '../webviews/audit-panel';
import { describeUri } from '../views/describe-provider';
import type { CatalogView } from '../../core/catalog/view';
import { addConnection, editConnection, removeConnection, type ConnectionArgs, type ConnectionCommandDeps } from './connection-commands';

export interface CommandDeps extends ConnectionCommandDeps {
  readonly extensionUri: vscode.Uri;
  readonly indexer: IndexController;
  readonly audit: AuditService;
  readonly tail: TailChannel;
  readonly notifier: Notifier;
  readonly mcp: () => SchemaBrainMcpProvider | undefined;
  readonly mcpUnavailableMessage: () => string | undefined;
  readonly refresh: () => Promise<void>;
  readonly log: Log;
  /** The catalog as loaded now (undefined before the first index). */
  readonly catalogView: () => CatalogView | undefined;
}

type NameTarget = string | { name: string } | ConnectionNode | undefined;

function targetName(t: NameTarget): string | undefined {
  if (!t) return undefined;
  if (typeof t === 'string') return t;
  if ('kind' in t) return t.kind === 'source' ? t.name : undefined;
  return t.name;
}

/** Registers every command; each returns a value so callers (walkthrough links, tests) can see the outcome. */
export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = (id: string, fn: (...args: never[]) => unknown): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));
  };

  reg(COMMAND_IDS.addConnection, (args?: ConnectionArgs) => addConnection(deps, args));
  reg(COMMAND_IDS.editConnection, (target?: NameTarget, args?: Partial<ConnectionArgs>) => editConnection(deps, targetName(target), args));
  reg(COMMAND_IDS.removeConnection, (target?: NameTarget, opts?: { confirmed?: boolean }) => removeConnection(deps, targetName(target), opts?.confirmed ?? false));

  reg(COMMAND_IDS.indexConnection, async (target?: NameTarget, opts?: IndexOptions) => {
    let name = targetName(target);
    deps.log.info(`index command: target ${target === undefined ? 'none' : typeof target}, connections ${deps.store.list().length}`);
    if (!name) {
      const items = deps.store.list().map((c) => ({ label: c.name, description: c.engine }));
      if (!items.length) {
        deps.notifier.notify('info', 'SchemaBrain: no connections to index yet. Use SchemaBrain: Add Connection.');
        return undefined;
      }
      name = items.length === 1 ? items[0]!.label : (await deps.prompter().pick(items, { title: 'SchemaBrain: index which connection?', ignoreFocusOut: true }))?.label;
    }
    return name ? deps.indexer.index(name, opts) : undefined;
  });
  reg(COMMAND_IDS.reindexAll, (opts?: IndexOptions) => deps.indexer.indexAll(opts));
  reg(COMMAND_IDS.refresh, () => deps.refresh());
  reg(COMMAND_IDS.showTail, () => {
    deps.tail.show();
    return deps.tail.text();
  });
  reg(COMMAND_IDS.openAuditPanel, (arg?: { seq?: number }) => {
    AuditPanel.show(deps.extensionUri, deps.audit, arg?.seq);
    return true;
  });
  reg(COMMAND_IDS.verifyAudit, async () => {
    const v = await deps.audit.verify();
    deps.notifier.notify(v.state === 'broken' || v.state === 'error' ? 'error' : 'info', `SchemaBrain: ${describeVerification(v)}`);
    return v;
  });
  reg(COMMAND_IDS.copyQualifiedName, async (node?: ConnectionNode) => {
    const target = node ?? (await pickTableNode(deps, 'copy the name of which table?'));
    const name = target ? qualifiedNameOf(target) : undefined;
    if (!name) return undefined;
    await vscode.env.clipboard.writeText(name);
    vscode.window.setStatusBarMessage(`Copied ${name}`, 2000);
    return name;
  });
  reg(COMMAND_IDS.describeTable, async (node?: ConnectionNode) => {
    const target = node?.kind === 'column' ? ({ kind: 'table', entry: node.entry } as const) : node ?? (await pickTableNode(deps, 'describe which table?'));
    if (!target || target.kind !== 'table') return undefined;
    const t = target.entry;
    const doc = await vscode.workspace.openTextDocument(describeUri(t.source.name, t.table.schema, t.table.name));
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc.getText();
  });
  reg(COMMAND_IDS.askAgent, async (opts?: { openChat?: boolean }) => {
    const provider = deps.mcp();
    if (!provider) {
      deps.notifier.notify('warning', deps.mcpUnavailableMessage() ?? 'SchemaBrain: the MCP server is not registered.');
      return { tools: [], chatOpened: false };
    }
    // Start the server and wait for its tools (the workbench can learn about the provider a moment late: retry).
    const ours = (): string[] => vscode.lm.tools.filter((t) => /schemabrain/i.test(t.name)).map((t) => t.name);
    for (let i = 0; i < 10 && ours().length === 0; i++) {
      try {
        await vscode.commands.executeCommand('workbench.mcp.startServer', MCP_SERVER_DEFINITION_ID, { waitForLiveTools: true });
      } catch (e) {
        deps.log.warn(`starting the MCP server: ${(e as Error).message}`);
      }
      if (ours().length === 0) await new Promise((r) => setTimeout(r, 1000));
    }
    const tools = ours();
    deps.log.info(`ask the agent: ${tools.length} SchemaBrain tools live`);
    let chatOpened = false;
    if (opts?.openChat !== false) {
      try {
        // Agent mode, the sample question typed in but not sent: the person reads it, edits it, presses Enter.
        await vscode.commands.executeCommand('workbench.action.chat.open', { query: SAMPLE_QUESTION, mode: 'agent', isPartialQuery: true });
        chatOpened = true;
      } catch (e) {
        deps.log.warn(`opening the chat: ${(e as Error).message}`);
      }
    }
    deps.notifier.notify(
      'info',
      tools.length
        ? `SchemaBrain: ${tools.length} tools are live for the agent. In the chat, "Configure Tools…" lists them under SchemaBrain.`
        : 'SchemaBrain: the MCP server did not start; MCP: List Servers shows why.',
      tools.length ? ['Configure Tools'] : [],
      (c) => void (c === 'Configure Tools' ? vscode.commands.executeCommand('workbench.action.chat.configureTools').then(undefined, () => undefined) : undefined),
    );
    return { tools, chatOpened, question: SAMPLE_QUESTION };
  });
  reg(COMMAND_IDS.restartMcpServer, async () => {
    const provider = deps.mcp();
    if (!provider) {
      deps.notifier.notify('warning', deps.mcpUnavailableMessage() ?? 'SchemaBrain: the MCP server is not registered.');
      return false;
    }
    provider.bumpVersion();
    try {
      await vscode.commands.executeCommand('workbench.mcp.restartServer', MCP_SERVER_DEFINITION_ID, { autoTrustChanges: true });
    } catch {
      // Older editors name the command differently; the version bump alone makes them offer a restart.
    }
    return true;
  });
}

/** The question the walkthrough puts in the chat: answerable from any indexed schema with the catalog tools. */
export const SAMPLE_QUESTION = 'Using the SchemaBrain tools: which indexed tables hold customers and their orders, and how do they join?';

/** A table chosen from every indexed table (palette use of table commands: no tree node at hand). */
async function pickTableNode(deps: CommandDeps, title: string): Promise<ConnectionNode | undefined> {
  const view = deps.catalogView();
  const entries = view?.tablesOf() ?? [];
  if (!entries.length) {
    deps.notifier.notify('info', 'SchemaBrain: nothing is indexed yet. Add a connection and use Index Connection first.');
    return undefined;
  }
  const items = entries.map((e) => ({ label: e.qualifiedName, description: `${e.source.name}${e.table.kind === 'table' ? '' : ` · ${e.table.kind.replace('_', ' ')}`}`, entry: e }));
  const pick = await deps.prompter().pick(items, { title: `SchemaBrain: ${title}`, matchOnDescription: true, ignoreFocusOut: true });
  return pick ? { kind: 'table', entry: pick.entry } : undefined;
}
