import * as vscode from 'vscode';
import type { Envelope } from '../../core/envelope';
import { WEBVIEW_TYPES } from '../constants';
import type { TableActionDeps } from '../results/table-actions';
import { PanelSlot, TablePanel, type TablePanelSpec } from './table-panel';

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

/**
 * One panel for metric results (reused by each run): status, degradation and refusal first, then a chart and the
 * rows, and the compiled SQL with its bound parameters behind a toggle. Strict CSP: scripts only with this load's
 * nonce, styles only from media/metric; the chart is SVG drawn by the page's own script, values set as text.
 */
export class MetricPanel extends TablePanel<MetricRun, MetricRendered, 'copyRows' | 'exportCsv'> {
  private static readonly slot = new PanelSlot<MetricPanel>();

  static get instance(): MetricPanel | undefined {
    return MetricPanel.slot.current;
  }

  static show(extensionUri: vscode.Uri, run: MetricRun, deps: TableActionDeps): MetricPanel {
    const p = MetricPanel.slot.open(METRIC_SPEC, run, extensionUri, (panel, forget) => new MetricPanel(panel, extensionUri, deps, forget));
    p.present(run);
    return p;
  }

  private constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, deps: TableActionDeps, forget: () => void) {
    super(panel, extensionUri, deps, METRIC_SPEC, forget);
  }

  /** Toggles the SQL section as the "Show SQL" button does. */
  toggleSql(): Thenable<boolean> {
    return this.postMessage({ type: 'toggleSql' });
  }
}

const METRIC_SPEC: TablePanelSpec<MetricRun> = {
  viewType: WEBVIEW_TYPES.metric,
  page: {
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
  },
  tabTitle: (run) => `Metric: ${run.metric}`,
  exportName: (run) => `metric-${run.metric}`,
};
