import * as vscode from 'vscode';
import { markdownText } from '../ui-text';
import type { AuditRecord } from '../../core/audit/record';
import type { AuditHead } from '../../core/audit/record';
import { describeVerification, type AuditPage, type AuditQuery, type VerificationState } from '../audit/audit-service';
import { COMMAND_IDS } from '../constants';

export type AuditNode = { readonly kind: 'verification' } | { readonly kind: 'row'; readonly row: AuditRecord } | { readonly kind: 'more'; readonly count: number };

const STATUS_ICON: Record<string, [string, string | undefined]> = {
  success: ['pass', 'testing.iconPassed'],
  empty: ['circle-outline', undefined],
  partial: ['warning', 'problemsWarningIcon.foreground'],
  degraded: ['warning', 'problemsWarningIcon.foreground'],
  error: ['error', 'problemsErrorIcon.foreground'],
  refused: ['circle-slash', 'problemsErrorIcon.foreground'],
};

/** Where the rows come from: the local audit log (AuditService), or a team server's store while connected. */
export interface AuditTreeSource {
  list(q: AuditQuery): Promise<AuditPage>;
  readonly verification: VerificationState;
  head(): AuditHead | undefined;
}

/** Newest tool calls first, under the chain verification state. */
export class AuditTreeProvider implements vscode.TreeDataProvider<AuditNode> {
  private readonly emitter = new vscode.EventEmitter<AuditNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  static readonly LIMIT = 50;

  constructor(private readonly audit: AuditTreeSource) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  async getChildren(node?: AuditNode): Promise<AuditNode[]> {
    if (node) return [];
    const page = await this.audit.list({ page: 0, pageSize: AuditTreeProvider.LIMIT }).catch(() => undefined);
    const rows: AuditNode[] = (page?.rows ?? []).map((row) => ({ kind: 'row', row }));
    if (rows.length === 0 && this.audit.verification.state === 'unverified' && this.audit.head() === undefined) return [];
    const out: AuditNode[] = [{ kind: 'verification' }, ...rows];
    if (page?.hasMore) out.push({ kind: 'more', count: AuditTreeProvider.LIMIT });
    return out;
  }

  getTreeItem(node: AuditNode): vscode.TreeItem {
    if (node.kind === 'verification') {
      const v = this.audit.verification;
      const item = new vscode.TreeItem(describeVerification(v), vscode.TreeItemCollapsibleState.None);
      item.iconPath =
        v.state === 'ok'
          ? new vscode.ThemeIcon('verified-filled', new vscode.ThemeColor('testing.iconPassed'))
          : v.state === 'broken' || v.state === 'error'
            ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
            : new vscode.ThemeIcon('unverified');
      item.command = { command: COMMAND_IDS.verifyAudit, title: 'Verify' };
      item.tooltip = 'Click to verify the hash chain now';
      item.contextValue = `verification.${v.state}`;
      return item;
    }
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(`Showing the newest ${node.count}; open the audit panel for all`, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: COMMAND_IDS.openAuditPanel, title: 'Open Audit Panel' };
      return item;
    }
    const r = node.row;
    const item = new vscode.TreeItem(r.tool, vscode.TreeItemCollapsibleState.None);
    item.id = `audit:${r.seq}`;
    // Rows from a team store name who made the call.
    const principal = (r as { principal?: string | null }).principal;
    item.description = `${r.status}${r.errorKind ? ` (${r.errorKind})` : ''} · ${Math.round(r.durationMs)} ms · ${r.time.slice(11, 19)}${principal ? ` · ${principal.split('/')[0]}` : ''}`;
    const [icon, color] = STATUS_ICON[r.status] ?? ['circle-outline', undefined];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**#${r.seq} ${markdownText(r.tool)}** — ${markdownText(`${r.status}${r.errorKind ? ` / ${r.errorKind}` : ''}`)}\n\n`);
    md.appendText(`${r.time} · ${r.durationMs.toFixed(1)} ms · client ${r.clientName ?? '?'} ${r.clientVersion ?? ''}\n`);
    if (r.piiCategories.length) md.appendText(`PII touched: ${r.piiCategories.join(', ')}\n`);
    if (r.rowCount !== null) md.appendText(`rows ${r.rowCount}${r.truncated ? ' (truncated)' : ''}\n`);
    md.appendText(`hash ${r.hash.slice(0, 16)}…`);
    item.tooltip = md;
    item.contextValue = 'auditRow';
    item.command = { command: COMMAND_IDS.openAuditPanel, title: 'Open Audit Panel', arguments: [{ seq: r.seq }] };
    return item;
  }
}
