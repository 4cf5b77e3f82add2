import * as vscode from 'vscode';
import type { Envelope } from '../../core/envelope';
import { WEBVIEW_TYPES } from '../constants';
import { runTableAction, type TableAction, type TableActionDeps, type TableActionOutcome } from '../results/table-actions';
import type { CellRange, TableData } from '../results/table-text';
import { scriptedPanelHtml } from './panel-html';

/** One Preview Rows run: what was asked and the run_query envelope, or why there is none. */
export interface ResultsRun {
  /** The relation previewed, `schema.table`. */
  readonly title: string;
  readonly source: string;
  readonly sql: string;
  /** Rows asked for (the statement's LIMIT). */
  readonly limit: number;
  /** The person's row cap the run was held to. */
  readonly rowCap: number;
  readonly envelope: Envelope<unknown> | null;
  readonly failure: { readonly kind: string; readonly message: string } | null;
  readonly ms: number | null;
}

/** What the page reports after drawing (tests read it; it proves the grid really rendered). */
export interface ResultsRendered {
  readonly title: string;
  readonly status: string;
  readonly rows: number;
  /** Header cells as shown: `name type`, with ` masked` after a masked column. */
  readonly headers: readonly string[];
  /** Columns marked as masked PII. */
  readonly masked: readonly string[];
  /** Cells drawn as NULL. */
  readonly nullCells: number;
  readonly problem: string | null;
  /** The note about rows cut at the row cap, when shown. */
  readonly capNote: string | null;
}

type FromWebview =
  | { readonly type: 'ready' }
  | ({ readonly type: 'rendered' } & ResultsRendered)
  | { readonly type: 'copy'; readonly range: CellRange | null }
  | { readonly type: 'exportCsv' };

interface RunData {
  readonly columns?: { name: string; type?: string }[];
  readonly rows?: unknown[][];
}

/** The rows of a run's envelope, when it has any. */
export function tableOf(env: Envelope<unknown> | null | undefined): TableData | undefined {
  const d = (env?.data ?? null) as RunData | null;
  return d && Array.isArray(d.columns) && Array.isArray(d.rows) ? { columns: d.columns, rows: d.rows } : undefined;
}

/**
 * The results grid of Preview Rows (one panel, reused): column headers with their types, NULL drawn apart from
 * empty text, masked PII columns marked, cells selectable (click, Shift+click, Ctrl+A) and copied as TSV (Ctrl+C or
 * Copy), and Export CSV through a save dialog. Strict CSP through the shared page builder; values set as text.
 */
export class ResultsPanel implements vscode.Disposable {
  private static current: ResultsPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private run: ResultsRun | undefined;
  private lastRendered: ResultsRendered | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<ResultsRendered>();
  private readonly actionEmitter = new vscode.EventEmitter<TableActionOutcome>();
  /** Fires each time the page has drawn a result. */
  readonly onDidRender = this.renderedEmitter.event;
  /** Fires after each Copy or Export CSV. */
  readonly onDidAct = this.actionEmitter.event;

  static get instance(): ResultsPanel | undefined {
    return ResultsPanel.current;
  }

  static show(extensionUri: vscode.Uri, deps: TableActionDeps, run: ResultsRun): ResultsPanel {
    if (!ResultsPanel.current) {
      const panel = vscode.window.createWebviewPanel(WEBVIEW_TYPES.results, `Rows: ${run.title}`, vscode.ViewColumn.Active, {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media', 'results')],
      });
      ResultsPanel.current = new ResultsPanel(panel, extensionUri, deps);
    }
    const p = ResultsPanel.current;
    p.panel.title = `Rows: ${run.title}`;
    p.panel.reveal(undefined, true);
    p.setRun(run);
    return p;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly deps: TableActionDeps,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'schemabrain.svg');
    panel.webview.html = scriptedPanelHtml(panel.webview, extensionUri, {
      mediaDir: 'results',
      css: 'results.css',
      js: 'results.js',
      title: 'SchemaBrain Rows',
      body: `<header>
  <h1 id="title">Loading…</h1>
  <span id="status" class="status" role="status" aria-live="polite"></span>
  <span id="meta" class="meta"></span>
</header>
<div id="masked" class="masked-note" hidden></div>
<div id="cap" class="cap-note" hidden></div>
<section id="problem" class="problem" role="alert" hidden></section>
<div class="actions" role="toolbar" aria-label="Rows">
  <button id="copy" type="button" title="Copy the selected cells, or every row with headers (Ctrl+C)">Copy</button>
  <button id="copyAll" type="button" title="Copy every row with the headers as tab-separated text">Copy All</button>
  <button id="exportCsv" type="button" title="Save every row as a CSV file">Export CSV</button>
  <span id="selection" class="meta" aria-live="polite"></span>
</div>
<div class="grid-wrap"><table id="grid" aria-label="Rows" tabindex="0"><thead></thead><tbody></tbody></table></div>
<div id="empty" class="empty" hidden>No rows.</div>`,
    });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: FromWebview) => void this.onMessage(m)),
      this.renderedEmitter,
      this.actionEmitter,
    );
  }

  get result(): ResultsRun | undefined {
    return this.run;
  }

  get rendered(): ResultsRendered | undefined {
    return this.lastRendered;
  }

  /** Selects cells in the grid as a click and Shift+click would. */
  select(range: CellRange | null): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'select', range });
  }

  /** Presses one of the page's buttons (copy, copyAll, exportCsv), as a person's click does. */
  press(button: 'copy' | 'copyAll' | 'exportCsv'): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'press', button });
  }

  private setRun(run: ResultsRun): void {
    this.run = run;
    this.lastRendered = undefined;
    if (this.ready) void this.post();
  }

  private post(): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'result', run: this.run });
  }

  private async onMessage(m: FromWebview): Promise<void> {
    if (m.type === 'ready') {
      this.ready = true;
      if (this.run) void this.post();
      return;
    }
    if (m.type === 'rendered') {
      const { type: _type, ...rendered } = m;
      this.lastRendered = rendered;
      this.renderedEmitter.fire(rendered);
      return;
    }
    const data = tableOf(this.run?.envelope);
    if (!data || !this.run) return;
    const action: TableAction = m.type === 'copy' ? { type: 'copy', range: m.range } : { type: 'exportCsv' };
    this.actionEmitter.fire(await runTableAction(this.deps, action, data, `${this.run.source}-${this.run.title}`));
  }

  dispose(): void {
    if (ResultsPanel.current === this) ResultsPanel.current = undefined;
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}
