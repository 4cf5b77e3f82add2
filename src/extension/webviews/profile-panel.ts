import fs from 'node:fs';
import * as vscode from 'vscode';
import type { Envelope } from '../../core/envelope';
import { WEBVIEW_TYPES } from '../constants';

/** What one Profile Table produced. */
export interface ProfileRun {
  readonly qualifiedName: string;
  readonly source: string | null;
  readonly envelope: Envelope<unknown> | null;
  readonly failure: { readonly kind: string; readonly message: string } | null;
}

export interface ProfileFinding {
  readonly kind: string;
  readonly severity: string;
  readonly column: string | null;
  readonly message: string;
}

interface ProfileData {
  readonly qualified_name?: string;
  readonly source?: string;
  readonly row_estimate?: number | null;
  readonly sample?: { rows?: number; method?: string; complete?: boolean };
  readonly findings?: ProfileFinding[];
  readonly finding_counts?: { high?: number; medium?: number; low?: number };
  readonly artifacts?: { profile_html?: string; quality_html?: string };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** One-line summary of a run, for the notification and the panel header. */
export function summarizeProfile(run: ProfileRun): string {
  const env = run.envelope;
  if (!env) return `could not profile ${run.qualifiedName}: ${run.failure?.message ?? 'no answer'}`;
  if (env.error) return `${env.status} (${env.error.kind}): ${env.error.message}`;
  const d = (env.data ?? {}) as ProfileData;
  const c = d.finding_counts ?? {};
  const total = (c.high ?? 0) + (c.medium ?? 0) + (c.low ?? 0);
  return `${d.qualified_name ?? run.qualifiedName}: ${total} finding${total === 1 ? '' : 's'} (${c.high ?? 0} high, ${c.medium ?? 0} medium, ${c.low ?? 0} low) from ${d.sample?.rows ?? 0} sampled rows`;
}

/** `<style>` and `<body>` of a report the profiler wrote (no scripts there: its own CSP forbids them). */
function readArtifact(file: string | undefined): { style: string; body: string } | null {
  if (!file) return null;
  let html: string;
  try {
    html = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const style = /<style>([\s\S]*?)<\/style>/i.exec(html)?.[1] ?? '';
  const body = /<body>([\s\S]*?)<\/body>/i.exec(html)?.[1] ?? '';
  // Belt and braces: the webview runs no script anyway (enableScripts: false), but nothing scripted should pass.
  return { style, body: body.replace(/<script[\s\S]*?<\/script>/gi, '') };
}

/**
 * The profile and quality reports of one table in a webview with scripts disabled and a CSP that allows only the
 * reports' own inline styles: a findings summary on top, then the profile, then the quality report.
 */
export class ProfilePanel implements vscode.Disposable {
  private static current: ProfilePanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private run: ProfileRun | undefined;
  private page = '';

  static get instance(): ProfilePanel | undefined {
    return ProfilePanel.current;
  }

  static show(run: ProfileRun): ProfilePanel {
    if (!ProfilePanel.current) {
      const panel = vscode.window.createWebviewPanel(WEBVIEW_TYPES.profile, 'Profile', vscode.ViewColumn.Active, { enableScripts: false, localResourceRoots: [] });
      ProfilePanel.current = new ProfilePanel(panel);
    }
    const p = ProfilePanel.current;
    p.setRun(run);
    p.panel.reveal(undefined, true);
    return p;
  }

  private constructor(readonly panel: vscode.WebviewPanel) {
    this.disposables.push(panel.onDidDispose(() => this.dispose()));
  }

  get result(): ProfileRun | undefined {
    return this.run;
  }

  /** The HTML shown now (tests check what it holds). */
  get html(): string {
    return this.page;
  }

  private setRun(run: ProfileRun): void {
    this.run = run;
    this.panel.title = `Profile: ${run.qualifiedName}`;
    this.page = render(run);
    this.panel.webview.html = this.page;
  }

  dispose(): void {
    if (ProfilePanel.current === this) ProfilePanel.current = undefined;
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

const SUMMARY_STYLE = `
.sb-summary { margin: 0 0 1rem; padding: .6rem .9rem; border: 1px solid var(--vscode-panel-border, #888); border-radius: 3px; }
.sb-summary h1 { margin: 0 0 .3rem; }
.sb-summary.error { border-color: var(--vscode-inputValidation-errorBorder, #c00); background: var(--vscode-inputValidation-errorBackground, transparent); }
.sb-summary ul { margin: .3rem 0 0; padding-left: 1.2rem; }
.sb-nav a { margin-right: 1rem; }
hr.sb-sep { margin: 2rem 0; border: 0; border-top: 1px solid var(--vscode-panel-border, #888); }
`;

function render(run: ProfileRun): string {
  const env = run.envelope;
  const head = (styles: string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Profile ${escapeHtml(run.qualifiedName)}</title>
<style>${styles}${SUMMARY_STYLE}</style>
</head>
<body>
`;
  if (!env || env.error) {
    const e = env?.error;
    const next = e?.recovery.suggested_tool ? `<p>Next: <code>${escapeHtml(e.recovery.suggested_tool)}</code>${e.recovery.fuzzy_matches?.length ? ` — did you mean ${e.recovery.fuzzy_matches.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')}?` : ''}</p>` : '';
    return `${head('body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }')}<section class="sb-summary error" role="alert"><h1>Could not profile <code>${escapeHtml(run.qualifiedName)}</code></h1><p>${escapeHtml(summarizeProfile(run))}</p>${next}</section>\n</body>\n</html>\n`;
  }
  const d = (env.data ?? {}) as ProfileData;
  const profile = readArtifact(d.artifacts?.profile_html);
  const quality = readArtifact(d.artifacts?.quality_html);
  const findings = d.findings ?? [];
  const list = findings.length
    ? `<ul>${findings.slice(0, 10).map((f) => `<li><span class="sev sev-${escapeHtml(f.severity)}">${escapeHtml(f.severity)}</span> ${escapeHtml(f.kind)}${f.column ? ` <code>${escapeHtml(f.column)}</code>` : ''}: ${escapeHtml(f.message)}</li>`).join('')}</ul>${findings.length > 10 ? `<p>… and ${findings.length - 10} more in the quality report below.</p>` : ''}`
    : '<p>No quality findings in the sample.</p>';
  const status = env.status === 'success' ? '' : ` <span class="note">(status ${escapeHtml(env.status)}${env.status === 'partial' ? ': figures rest partly on catalog statistics or were cut' : ''})</span>`;
  const reports = profile || quality
    ? `<nav class="sb-nav"><a href="#sb-profile">Profile</a><a href="#sb-quality">Quality</a></nav>
<section id="sb-profile">${profile?.body ?? '<p>The profile report could not be read.</p>'}</section>
<hr class="sb-sep">
<section id="sb-quality">${quality?.body ?? '<p>The quality report could not be read.</p>'}</section>`
    : '<p class="note">The HTML reports could not be read.</p>';
  return `${head(profile?.style ?? quality?.style ?? '')}<section class="sb-summary" aria-label="Findings summary"><h1>Findings</h1><p>${escapeHtml(summarizeProfile(run))}${status}</p>${list}</section>
${reports}
</body>
</html>
`;
}
