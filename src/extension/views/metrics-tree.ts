import path from 'node:path';
import * as vscode from 'vscode';
import { markdownText } from '../ui-text';
import type { CatalogView } from '../../core/catalog/view';
import { semanticCatalog } from '../../core/semantic/catalog';
import { loadSemanticFolder, type LoadResult } from '../../core/semantic/load';
import type { DefinitionLocation, EntityDef, JoinDef, MetricDef, Trust } from '../../core/semantic/types';
import { openDefinitionCommand } from './definition-location';

export type MetricsNode =
  | { readonly kind: 'group'; readonly group: 'entities' | 'joins' | 'metrics' | 'problems'; readonly count: number }
  | { readonly kind: 'entity'; readonly def: EntityDef }
  | { readonly kind: 'join'; readonly def: JoinDef }
  | { readonly kind: 'metric'; readonly def: MetricDef }
  | { readonly kind: 'problem'; readonly text: string; readonly file: string; readonly line: number; readonly severity: string };

/** Entities, joins and metrics from `.schemabrain/*.yaml` in the workspace, with provenance and validation state. */
export class MetricsTreeProvider implements vscode.TreeDataProvider<MetricsNode> {
  private readonly emitter = new vscode.EventEmitter<MetricsNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private result: LoadResult | undefined;
  private readonly changed = new vscode.EventEmitter<boolean>();
  /** Fires with whether any definition exists (drives the welcome content's context key). */
  readonly onDidLoad = this.changed.event;

  /**
   * Re-reads `.schemabrain/` of the first workspace folder (or of `root`: the team server's published definitions),
   * validating names against the catalog when there is one.
   */
  async reload(view?: CatalogView, root?: string): Promise<LoadResult | undefined> {
    const folder = root ? { uri: vscode.Uri.file(root) } : vscode.workspace.workspaceFolders?.[0];
    const catalog = view && !view.isEmpty
      ? semanticCatalog(view.sources.map((s) => ({ source: s.name, tables: view.tablesOf(s.name).map((e) => e.table) })))
      : undefined;
    this.result = folder ? await loadSemanticFolder(path.join(folder.uri.fsPath, '.schemabrain'), catalog).catch(() => undefined) : undefined;
    this.emitter.fire(undefined);
    this.changed.fire(this.count() > 0);
    return this.result;
  }

  /** The last load of `.schemabrain/` (model and diagnostics), if any. */
  get loaded(): LoadResult | undefined {
    return this.result;
  }

  count(): number {
    const m = this.result?.model;
    return m ? m.entities.size + m.joins.size + m.metrics.size : 0;
  }

  getChildren(node?: MetricsNode): MetricsNode[] {
    const r = this.result;
    if (!r) return [];
    const m = r.model;
    if (!node) {
      if (this.count() === 0 && r.diagnostics.length === 0) return [];
      const groups: MetricsNode[] = [
        { kind: 'group', group: 'entities', count: m.entities.size },
        { kind: 'group', group: 'joins', count: m.joins.size },
        { kind: 'group', group: 'metrics', count: m.metrics.size },
      ];
      if (r.diagnostics.length) groups.push({ kind: 'group', group: 'problems', count: r.diagnostics.length });
      return groups;
    }
    if (node.kind !== 'group') return [];
    switch (node.group) {
      case 'entities':
        return [...m.entities.values()].map((def) => ({ kind: 'entity', def }));
      case 'joins':
        return [...m.joins.values()].map((def) => ({ kind: 'join', def }));
      case 'metrics':
        return [...m.metrics.values()].map((def) => ({ kind: 'metric', def }));
      case 'problems':
        return r.diagnostics.map((d) => ({ kind: 'problem', text: d.message, file: d.file, line: d.line, severity: d.severity }));
    }
  }

  getTreeItem(node: MetricsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const labels = { entities: 'Entities', joins: 'Joins', metrics: 'Metrics', problems: 'Problems' } as const;
        const item = new vscode.TreeItem(labels[node.group], node.count ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
        item.description = String(node.count);
        item.iconPath = new vscode.ThemeIcon(
          { entities: 'symbol-class', joins: 'git-merge', metrics: 'graph', problems: 'warning' }[node.group],
        );
        item.contextValue = `group.${node.group}`;
        return item;
      }
      case 'entity':
        return trustItem(node.def.name, node.def, `${node.def.table.schema}.${node.def.table.name}`, 'symbol-class', node.def.description, node.def.location);
      case 'join':
        return trustItem(node.def.name, node.def, `${node.def.from} → ${node.def.to} (${node.def.cardinality.replace(/_/g, ' ')})`, 'git-merge', node.def.description, node.def.location);
      case 'metric':
        return trustItem(node.def.name, node.def, `${node.def.measure.agg}(${node.def.measure.column ?? node.def.measure.expression ?? '*'}) of ${node.def.entity}`, 'graph', node.def.description, node.def.location, 'definition.metric');
      case 'problem': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.description = `${path.basename(node.file)}:${node.line}`;
        item.iconPath = new vscode.ThemeIcon(node.severity === 'error' ? 'error' : node.severity === 'warning' ? 'warning' : 'info');
        item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(node.file), { selection: new vscode.Range(node.line - 1, 0, node.line - 1, 0) }] };
        return item;
      }
    }
  }
}

function trustItem(name: string, t: Trust, detail: string, icon: string, description: string | null, location: DefinitionLocation | null, contextValue = 'definition'): vscode.TreeItem {
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.description = `${detail} · ${t.validationState}`;
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${markdownText(name)}**\n\n`);
  if (description) md.appendText(`${description}\n\n`);
  md.appendMarkdown(`Origin: ${markdownText(`${t.origin} · method: ${t.inferenceMethod}`)} · validation: **${markdownText(String(t.validationState))}**`);
  item.tooltip = md;
  const color = /invalid|failed|stale/.test(String(t.validationState)) ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined;
  item.iconPath = new vscode.ThemeIcon(icon, color);
  item.contextValue = contextValue;
  // A click opens the YAML file at the definition's name.
  item.command = openDefinitionCommand(location, name);
  return item;
}
