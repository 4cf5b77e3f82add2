import * as vscode from 'vscode';
import type { Envelope } from '../../core/envelope';
import { WEBVIEW_TYPES } from '../constants';
import type { TableActionDeps } from '../results/table-actions';
import { PanelSlot, TablePanel, type TablePanelSpec } from './table-panel';

export { tableOf } from './table-panel';

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

/**
 * The results grid of Preview Rows (one panel, reused): column headers with their types, NULL drawn apart from
 * empty text, masked PII columns marked, cells selectable (click, Shift+click, Ctrl+A) and copied as TSV (Ctrl+C or
 * Copy), and Export CSV through a save dialog. Strict CSP through the shared page builder; values set as text.
 */
export class ResultsPanel extends TablePanel<ResultsRun, ResultsRendered, 'copy' | 'copyAll' | 'exportCsv'> {
  private static readonly slot = new PanelSlot<ResultsPanel>();

  static get instance(): ResultsPanel | undefined {
    return ResultsPanel.slot.current;
  }

  static show(extensionUri: vscode.Uri, deps: TableActionDeps, run: ResultsRun): ResultsPanel {
    const p = ResultsPanel.slot.open(RESULTS_SPEC, run, extensionUri, (panel, forget) => new ResultsPanel(panel, extensionUri, deps, forget));
    p.present(run);
    return p;
  }

  private constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, deps: TableActionDeps, forget: () => void) {
    super(panel, extensionUri, deps, RESULTS_SPEC, forget);
  }
}

const RESULTS_SPEC: TablePanelSpec<ResultsRun> = {
  viewType: WEBVIEW_TYPES.results,
  page: {
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
  },
  tabTitle: (run) => `Rows: ${run.title}`,
  exportName: (run) => `${run.source}-${run.title}`,
};
