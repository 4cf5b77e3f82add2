import * as vscode from 'vscode';
import type { CatalogState } from '../core/catalog/provider';
import { COMMAND_IDS, VIEW_IDS } from './constants';
import { formatAge, plural } from './format';

/** Catalog freshness, or indexing progress while an index runs. */
export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private catalog: CatalogState | undefined;
  private progress: string | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.item = vscode.window.createStatusBarItem('schemabrain.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'SchemaBrain';
    this.item.command = `${VIEW_IDS.connections}.focus`;
    this.render();
    this.item.show();
    // Keeps "indexed N min ago" honest without a catalog event.
    this.timer = setInterval(() => this.render(), 60_000);
    this.timer.unref?.();
  }

  setCatalog(state: CatalogState): void {
    this.catalog = state;
    this.render();
  }

  setProgress(text: string | undefined): void {
    this.progress = text;
    this.render();
  }

  private render(): void {
    if (this.progress !== undefined) {
      this.item.text = `$(sync~spin) SchemaBrain: ${this.progress}`;
      this.item.tooltip = 'Indexing; click to see the connections';
      this.item.backgroundColor = undefined;
      return;
    }
    const s = this.catalog;
    if (!s || s.state === 'missing') {
      this.item.text = '$(database) SchemaBrain: not indexed';
      this.item.tooltip = new vscode.MarkdownString(`No catalog yet. [Add a connection](command:${COMMAND_IDS.addConnection}) and index it.`, true);
      this.item.tooltip.isTrusted = { enabledCommands: [COMMAND_IDS.addConnection] };
      this.item.backgroundColor = undefined;
    } else if (s.state === 'unreadable') {
      this.item.text = '$(warning) SchemaBrain: catalog unreadable';
      this.item.tooltip = `${s.reason}. Re-index a connection to rebuild it.`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      const v = s.view;
      const newest = v.sources.map((x) => x.indexedAt).sort().at(-1) ?? null;
      const tables = v.sources.reduce((n, x) => n + x.tableCount, 0);
      this.item.text = `$(database) SchemaBrain: ${v.sources.length} source${v.sources.length === 1 ? '' : 's'} · ${formatAge(newest)}`;
      this.item.tooltip = `${plural(v.sources.length, 'source')}, ${plural(tables, 'table')}, catalog generation ${v.generation}. Newest index ${newest ?? 'never'}.`;
      this.item.backgroundColor = undefined;
    }
  }

  text(): string {
    return this.item.text;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.item.dispose();
  }
}
