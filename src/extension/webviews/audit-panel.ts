import * as vscode from 'vscode';
import { scriptedPanelHtml } from './panel-html';
import { describeVerification, type AuditQuery, type AuditService } from '../audit/audit-service';

/** Messages the webview sends. */
type FromWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'query'; readonly query: AuditQuery }
  | { readonly type: 'verify' };

const TOOLS = [
  'list_indexed_schemas', 'find_relevant_tables', 'find_relevant_entities', 'describe_table', 'describe_column', 'suggest_joins',
  'get_example_queries', 'list_entities', 'describe_entity', 'list_joins', 'resolve_join', 'list_metrics', 'get_metric', 'run_query',
  'profile_table', 'get_index_status',
];

/**
 * The audit log as a filterable, paged table. Strict CSP: no inline script, scripts only with this load's nonce,
 * styles from the extension's media folder; all data arrives by postMessage, rendered with textContent.
 */
export class AuditPanel implements vscode.Disposable {
  static readonly viewType = 'schemabrain.auditPanel';
  private static current: AuditPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Resolves each time the webview has rendered a page (checks wait on it). */
  private lastRendered: { rows: number; query: AuditQuery } | undefined;

  static show(extensionUri: vscode.Uri, audit: AuditService, focusSeq?: number): AuditPanel {
    if (AuditPanel.current) {
      AuditPanel.current.panel.reveal();
      if (focusSeq !== undefined) void AuditPanel.current.panel.webview.postMessage({ type: 'focus', seq: focusSeq });
      return AuditPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(AuditPanel.viewType, 'SchemaBrain Audit', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media', 'audit')],
    });
    AuditPanel.current = new AuditPanel(panel, extensionUri, audit, focusSeq);
    return AuditPanel.current;
  }

  static get instance(): AuditPanel | undefined {
    return AuditPanel.current;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly audit: AuditService,
    private readonly focusSeq: number | undefined,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'schemabrain.svg');
    panel.webview.html = this.html(panel.webview, extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: FromWebview) => void this.onMessage(m)),
      audit.onDidVerify((v) => void panel.webview.postMessage({ type: 'verification', state: v.state, text: describeVerification(v) })),
    );
  }

  get rendered(): { rows: number; query: AuditQuery } | undefined {
    return this.lastRendered;
  }

  /** Runs a query as if the filters had been set in the panel (used by the panel itself and by checks). */
  async query(query: AuditQuery): Promise<number> {
    const page = await this.audit.list(query);
    this.lastRendered = { rows: page.rows.length, query };
    await this.panel.webview.postMessage({ type: 'rows', page, query });
    return page.rows.length;
  }

  private async onMessage(m: FromWebview): Promise<void> {
    try {
      switch (m.type) {
        case 'ready': {
          const v = this.audit.verification;
          await this.panel.webview.postMessage({ type: 'init', tools: TOOLS, path: this.audit.path, focusSeq: this.focusSeq });
          await this.panel.webview.postMessage({ type: 'verification', state: v.state, text: describeVerification(v) });
          await this.query({ page: 0, pageSize: 50 });
          break;
        }
        case 'query':
          await this.query({ ...m.query, pageSize: Math.min(500, Math.max(1, m.query.pageSize || 50)), page: Math.max(0, m.query.page || 0) });
          break;
        case 'verify':
          await this.audit.verify();
          break;
      }
    } catch (e) {
      await this.panel.webview.postMessage({ type: 'error', message: (e as Error).message });
    }
  }

  private html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
    return scriptedPanelHtml(webview, extensionUri, {
      mediaDir: 'audit',
      css: 'panel.css',
      js: 'panel.js',
      title: 'SchemaBrain Audit',
      body: `<header>
  <div id="verification" class="verification unverified" role="status" aria-live="polite">Audit chain not verified yet</div>
  <button id="verify" type="button">Verify chain</button>
</header>
<form id="filters" class="filters" aria-label="Filters">
  <label>Status <select id="status"><option value="">any</option><option>success</option><option>empty</option><option>partial</option><option>degraded</option><option>error</option><option>refused</option></select></label>
  <label>Tool <select id="tool"><option value="">any</option></select></label>
  <label>Time <select id="since"><option value="">all</option><option value="900">last 15 min</option><option value="3600">last hour</option><option value="86400">last 24 h</option><option value="604800">last 7 days</option></select></label>
  <label>Page size <select id="pageSize"><option>25</option><option selected>50</option><option>100</option><option>500</option></select></label>
</form>
<div id="error" class="error" hidden></div>
<table id="rows" aria-label="Audit rows">
  <thead><tr><th>#</th><th>Time (UTC)</th><th>Tool</th><th>Status</th><th>Duration</th><th>PII</th><th>Rows</th></tr></thead>
  <tbody></tbody>
</table>
<div id="empty" class="empty" hidden>No audit rows match these filters.</div>
<nav class="pager"><button id="prev" type="button">Newer</button><span id="pageInfo"></span><button id="next" type="button">Older</button></nav>
<section id="details" class="details" hidden aria-label="Row details"><h2>Row details</h2><dl id="detailList"></dl></section>`,
    });
  }

  dispose(): void {
    if (AuditPanel.current === this) AuditPanel.current = undefined;
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}
