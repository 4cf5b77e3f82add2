import * as vscode from 'vscode';
import type { CatalogState } from '../../core/catalog/provider';
import type { TableEntry } from '../../core/catalog/view';
import type { ColumnInfo, SourceInfo, SourcePrivileges } from '../../core/catalog/model';
import { formatName } from '../../core/catalog/names';
import { engineLabel } from '../connections/engines';
import type { ConnectionConfig } from '../connections/model';
import type { IndexFailure } from '../indexing/index-controller';
import { describeConnection } from '../connections/model';
import { codeSpan, formatAge, formatCount, plural } from '../format';
import { markdownText } from '../ui-text';

export type ConnectionNode =
  | { readonly kind: 'source'; readonly name: string; readonly config?: ConnectionConfig; readonly source?: SourceInfo }
  | { readonly kind: 'schema'; readonly sourceName: string; readonly schema: string; readonly tables: readonly TableEntry[] }
  | { readonly kind: 'table'; readonly entry: TableEntry }
  | { readonly kind: 'column'; readonly entry: TableEntry; readonly column: ColumnInfo }
  | { readonly kind: 'message'; readonly text: string; readonly tooltip?: string };

export interface ConnectionsTreeDeps {
  readonly connections: () => readonly ConnectionConfig[];
  readonly catalog: () => CatalogState | undefined;
  /** Name of the connection being indexed, if any, and its last progress text. */
  readonly indexing: () => ReadonlyMap<string, string>;
  /** Connections whose last index failed, and why. */
  readonly failures: () => ReadonlyMap<string, IndexFailure>;
}

/** Connections → schema → table/view → column, from the settings (connections) and the catalog (everything else). */
export class ConnectionsTreeProvider implements vscode.TreeDataProvider<ConnectionNode> {
  private readonly emitter = new vscode.EventEmitter<ConnectionNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly deps: ConnectionsTreeDeps) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: ConnectionNode): ConnectionNode[] {
    const state = this.deps.catalog();
    const view = state?.state === 'ready' ? state.view : undefined;
    if (!node) {
      const configs = this.deps.connections();
      const names = new Set(configs.map((c) => c.name));
      const roots: ConnectionNode[] = configs.map((c) => ({ kind: 'source', name: c.name, config: c, source: view?.sourceByName(c.name) }));
      // Sources indexed outside the editor (CLI) still show, without edit actions.
      for (const s of view?.sources ?? []) if (!names.has(s.name)) roots.push({ kind: 'source', name: s.name, source: s });
      if (state?.state === 'unreadable') roots.push({ kind: 'message', text: 'Catalog unreadable', tooltip: `${state.reason}. Re-index a connection to rebuild it.` });
      return roots;
    }
    switch (node.kind) {
      case 'source': {
        if (!view || !node.source) {
          const msg = this.deps.indexing().get(node.name);
          const failure = this.deps.failures().get(node.name);
          if (!msg && failure) return [{ kind: 'message', text: `Index failed: ${failure.message}`, tooltip: `${failure.kind}. Next: ${failure.nextStep}` }];
          return [{ kind: 'message', text: msg ? `Indexing… ${msg}` : 'Not indexed yet — use Index Connection' }];
        }
        const bySchema = new Map<string, TableEntry[]>();
        for (const e of view.tablesOf(node.name)) {
          const list = bySchema.get(e.table.schema) ?? [];
          list.push(e);
          bySchema.set(e.table.schema, list);
        }
        if (bySchema.size === 0) return [{ kind: 'message', text: 'No tables found' }];
        return [...bySchema.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([schema, tables]) => ({ kind: 'schema', sourceName: node.name, schema, tables }));
      }
      case 'schema':
        return [...node.tables].sort((a, b) => a.table.name.localeCompare(b.table.name)).map((entry) => ({ kind: 'table', entry }));
      case 'table':
        return [...node.entry.table.columns].sort((a, b) => a.ordinal - b.ordinal).map((column) => ({ kind: 'column', entry: node.entry, column }));
      default:
        return [];
    }
  }

  /** The indexing role's privilege record of a source, when the catalog has one. */
  private privilegesOf(source: SourceInfo | undefined): SourcePrivileges | undefined {
    const state = this.deps.catalog();
    return source && state?.state === 'ready' ? state.view.privileges.get(source.id) : undefined;
  }

  getTreeItem(node: ConnectionNode): vscode.TreeItem {
    switch (node.kind) {
      case 'source':
        return sourceItem(node, this.deps.indexing().get(node.name), this.deps.failures().get(node.name), this.privilegesOf(node.source));
      case 'schema': {
        const item = new vscode.TreeItem(node.schema, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `schema:${node.sourceName}:${node.schema}`;
        item.description = `${node.tables.length} relations`;
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.contextValue = 'schema';
        return item;
      }
      case 'table': {
        const p = this.privilegesOf(node.entry.source);
        return tableItem(node.entry, p?.unreadable?.includes(`${node.entry.table.schema}.${node.entry.table.name}`) ? p.role : undefined);
      }
      case 'column':
        return columnItem(node.entry, node.column);
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.tooltip = node.tooltip;
        item.iconPath = new vscode.ThemeIcon('info');
        item.contextValue = 'message';
        return item;
      }
    }
  }

  getParent(): undefined {
    return undefined;
  }
}

/** Names listed in a tooltip before "and N more". */
const UNREADABLE_LISTED = 10;

function sourceItem(node: Extract<ConnectionNode, { kind: 'source' }>, progress: string | undefined, failure: IndexFailure | undefined, privileges: SourcePrivileges | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `source:${node.name}`;
  const engine = node.config?.engine ?? node.source?.engine ?? '?';
  const parts = [engineLabel(engine)];
  const failed = progress === undefined && failure !== undefined;
  if (progress !== undefined) parts.push(`indexing ${progress}`);
  else if (node.source) parts.push(plural(node.source.tableCount, 'table'), `indexed ${formatAge(node.source.indexedAt)}`);
  else if (!failed) parts.push('not indexed');
  if (failed) parts.push('last index failed');
  // Tables the indexing role cannot read: in the tree, but their rows, samples and agent queries fail.
  const unreadable = progress === undefined && !failed && node.source ? (privileges?.unreadable ?? []) : [];
  if (unreadable.length) parts.push(`${plural(unreadable.length, 'table')} not readable`);
  item.description = parts.join(' · ');
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${markdownText(node.name)}** — ${markdownText(parts[0]!)}\n\n`);
  if (node.config) md.appendMarkdown(`${codeSpan(describeConnection(node.config))}\n\n`);
  if (failed) {
    md.appendMarkdown(`$(error) **Last index failed** ${markdownText(formatAge(failure.at))} (${codeSpan(failure.kind)}): ${markdownText(failure.message)}\n\n`);
    md.appendMarkdown(`Next: ${markdownText(failure.nextStep)}\n\n`);
  }
  if (node.source) {
    md.appendMarkdown(`${plural(node.source.tableCount, 'table')}, ${plural(node.source.columnCount, 'column')}`);
    if (node.source.serverVersion) md.appendMarkdown(` · server ${markdownText(node.source.serverVersion)}`);
    md.appendMarkdown(`\n\nIndexed ${markdownText(node.source.indexedAt)}`);
  } else if (!failed) md.appendMarkdown('Not indexed yet.');
  if (unreadable.length && privileges) {
    const listed = unreadable.slice(0, UNREADABLE_LISTED).map(codeSpan).join(', ');
    const more = unreadable.length > UNREADABLE_LISTED ? ` and ${unreadable.length - UNREADABLE_LISTED} more` : '';
    md.appendMarkdown(`\n\n$(warning) **The role ${codeSpan(privileges.role)} cannot read ${plural(unreadable.length, 'table')}**: ${listed}${more}. `);
    md.appendMarkdown('Their columns are listed, but Preview Rows, profiles, metrics and agent queries on them fail, and they have no samples. ');
    md.appendMarkdown(`Grant SELECT (and USAGE on the schema) to ${codeSpan(privileges.role)}, or run ${codeSpan('schemabrain role-sql')} for a read-only role, then re-index.`);
  }
  if (!node.config) md.appendMarkdown('\n\n_Indexed outside the editor (not in your connections)._');
  item.tooltip = md;
  item.iconPath =
    progress !== undefined
      ? new vscode.ThemeIcon('loading~spin')
      : failed
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
        : unreadable.length
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
          : new vscode.ThemeIcon(node.source ? 'database' : 'circle-large-outline');
  item.contextValue = node.config ? (failed ? 'source.failed' : 'source') : 'sourceExternal';
  return item;
}

function tableItem(entry: TableEntry, unreadableBy: string | undefined): vscode.TreeItem {
  const t = entry.table;
  const item = new vscode.TreeItem(t.name, t.columns.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `table:${entry.key}`;
  const isView = t.kind === 'view' || t.kind === 'materialized_view';
  const desc: string[] = [];
  if (t.kind !== 'table') desc.push(t.kind.replace('_', ' '));
  if (t.rowEstimate !== null && t.rowEstimate >= 0) desc.push(`~${formatCount(t.rowEstimate)} rows`);
  if (unreadableBy !== undefined) desc.unshift('not readable');
  if (t.comment) desc.push(firstLine(t.comment));
  item.description = desc.join(' · ');
  item.tooltip = tableTooltip(entry);
  if (unreadableBy !== undefined) {
    item.tooltip.appendMarkdown(`$(warning) **Not readable by ${codeSpan(unreadableBy)}**: no SELECT on it (or no USAGE on its schema). Preview Rows, profiles and agent queries on it fail until it is granted.\n\n`);
  }
  item.iconPath =
    unreadableBy !== undefined
      ? new vscode.ThemeIcon('lock', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(isView ? 'eye' : t.kind === 'partitioned_table' ? 'layers' : 'table');
  item.contextValue = isView ? 'view' : 'table';
  return item;
}

function tableTooltip(entry: TableEntry): vscode.MarkdownString {
  const t = entry.table;
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${markdownText(entry.qualifiedName)}** (${markdownText(t.kind.replace('_', ' '))})\n\n`);
  if (t.comment) md.appendMarkdown(`${markdownText(t.comment)}\n\n`);
  md.appendMarkdown(`${plural(t.columns.length, 'column')}${t.rowEstimate !== null && t.rowEstimate >= 0 ? ` · ~${formatCount(t.rowEstimate)} rows` : ''}\n\n`);
  if (t.primaryKey) md.appendMarkdown(`Primary key: ${codeSpan(t.primaryKey.columns.join(', '))}\n\n`);
  for (const fk of t.foreignKeys.slice(0, 10)) {
    md.appendMarkdown(`FK ${codeSpan(fk.columns.join(', '))} → ${codeSpan(`${formatName(fk.targetSchema, fk.targetTable)}(${fk.targetColumns.join(', ')})`)}\n\n`);
  }
  if (t.foreignKeys.length > 10) md.appendMarkdown(`… and ${t.foreignKeys.length - 10} more foreign keys\n\n`);
  return md;
}

function columnItem(entry: TableEntry, c: ColumnInfo): vscode.TreeItem {
  const t = entry.table;
  const item = new vscode.TreeItem(c.name, vscode.TreeItemCollapsibleState.None);
  item.id = `column:${entry.key}.${c.name}`;
  const isPk = t.primaryKey?.columns.includes(c.name) ?? false;
  const fk = t.foreignKeys.find((f) => f.columns.includes(c.name));
  const desc = [c.dataType];
  if (isPk) desc.push('PK');
  if (fk) desc.push(`FK → ${formatName(fk.targetTable)}`);
  if (!c.isNullable) desc.push('not null');
  if (c.pii) desc.push(`PII: ${c.pii.categories.join(', ')}`);
  if (c.comment) desc.push(firstLine(c.comment));
  item.description = desc.join(' · ');
  item.tooltip = columnTooltip(entry, c, isPk, fk ? `${formatName(fk.targetSchema, fk.targetTable)}(${fk.targetColumns.join(', ')})` : undefined);
  item.iconPath = new vscode.ThemeIcon(
    c.pii ? 'shield' : isPk ? 'key' : fk ? 'references' : 'symbol-field',
    c.pii ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined,
  );
  item.contextValue = c.pii ? 'column.pii' : 'column';
  return item;
}

function columnTooltip(entry: TableEntry, c: ColumnInfo, isPk: boolean, fkTarget: string | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${markdownText(entry.qualifiedName)}.${markdownText(c.name)}** ${codeSpan(c.dataType)}${c.isNullable ? '' : ' not null'}\n\n`);
  if (c.comment) md.appendMarkdown(`${markdownText(c.comment)}\n\n`);
  if (isPk) md.appendMarkdown('Primary key\n\n');
  if (fkTarget) md.appendMarkdown(`References ${codeSpan(fkTarget)}\n\n`);
  if (c.defaultExpr) md.appendMarkdown(`Default ${codeSpan(c.defaultExpr)}\n\n`);
  if (c.enumLabels?.length) md.appendMarkdown(`Values: ${c.enumLabels.map(codeSpan).join(', ')}\n\n`);
  if (c.pii) md.appendMarkdown(`PII: **${markdownText(c.pii.categories.join(', '))}** (${markdownText(`${c.pii.sensitivity}, ${c.pii.origin}, confidence ${Number(c.pii.confidence).toFixed(2)}`)})\n\n`);
  if (c.stats) {
    const s = c.stats;
    const bits: string[] = [];
    if (s.nullFraction !== null) bits.push(`${(s.nullFraction * 100).toFixed(1)}% null`);
    if (s.distinctEstimate !== null) bits.push(`~${formatCount(s.distinctEstimate)} distinct`);
    if (bits.length) md.appendMarkdown(`${markdownText(`${bits.join(' · ')} (${s.origin})`)}\n\n`);
  }
  return md;
}

function firstLine(s: string): string {
  const l = s.split('\n')[0] ?? '';
  return l.length > 60 ? `${l.slice(0, 57)}…` : l;
}


/** Qualified name of a tree node (for Copy Qualified Name), or undefined for nodes without one. */
export function qualifiedNameOf(node: ConnectionNode): string | undefined {
  if (node.kind === 'table') return node.entry.qualifiedName;
  if (node.kind === 'column') return `${node.entry.qualifiedName}.${formatName(node.column.name)}`;
  if (node.kind === 'schema') return formatName(node.schema);
  return undefined;
}
