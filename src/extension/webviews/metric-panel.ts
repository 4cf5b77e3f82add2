import * as vscode from 'vscode';
import { scriptedPanelHtml } from './panel-html';
import type { Envelope } from '../../core/envelope';
import { WEBVIEW_TYPES } from '../constants';
import { runTableAction, type TableActionDeps, type TableActionOutcome } from '../results/table-actions';
import type { CellRange } from '../results/table-text';
import { tableOf } from './results-panel';

/** What one Run Metric produced: the request as asked, and the CLI's envelope or why there is none. */
export interface MetricRun {
  readonly metric: string;
  readonly groupBy: readonly string[];
  readonly grain: string | null;
  readonly envelope: Envelope<unknown> | null;
  /** The CLI could not answer at all (spawn failure, crash, timeout). */
  readonly failure: { readonly kind: string; readonly message: string } | null;
  readonly ms: number | null;
}

/** What the webview reports after drawing a result (tests read it; it proves the page really rendered). */
export interface MetricRendered {
  readonly metric: string;
  readonly status: string;
  /** Table body rows drawn. */
  readonly rows: number;
  readonly chart: 'bar' | 'line' | 'none';
  /** Bars or points drawn in the chart. */
  readonly marks: number;
  /** Text of the refusal/error box, when one is shown. */
  readonly problem: string | null;
  readonly sqlShown: boolean;
}

type FromWebview =
  | { readonly type: 'ready' }
  | ({ readonly type: 'rendered' } & MetricRendered)
  | { readonly type: 'copy'; readonly range: CellRange | null }
  | { readonly type: 'exportCsv' };

/**
 * One panel for metric results (reused by each run): status, degradation and refusal first, then a chart and the
 * rows, and the compiled SQL with its bound parameters behind a toggle. Strict CSP: scripts only with this load's
 * nonce, styles only from media/metric; the chart is SVG drawn by the page's own script, values set as text.
 */
export class MetricPanel implements vscode.Disposable {
  private static current: MetricPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private run: MetricRun | undefined;
  private lastRendered: MetricRendered | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<MetricRendered>();
  /** Fires each time the page has drawn a result. */
  readonly onDidRender = this.renderedEmitter.event;
  private readonly actionEmitter = new vscode.EventEmitter<TableActionOutcome>();
  /** Fires after each Copy or Export CSV of the rows. */
  readonly onDidAct = this.actionEmitter.event;

  static get instance(): MetricPanel | undefined {
    return MetricPanel.current;
  }

  static show(extensionUri: vscode.Uri, run: MetricRun, deps: TableActionDeps): MetricPanel {
    if (!MetricPanel.current) {
      const panel = vscode.window.createWebviewPanel(WEBVIEW_TYPES.metric, `Metric: ${run.metric}`, vscode.ViewColumn.Active, {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media', 'metric')],
      });
      MetricPanel.current = new MetricPanel(panel, extensionUri, deps);
    }
    const p = MetricPanel.current;
    p.panel.title = `Metric: ${run.metric}`;
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
    panel.webview.html = this.html(panel.webview, extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m)),
      this.renderedEmitter,
      this.actionEmitter,
    );
  }

  /** The run shown now. */
  get result(): MetricRun | undefined {
    return this.run;
  }

  /** What the page last drew (undefined until it has drawn the current run). */
  get rendered(): MetricRendered | undefined {
    return this.lastRendered;
  }

  /** Toggles the SQL section as the "Show SQL" button does. */
  toggleSql(): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'toggleSql' });
  }

  /** Presses the rows' Copy or Export CSV button, as a person's click does. */
  press(button: 'copyRows' | 'exportCsv'): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'press', button });
  }

  /** Selects cells of the rows table as a click and Shift+click would. */
  select(range: CellRange | null): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'select', range });
  }

  private setRun(run: MetricRun): void {
    this.run = run;
    this.lastRendered = undefined;
    if (this.ready) void this.post();
  }

  private post(): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'result', run: this.run });
  }

  private onMessage(m: FromWebview): void {
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
    const action = m.type === 'copy' ? ({ type: 'copy', range: m.range } as const) : ({ type: 'exportCsv' } as const);
    void runTableAction(this.deps, action, data, `metric-${this.run.metric}`).then((o) => this.actionEmitter.fire(o));
  }

  private html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
    return scriptedPanelHtml(webview, extensionUri, {
      mediaDir: 'metric',
      css: 'metric.css',
      js: 'metric.js',
      title: 'SchemaBrain Metric',
      body: `<header>
  <h1 id="title">Running…</h1>
  <span id="status" class="status" role="status" aria-live="polite"></span>
  <span id="meta" class="meta"></span>
</header>
<div id="degraded" class="degraded" hidden></div>
<section id="problem" class="problem" role="alert" hidden></section>
<ul id="notes" class="notes" hidden></ul>
<figure id="chartBox" hidden><svg id="chart" role="img" aria-label="Chart of the metric"></svg><figcaption id="caption"></figcaption></figure>
<div class="actions"><button id="toggleSql" type="button" aria-expanded="false" aria-controls="sqlBox" hidden>Show SQL</button>
  <button id="copyRows" type="button" title="Copy the selected cells, or every row with headers (Ctrl+C)" hidden>Copy</button>
  <button id="exportCsv" type="button" title="Save every row as a CSV file" hidden>Export CSV</button></div>
<section id="sqlBox" class="sql" hidden aria-label="Compiled SQL"><pre id="sql"></pre><div id="params" class="meta"></div></section>
<table id="rows" aria-label="Metric rows" hidden><thead></thead><tbody></tbody></table>
<div id="empty" class="empty" hidden>No rows: the filters matched nothing.</div>`,
    });
  }

  dispose(): void {
    if (MetricPanel.current === this) MetricPanel.current = undefined;
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}
