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
    const name = node ? qualifiedNameOf(node) : undefined;
    if (!name) return undefined;
    await vscode.env.clipboard.writeText(name);
    vscode.window.setStatusBarMessage(`Copied ${name}`, 2000);
    return name;
  });
  reg(COMMAND_IDS.describeTable, async (node?: ConnectionNode) => {
    if (!node || node.kind !== 'table') return undefined;
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: describeMarkdown(node) });
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc.getText();
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

function describeMarkdown(node: Extract<ConnectionNode, { kind: 'table' }>): string {
  const t = node.entry.table;
  const lines = [`# ${node.entry.qualifiedName}`, '', `*${t.kind.replace('_', ' ')}* in **${node.entry.source.name}** · ~${t.rowEstimate ?? '?'} rows`, ''];
  if (t.comment) lines.push(t.comment, '');
  lines.push('| column | type | null | key | PII | comment |', '| --- | --- | --- | --- | --- | --- |');
  for (const c of t.columns) {
    const key = t.primaryKey?.columns.includes(c.name) ? 'PK' : t.foreignKeys.some((f) => f.columns.includes(c.name)) ? 'FK' : '';
    lines.push(`| ${c.name} | ${c.dataType} | ${c.isNullable ? 'yes' : 'no'} | ${key} | ${c.pii?.categories.join(', ') ?? ''} | ${(c.comment ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
  }
  if (t.foreignKeys.length) {
    lines.push('', '## Foreign keys', '');
    for (const f of t.foreignKeys) lines.push(`- (${f.columns.join(', ')}) → ${f.targetSchema}.${f.targetTable} (${f.targetColumns.join(', ')})`);
  }
  return lines.join('\n') + '\n';
}
