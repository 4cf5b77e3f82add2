import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { loadSemanticFolder } from '../../src/core/semantic/load';
import { semanticCatalogOf } from '../../src/extension/semantic/deps';
import type { ApplySuggestionsResult } from '../../src/extension/semantic/apply-suggestions';
import type { MultiPrompter } from '../../src/extension/semantic/pick-many';
import { COMMAND_IDS } from '../../src/extension/constants';
import type { ConnectionNode } from '../../src/extension/views/connections-tree';
import type { MetricsNode } from '../../src/extension/views/metrics-tree';
import type { MetricRun } from '../../src/extension/webviews/metric-panel';
import type { ProfileRun } from '../../src/extension/webviews/profile-panel';
import { activateApi, ScriptedPrompter, waitFor } from './helpers';

/** The scripted prompter plus multi-select: answers a multi-pick by title with a list of labels. */
class MultiScriptedPrompter extends ScriptedPrompter implements MultiPrompter {
  readonly offered = new Map<string, vscode.QuickPickItem[]>();
  constructor(answers: Array<{ match: RegExp; answer: string | undefined }>, private readonly many: Array<{ match: RegExp; labels: string[] }>) {
    super(answers);
  }

  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined> {
    const title = options.title ?? '';
    this.asked.push(title);
    this.offered.set(title, [...items]);
    const i = this.many.findIndex((m) => m.match.test(title));
    if (i < 0) throw new Error(`unexpected multi-pick: ${title}`);
    const [m] = this.many.splice(i, 1);
    return items.filter((it) => m!.labels.includes(it.label));
  }
}

const defsDir = (): string => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.schemabrain');

describe('Semantic layer in the editor: Run Metric, Profile Table, definitions as code, Apply Suggestions', () => {
  let source = '';
  const written: string[] = [];
  const write = (name: string, text: string): string => {
    const f = path.join(defsDir(), name);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
    written.push(f);
    return f;
  };

  before(async () => {
    const api = await activateApi();
    const view = await waitFor('an indexed Chinook', async () => {
      const s = await api.catalog.check(true);
      return s.state === 'ready' && (s.view.sourceByName('chinook_ui') ?? s.view.sourceByName('chinook')) ? s.view : undefined;
    });
    source = view.sourceByName('chinook_ui') ? 'chinook_ui' : 'chinook';
    write('ext-run-metric.yaml', [
      'version: 1',
      'entities:',
      `  - { name: rm_invoice, table: main.Invoice, identity: InvoiceId, time_dimension: InvoiceDate, source: ${source} }`,
      `  - { name: rm_customer, table: main.Customer, identity: CustomerId, source: ${source} }`,
      'joins:',
      '  - { name: rm_invoice_customer, from: rm_invoice, to: rm_customer, on: [{ from: CustomerId, to: CustomerId }], cardinality: many_to_one }',
      'metrics:',
      '  - { name: rm_revenue, description: Invoiced amount., entity: rm_invoice, measure: { agg: sum, column: Total } }',
      '',
    ].join('\n'));
    await vscode.commands.executeCommand(COMMAND_IDS.refresh);
  });

  after(async () => {
    const api = await activateApi();
    api.testing.setPrompter(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const f of written) fs.rmSync(f, { force: true });
    await vscode.commands.executeCommand(COMMAND_IDS.refresh);
  });

  it('runs a metric from its Metrics view node: group-by and grain pickers, then rows and a line chart in the panel', async () => {
    const api = await activateApi();
    const groups = api.metricsTree.getChildren();
    const metrics = api.metricsTree.getChildren(groups.find((n) => n.kind === 'group' && n.group === 'metrics'));
    const node = metrics.find((n): n is Extract<MetricsNode, { kind: 'metric' }> => n.kind === 'metric' && n.def.name === 'rm_revenue');
    assert.ok(node, 'rm_revenue is in the Metrics view');
    assert.equal(api.metricsTree.getTreeItem(node).contextValue, 'definition.metric', 'the node carries the Run Metric menu');
    const p = new MultiScriptedPrompter([{ match: /time grain for 'rm_revenue'/, answer: 'year' }], [{ match: /break 'rm_revenue' down by/, labels: ['rm_customer.SupportRepId'] }]);
    api.testing.setPrompter(p);
    let run: MetricRun | undefined;
    try {
      run = (await vscode.commands.executeCommand(COMMAND_IDS.runMetric, node)) as MetricRun | undefined;
    } finally {
      api.testing.setPrompter(undefined);
    }
    assert.deepEqual(p.asked, ["SchemaBrain: break 'rm_revenue' down by (none for the total)", "SchemaBrain: time grain for 'rm_revenue'"]);
    const offered = [...p.offered.values()][0]!.map((i) => `${i.label} ${i.description ?? ''}`);
    assert.ok(offered.some((o) => /^rm_invoice\.Total /.test(o)), 'the metric entity\'s own columns');
    assert.ok(offered.some((o) => /^rm_customer\.Email .*PII: contact/.test(o)), 'joined entity columns, PII marked');
    assert.ok(run?.envelope, JSON.stringify(run?.failure));
    assert.equal(run.envelope.status, 'success', JSON.stringify(run.envelope.error));
    const panel = await waitFor('metric panel', () => api.semantic.metricPanel());
    const drawn = await waitFor('the panel drew the rows', () => (panel.rendered?.metric === 'rm_revenue' && panel.rendered.rows > 0 ? panel.rendered : undefined));
    const rows = (run.envelope.data as { rows: unknown[] }).rows;
    assert.equal(drawn.rows, rows.length);
    assert.equal(drawn.chart, 'line', 'a time bucket draws lines');
    assert.ok(drawn.marks > 0 && drawn.marks <= rows.length);
    assert.equal(drawn.sqlShown, false);
    await panel.toggleSql();
    await waitFor('SQL shown', () => panel.rendered?.sqlShown);
  });

  it('draws a bar chart for a breakdown without a time grain', async () => {
    const api = await activateApi();
    const run = (await vscode.commands.executeCommand(COMMAND_IDS.runMetric, { name: 'rm_revenue', groupBy: ['rm_customer.Country'], grain: null })) as MetricRun;
    assert.equal(run.envelope?.status, 'success');
    const panel = api.semantic.metricPanel()!;
    const drawn = await waitFor('bar chart drawn', () => (panel.rendered?.chart === 'bar' ? panel.rendered : undefined));
    const rows = (run.envelope!.data as { rows: unknown[] }).rows.length;
    assert.equal(drawn.rows, rows);
    assert.equal(drawn.marks, Math.min(rows, 40));
    assert.equal(drawn.problem, null);
  });

  it('shows the refusal and its recovery when the breakdown is by a PII column', async () => {
    const api = await activateApi();
    const run = (await vscode.commands.executeCommand(COMMAND_IDS.runMetric, { name: 'rm_revenue', groupBy: ['rm_customer.Email'], grain: null })) as MetricRun;
    assert.equal(run.envelope?.status, 'refused');
    assert.equal(run.envelope?.error?.kind, 'pii_blocked');
    const panel = api.semantic.metricPanel()!;
    const drawn = await waitFor('refusal drawn', () => (panel.rendered?.status === 'refused' ? panel.rendered : undefined));
    assert.equal(drawn.rows, 0);
    assert.equal(drawn.chart, 'none');
    assert.match(drawn.problem ?? '', /Refused/);
    assert.match(drawn.problem ?? '', /group_by over 'rm_customer\.Email' would list its values/);
    assert.match(drawn.problem ?? '', /pii_blocked/);
    assert.match(drawn.problem ?? '', /next step\s*describe_entity/);
  });

  it('profiles a table from its Connections view node and opens the reports with a findings summary', async () => {
    const api = await activateApi();
    const src = api.connectionsTree.getChildren().find((n) => n.kind === 'source' && n.name === source)!;
    const schema = api.connectionsTree.getChildren(src)[0]!;
    const table = api.connectionsTree.getChildren(schema).find((n): n is Extract<ConnectionNode, { kind: 'table' }> => n.kind === 'table' && n.entry.table.name === 'Customer')!;
    assert.equal(api.connectionsTree.getTreeItem(table).contextValue, 'table');
    const run = (await vscode.commands.executeCommand(COMMAND_IDS.profileTable, table)) as ProfileRun;
    assert.equal(run.envelope?.status, 'success', JSON.stringify(run.envelope?.error ?? run.failure));
    const findings = (run.envelope!.data as { findings: { kind: string; column: string }[] }).findings;
    assert.ok(findings.some((f) => f.kind === 'high_null_fraction' && f.column === 'Company'), JSON.stringify(findings));
    const panel = await waitFor('profile panel', () => api.semantic.profilePanel());
    assert.equal(panel.panel.title, 'Profile: main.Customer');
    assert.match(panel.html, /<h1>Findings<\/h1><p>main\.Customer: \d+ findings/);
    assert.match(panel.html, /id="sb-profile"[\s\S]*Email[\s\S]*id="sb-quality"[\s\S]*Company/);
    assert.doesNotMatch(panel.html, /<script/i);
    assert.match(panel.html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'/);
    assert.ok(api.notifier.notices.some((n) => n.severity === 'info' && /profiled main\.Customer: \d+ findings/.test(n.message)));
  });

  it('profiles a table picked in the palette flow, and reports an unknown table with the closest names', async () => {
    const api = await activateApi();
    const p = new ScriptedPrompter([{ match: /profile which table/, answer: 'main.Genre' }]);
    api.testing.setPrompter(p);
    try {
      const run = (await vscode.commands.executeCommand(COMMAND_IDS.profileTable)) as ProfileRun;
      assert.equal(run.qualifiedName, 'main.Genre');
      assert.equal(run.envelope?.status, 'success');
    } finally {
      api.testing.setPrompter(undefined);
    }
    const bad = (await vscode.commands.executeCommand(COMMAND_IDS.profileTable, { qualifiedName: 'main.Custmer', source })) as ProfileRun;
    assert.equal(bad.envelope?.status, 'error');
    assert.match(api.semantic.profilePanel()!.html, /Could not profile[\s\S]*unknown_name[\s\S]*main\.Customer/);
  });

  it('underlines problems in a definitions file and offers quick fixes that clear them when applied', async () => {
    const file = write('ext-broken.yaml', [
      'version: 1',
      'metrics:',
      '  - name: rm_broken_key',
      '    entity: rm_invoice',
      '    measure: { agg: sum, colum: Total }',
      '  - name: rm_broken_column',
      '    entity: rm_invoice',
      '    measure: { agg: sum, column: Totl }',
      '',
    ].join('\n'));
    const uri = vscode.Uri.file(file);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const ours = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'SchemaBrain');
    const diags = await waitFor('two diagnostics', () => (ours().length >= 2 ? ours() : undefined), 15_000);
    const key = diags.find((d) => d.code === 'unknown_key')!;
    const column = diags.find((d) => d.code === 'unknown_column')!;
    assert.ok(key && column, JSON.stringify(diags.map((d) => [d.code, d.message])));
    assert.equal(doc.getText(key.range), 'colum');
    assert.equal(key.range.start.line, 4);
    assert.equal(doc.getText(column.range), 'Totl');
    assert.equal(column.severity, vscode.DiagnosticSeverity.Error);
    assert.match(column.message, /'Totl' is not a column of main\.Invoice.*did you mean 'Total'/);

    for (const [d, title] of [[key, "Rename to 'column'"], [column, "Change to 'Total'"]] as const) {
      const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value)) ?? [];
      const fix = actions.find((a) => a.title === title);
      assert.ok(fix?.edit, `quick fix '${title}' among ${actions.map((a) => a.title).join(', ')}`);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      await waitFor(`${String(d.code)} cleared`, () => !ours().some((x) => x.code === d.code), 15_000);
    }
    assert.deepEqual(ours(), []);
    assert.match(doc.getText(), /measure: \{ agg: sum, column: Total \}\n {2}- name: rm_broken_column\n {4}entity: rm_invoice\n {4}measure: \{ agg: sum, column: Total \}/);
    await doc.save();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('applies suggestions from the catalog as YAML that loads without errors, and asks before overwriting', async () => {
    const api = await activateApi();
    const r = (await vscode.commands.executeCommand(COMMAND_IDS.applySuggestions, { source })) as ApplySuggestionsResult;
    written.push(...r.written);
    assert.equal(r.written.length, 3, JSON.stringify(r));
    assert.ok(r.entities >= 10 && r.joins >= 10 && r.metrics >= 10, JSON.stringify(r));
    const state = await api.catalog.get();
    assert.equal(state.state, 'ready');
    const loaded = await loadSemanticFolder(defsDir(), state.state === 'ready' ? semanticCatalogOf(state.view) : undefined);
    const inWritten = loaded.diagnostics.filter((d) => r.written.includes(d.file));
    assert.deepEqual(inWritten.filter((d) => d.severity === 'error'), []);
    assert.match(fs.readFileSync(r.written[0]!, 'utf8'), /validation_state: draft/);
    const names = [...(api.metricsTree.loaded?.model.metrics.keys() ?? [])];
    assert.ok(names.includes('invoice_line_count') || names.some((n) => /^invoice_line_count/.test(n)), names.join(', '));

    const before = fs.readFileSync(r.written[0]!, 'utf8');
    fs.appendFileSync(r.written[0]!, '# reviewed by hand\n');
    const p = new ScriptedPrompter([{ match: /already exist/, answer: 'Keep existing files' }]);
    api.testing.setPrompter(p);
    try {
      const again = (await vscode.commands.executeCommand(COMMAND_IDS.applySuggestions, { source })) as ApplySuggestionsResult;
      assert.deepEqual(again.written, []);
      assert.equal(again.kept.length, 3);
    } finally {
      api.testing.setPrompter(undefined);
    }
    assert.match(p.asked[0]!, /suggested-.*-entities\.yaml, .*already exist — overwrite\?/);
    assert.equal(fs.readFileSync(r.written[0]!, 'utf8'), `${before}# reviewed by hand\n`, 'the kept file is untouched');
  });
});
