import * as vscode from 'vscode';
import type { Envelope } from '../../core/envelope';
import { runTableAction, type TableAction, type TableActionDeps, type TableActionOutcome } from '../results/table-actions';
import type { CellRange, TableData } from '../results/table-text';
import { scriptedPanelHtml, type ScriptedPanel } from './panel-html';

/** What a panel shows: one run, whose envelope may carry rows (`{columns, rows}`). */
export interface EnvelopeRun {
  readonly envelope: Envelope<unknown> | null;
}

/** How one kind of table panel looks and names things. */
export interface TablePanelSpec<R> {
  /** The webview type (WEBVIEW_TYPES). */
  readonly viewType: string;
  /** The page: its media folder, stylesheet, script, title and body markup. */
  readonly page: ScriptedPanel;
  /** The editor tab's title for a run. */
  readonly tabTitle: (run: R) => string;
  /** The base of an exported file's name for a run. */
  readonly exportName: (run: R) => string;
}

type FromWebview<D> =
  | { readonly type: 'ready' }
  | ({ readonly type: 'rendered' } & D)
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
 * A webview panel that draws one run's rows and is reused by the next run (one per kind, kept by `PanelSlot`): the
 * run is posted once the page says it is ready, the page reports what it drew (`rendered`, which tests read), and
 * its Copy and Export CSV requests go through the shared table actions. Strict CSP through `scriptedPanelHtml`.
 *
 * R: the run; D: what the page reports after drawing; B: the page's buttons that `press` can click.
 */
export class TablePanel<R extends EnvelopeRun, D extends object, B extends string> implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private run: R | undefined;
  private lastRendered: D | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<D>();
  private readonly actionEmitter = new vscode.EventEmitter<TableActionOutcome>();
  /** Fires each time the page has drawn a result. */
  readonly onDidRender = this.renderedEmitter.event;
  /** Fires after each Copy or Export CSV. */
  readonly onDidAct = this.actionEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly deps: TableActionDeps,
    private readonly spec: TablePanelSpec<R>,
    private readonly onDisposed: () => void,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'schemabrain.svg');
    panel.webview.html = scriptedPanelHtml(panel.webview, extensionUri, spec.page);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: FromWebview<D>) => void this.onMessage(m)),
      this.renderedEmitter,
      this.actionEmitter,
    );
  }

  /** The run shown now. */
  get result(): R | undefined {
    return this.run;
  }

  /** What the page last drew (undefined until it has drawn the current run). */
  get rendered(): D | undefined {
    return this.lastRendered;
  }

  /** Shows a run: retitles and reveals the panel, and draws the run once the page is ready. */
  present(run: R): void {
    this.panel.title = this.spec.tabTitle(run);
    this.panel.reveal(undefined, true);
    this.run = run;
    this.lastRendered = undefined;
    if (this.ready) void this.post();
  }

  /** Selects cells of the rows table as a click and Shift+click would. */
  select(range: CellRange | null): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'select', range });
  }

  /** Presses one of the page's buttons, as a person's click does. */
  press(button: B): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'press', button });
  }

  /** Sends the page any other message its script understands. */
  protected postMessage(message: { readonly type: string }): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private post(): Thenable<boolean> {
    return this.panel.webview.postMessage({ type: 'result', run: this.run });
  }

  private async onMessage(m: FromWebview<D>): Promise<void> {
    if (m.type === 'ready') {
      this.ready = true;
      if (this.run) void this.post();
      return;
    }
    if (m.type === 'rendered') {
      const { type: _type, ...rendered } = m;
      this.lastRendered = rendered as unknown as D;
      this.renderedEmitter.fire(this.lastRendered);
      return;
    }
    const run = this.run;
    const data = tableOf(run?.envelope);
    if (!data || !run) return;
    const action: TableAction = m.type === 'copy' ? { type: 'copy', range: m.range } : { type: 'exportCsv' };
    this.actionEmitter.fire(await runTableAction(this.deps, action, data, this.spec.exportName(run)));
  }

  dispose(): void {
    this.onDisposed();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

/** The one open panel of a kind: made on the first show, reused by later ones, forgotten when it closes. */
export class PanelSlot<P extends vscode.Disposable> {
  private panel: P | undefined;

  get current(): P | undefined {
    return this.panel;
  }

  /** The open panel, or a new one made by `make` in a new webview of the spec's type (scripts on, kept when hidden). */
  open<R>(spec: TablePanelSpec<R>, run: R, extensionUri: vscode.Uri, make: (panel: vscode.WebviewPanel, forget: () => void) => P): P {
    if (this.panel) return this.panel;
    const webview = vscode.window.createWebviewPanel(spec.viewType, spec.tabTitle(run), vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media', spec.page.mediaDir)],
    });
    const made = make(webview, () => {
      if (this.panel === made) this.panel = undefined;
    });
    this.panel = made;
    return made;
  }
}
