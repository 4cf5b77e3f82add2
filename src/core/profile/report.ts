import type { ColumnProfile, QualityFinding, TableProfile } from './types';

/**
 * Self-contained HTML reports for the profile and quality artifacts: no script, no external resource (a CSP meta
 * forbids both), every value HTML-escaped, and colours that follow the viewer's light/dark preference
 * (https://developer.mozilla.org/en-US/docs/Web/CSS/@media/prefers-color-scheme). Inside a VS Code webview the
 * theme's own variables win (https://code.visualstudio.com/api/extension-guides/webview#theming-webview-content).
 */

export interface JobInfo {
  readonly job_id: string;
  readonly state: 'succeeded';
  readonly progress: 100;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --head: #f6f8fa;
  --high: #cf222e; --medium: #9a6700; --low: #0969da; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --head: #151b23;
  --high: #ff7b72; --medium: #d29922; --low: #58a6ff; } }
body { margin: 1.5rem; font: 13px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  background: var(--vscode-editor-background, var(--bg)); color: var(--vscode-editor-foreground, var(--fg)); }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
.meta, .note { color: var(--vscode-descriptionForeground, var(--muted)); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .3rem .6rem; border-bottom: 1px solid var(--vscode-panel-border, var(--line)); }
th { background: var(--vscode-editorWidget-background, var(--head)); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-family: var(--vscode-editor-font-family, ui-monospace, monospace); }
.sev { font-weight: 600; text-transform: uppercase; font-size: .8em; }
.sev-high { color: var(--high); } .sev-medium { color: var(--medium); } .sev-low { color: var(--low); }
.bar { display: inline-block; height: .6em; background: currentColor; opacity: .45; vertical-align: middle; margin-right: .4em; }
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function fmtPct(n: number | null): string {
  return n === null ? '—' : `${Math.round(n * 1000) / 10}%`;
}

function fmt(v: string | number | null | undefined): string {
  return v === null || v === undefined ? '—' : escapeHtml(String(v));
}

function header(p: TableProfile, job: JobInfo, what: string): string {
  const sample = p.sample.method === 'none' ? 'no sample (catalog statistics only)' : `${p.sample.rows} rows, ${p.sample.method.replace('_', ' ')}${p.sample.complete ? ' (whole table)' : ''}`;
  return `<h1>${escapeHtml(what)}: <code>${escapeHtml(p.qualifiedName)}</code></h1>
<p class="meta">Source <code>${escapeHtml(p.source)}</code> (${escapeHtml(p.engine)}) · about ${fmt(p.rowEstimate)} rows · sample: ${escapeHtml(sample)} · ${escapeHtml(p.profiledAt)} · job <code>${escapeHtml(job.job_id)}</code></p>
${p.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n')}`;
}

function columnRow(c: ColumnProfile): string {
  const top = c.topValues.length
    ? c.topValues
        .slice(0, 5)
        .map((t) => `<span class="bar" style="width:${Math.max(2, Math.round(t.frequency * 60))}px"></span><code>${escapeHtml(t.value)}</code> ${fmtPct(t.frequency)}`)
        .join('<br>')
    : c.piiCategories.length
      ? `<span class="note">values withheld (${escapeHtml(c.piiCategories.join(', '))})</span>`
      : '—';
  return `<tr><td><code>${escapeHtml(c.name)}</code></td><td><code>${escapeHtml(c.type)}</code>${c.nullable ? '' : ' <span class="note">not null</span>'}</td><td class="num">${fmtPct(c.nullFraction)}</td><td class="num">${fmt(c.distinctEstimate)}</td><td>${c.min === null ? '—' : `<code>${escapeHtml(c.min)}</code>`}</td><td>${c.max === null ? '—' : `<code>${escapeHtml(c.max)}</code>`}</td><td>${top}</td><td class="note">${escapeHtml(c.origin.replace('_', ' '))}</td></tr>`;
}

export function renderProfileHtml(p: TableProfile, job: JobInfo): string {
  const body = `${header(p, job, 'Profile')}
<table>
<thead><tr><th>Column</th><th>Type</th><th>Nulls</th><th>Distinct</th><th>Min</th><th>Max</th><th>Top values</th><th>From</th></tr></thead>
<tbody>
${p.columns.map(columnRow).join('\n')}
</tbody>
</table>`;
  return page(`Profile of ${p.qualifiedName}`, body);
}

function findingRow(f: QualityFinding): string {
  return `<tr><td class="sev sev-${f.severity}">${f.severity}</td><td>${escapeHtml(f.kind.replace(/_/g, ' '))}</td><td><code>${escapeHtml(f.column)}</code></td><td>${escapeHtml(f.message)}${f.examples?.length ? `<br><span class="note">e.g. ${f.examples.map((e) => `<code>${escapeHtml(e)}</code>`).join(', ')}</span>` : ''}</td><td class="num">${f.count} / ${f.checked}</td></tr>`;
}

export function renderQualityHtml(p: TableProfile, job: JobInfo): string {
  const counts = (['high', 'medium', 'low'] as const).map((s) => `${p.findings.filter((f) => f.severity === s).length} ${s}`).join(' · ');
  const body = `${header(p, job, 'Data quality')}
<p><strong>${p.findings.length} finding(s)</strong>: ${escapeHtml(counts)}</p>
${
  p.findings.length
    ? `<table>
<thead><tr><th>Severity</th><th>Rule</th><th>Column</th><th>Finding</th><th>Count</th></tr></thead>
<tbody>
${p.findings.map(findingRow).join('\n')}
</tbody>
</table>`
    : '<p>No rule found a problem in the rows read.</p>'
}
${
  p.checks.length
    ? `<h2>Reference checks</h2>
<ul>
${p.checks.map((c) => `<li><code>${escapeHtml(c.column)}</code>: ${c.ok ? '' : 'not run — '}${escapeHtml(c.note ?? '')}</li>`).join('\n')}
</ul>`
    : ''
}`;
  return page(`Data quality of ${p.qualifiedName}`, body);
}
