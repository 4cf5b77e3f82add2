import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { toolCallEvent } from '../../src/core/events/bus';
import { formatEventLine } from '../../src/core/events';
import { ENGINES } from '../../src/extension/connections/engines';
import { COMMAND_IDS } from '../../src/extension/constants';
import { TailChannel } from '../../src/extension/tail/tail-channel';
import type { IndexOutcome, IndexProgress } from '../../src/extension/indexing/run-index';
import type { ConnectionNode } from '../../src/extension/views/connections-tree';
import type { ResultsRun } from '../../src/extension/webviews/results-panel';
import type { TableActionOutcome } from '../../src/extension/results/table-actions';
import { activateApi, addThroughForm, fixtures, ScriptedPrompter, waitFor } from './helpers';

type Api = Awaited<ReturnType<typeof activateApi>>;

function label(api: Api, n: ConnectionNode): string {
  const l = api.connectionsTree.getTreeItem(n).label;
  return typeof l === 'string' ? l : l?.label ?? '';
}

function tooltip(api: Api, n: ConnectionNode): string {
  const t = api.connectionsTree.getTreeItem(n).tooltip;
  return t instanceof vscode.MarkdownString ? t.value : String(t ?? '');
}

/** Every code span of a Markdown text (single or multi-backtick fences). */
function codeSpans(md: string): string[] {
  return [...md.matchAll(/(`+)([\s\S]*?)\1/g)].map((m) => m[2]!);
}

/** The indexed Chinook source: 'chinook' from the fixtures, renamed 'chinook_ui' once the connections suite re-indexed the same file. */
async function chinook(api: Api): Promise<string> {
  const s = await api.catalog.check(true);
  return s.state === 'ready' && s.view.sourceByName('chinook_ui') ? 'chinook_ui' : 'chinook';
}

/** The table node `schema.table` of an indexed source, walking the tree as a person expands it. */
async function tableNode(api: Api, source: string, schema: string, table: string): Promise<Extract<ConnectionNode, { kind: 'table' }>> {
  await api.catalog.check(true);
  const src = api.connectionsTree.getChildren().find((n) => n.kind === 'source' && n.name === source);
  assert.ok(src, `source ${source} in the tree`);
  const sch = api.connectionsTree.getChildren(src).find((n) => label(api, n) === schema);
  assert.ok(sch, `schema ${schema}`);
  const t = api.connectionsTree.getChildren(sch).find((n) => label(api, n) === table);
  assert.ok(t && t.kind === 'table', `table ${table}`);
  return t;
}

describe('Tooltips read as a person expects', () => {
  it('code spans hold names verbatim: no backslash escapes inside them', async () => {
    const api = await activateApi();
    const t = await tableNode(api, 'musicbrainz', 'musicbrainz', 'alternative_medium');
    const md = tooltip(api, t);
    assert.match(md, /FK `alternative_release` → `musicbrainz\.alternative_release\(id\)`/, md);
    for (const span of codeSpans(md)) assert.ok(!span.includes('\\'), `escaped code span ${span} in ${md}`);
    const col = api.connectionsTree.getChildren(t).find((n) => label(api, n) === 'alternative_release')!;
    const colMd = tooltip(api, col);
    assert.match(colMd, /References `musicbrainz\.alternative_release\(id\)`/, colMd);
    for (const span of codeSpans(colMd)) assert.ok(!span.includes('\\'), `escaped code span ${span} in ${colMd}`);
  });

  it('a saved PostgreSQL connection shows its address unescaped', async () => {
    const api = await activateApi();
    await api.connections.save({ name: 'ux_tooltip_pg', engine: 'postgres', host: '127.0.0.1', port: 5432, database: 'no_such_db', user: 'some_user' });
    try {
      const n = api.connectionsTree.getChildren().find((x) => x.kind === 'source' && x.name === 'ux_tooltip_pg')!;
      const md = tooltip(api, n);
      assert.ok(md.includes('`some_user@127.0.0.1:5432/no_such_db`'), md);
    } finally {
      await api.connections.remove('ux_tooltip_pg');
    }
  });

  it('no "~? rows" without an estimate, and singular counts read "1 table", "1 column"', async () => {
    const api = await activateApi();
    const source = await chinook(api);
    const t = await tableNode(api, source, 'main', 'Genre');
    const noEstimate: ConnectionNode = { kind: 'table', entry: { ...t.entry, table: { ...t.entry.table, rowEstimate: null, columns: t.entry.table.columns.slice(0, 1) } } };
    const item = api.connectionsTree.getTreeItem(noEstimate);
    assert.doesNotMatch(String(item.description ?? ''), /\?/);
    const md = tooltip(api, noEstimate);
    assert.doesNotMatch(md, /~\?/, md);
    assert.match(md, /\b1 column\b/, md);
    const src = api.connectionsTree.getChildren().find((n) => n.kind === 'source' && n.name === source) as Extract<ConnectionNode, { kind: 'source' }>;
    const one: ConnectionNode = { ...src, source: { ...src.source!, tableCount: 1 } };
    assert.match(String(api.connectionsTree.getTreeItem(one).description), /· 1 table ·/);
    assert.match(tooltip(api, one), /\b1 table,/);
  });

  it('names and comments from the database cannot put links, icons or HTML in a tooltip', async () => {
    const api = await activateApi();
    const source = await chinook(api);
    const t = await tableNode(api, source, 'main', 'Genre');
    const hostile = '$(verified-filled) [Fix](command:workbench.action.quit) see https://phish.example <img src=https://track.example/p.gif>';
    const col = t.entry.table.columns[0]!;
    const forged: ConnectionNode = {
      kind: 'table',
      entry: { ...t.entry, qualifiedName: `main.[x](command:workbench.action.quit)`, table: { ...t.entry.table, kind: '$(pass) table' as never, comment: hostile, columns: [{ ...col, comment: hostile, dataType: '$(key) text https://x.example' }] } },
    };
    const columnNode = { kind: 'column', entry: forged.kind === 'table' ? forged.entry : t.entry, column: forged.kind === 'table' ? forged.entry.table.columns[0]! : col } as ConnectionNode;
    for (const md of [tooltip(api, forged), tooltip(api, columnNode)]) {
      assert.doesNotMatch(md, /\$\(/, md);
      assert.doesNotMatch(md, /(^|[^\\])\]\(/, md);
      assert.doesNotMatch(md, /:\/\//, md);
      assert.doesNotMatch(md, /(^|[^\\])<img/, md);
      assert.match(md.replace(/[\\\u200b]/g, ''), /phish/, 'the words are still shown');
    }
  });
});

describe('A repository cannot widen what the agent may do', () => {
  it('.vscode/settings.json cannot move the catalog home or events file, nor raise the row cap or timeout', async () => {
    const api = await activateApi();
    const before = api.settings();
    const dir = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode');
    const file = path.join(dir, 'settings.json');
    const kept = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    const evil = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-evil-home-'));
    fs.mkdirSync(dir, { recursive: true });
    const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('schemabrain');
    try {
      fs.writeFileSync(file, JSON.stringify({
        'schemabrain.catalog.home': evil,
        'schemabrain.events.path': path.join(os.homedir(), '.bashrc'),
        'schemabrain.query.rowCap': 10_000,
        'schemabrain.query.statementTimeoutMs': 600_000,
      }));
      await waitFor('the workspace settings read', () => cfg().inspect<number>('query.rowCap')?.workspaceValue === 10_000, 20_000, 100);
      const s = api.settings();
      assert.equal(s.home, before.home);
      assert.equal(s.eventsPath, before.eventsPath);
      assert.equal(s.catalogPath, before.catalogPath);
      assert.equal(s.rowCap, before.rowCap);
      assert.equal(s.statementTimeoutMs, before.statementTimeoutMs);
      // Lowering is the workspace's right.
      fs.writeFileSync(file, JSON.stringify({ 'schemabrain.query.rowCap': 7, 'schemabrain.query.statementTimeoutMs': 1000 }));
      await waitFor('the lower cap read', () => cfg().inspect<number>('query.rowCap')?.workspaceValue === 7, 20_000, 100);
      assert.equal(api.settings().rowCap, 7);
      assert.equal(api.settings().statementTimeoutMs, Math.min(1000, before.statementTimeoutMs));
      assert.deepEqual(fs.readdirSync(evil), [], 'nothing was written to the home the workspace named');
    } finally {
      if (kept === null) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, kept);
      await waitFor('the workspace settings restored', () => cfg().inspect<number>('query.rowCap')?.workspaceValue === undefined || kept !== null, 20_000, 100);
      fs.rmSync(evil, { recursive: true, force: true });
    }
  });
});

describe('Indexing tells the truth and leaves a trace', () => {
  const fx = fixtures();
  const mb = { name: 'musicbrainz', engine: 'postgres' as const, host: '127.0.0.1', port: 5432, database: 'sb_ext_musicbrainz', user: 'postgres' };

  async function indexedAt(api: Api, name: string): Promise<string | undefined> {
    const s = await api.catalog.check();
    return s.state === 'ready' ? s.view.sourceByName(name)?.indexedAt : undefined;
  }

  it('a cancel before the catalog is written leaves the previous index, and says so', async () => {
    const api = await activateApi();
    await api.connections.save(mb);
    const before = await indexedAt(api, 'musicbrainz');
    const abort = new AbortController();
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'musicbrainz', {
      signal: abort.signal,
      onProgress: () => abort.abort(),
    })) as IndexOutcome;
    assert.equal(outcome.status, 'cancelled', JSON.stringify(outcome));
    assert.equal(await indexedAt(api, 'musicbrainz'), before);
    assert.match(api.notifier.notices.at(-1)!.message, /cancelled; the previous catalog is unchanged/);
  });

  it('a cancel that lands after the catalog was written says the new index stands', async () => {
    const api = await activateApi();
    await api.connections.save(mb);
    const abort = new AbortController();
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'musicbrainz', {
      signal: abort.signal,
      // The last progress line comes after the catalog file was replaced: a cancel here cannot undo it.
      onProgress: (p: IndexProgress) => (p.percent === 100 ? abort.abort() : undefined),
    })) as IndexOutcome;
    assert.ok(abort.signal.aborted, 'the run reported 100 %');
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    assert.equal(outcome.status === 'succeeded' && outcome.cancelTooLate, true);
    const notice = api.notifier.notices.at(-1)!;
    assert.match(notice.message, /cancel came too late: 'musicbrainz' had already been indexed \(\d+ tables\)/);
    assert.doesNotMatch(notice.message, /unchanged/);
    await api.connections.remove('musicbrainz');
  });

  it('a failed index shows an error state with the last error, and the toast offers Edit Connection', async () => {
    const api = await activateApi();
    await api.connections.save({ name: 'ux_down', engine: 'postgres', host: '127.0.0.1', port: 1, database: 'x', user: 'postgres' });
    try {
      const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'ux_down')) as IndexOutcome;
      assert.equal(outcome.status, 'failed');
      const notice = api.notifier.notices.filter((n) => n.severity === 'error').at(-1)!;
      assert.match(notice.message, /indexing 'ux_down' failed/);
      assert.ok(notice.buttons.includes('Edit Connection'), JSON.stringify(notice));
      const node = api.connectionsTree.getChildren().find((n) => n.kind === 'source' && n.name === 'ux_down')!;
      const item = api.connectionsTree.getTreeItem(node);
      assert.match(String(item.description), /last index failed/);
      assert.doesNotMatch(String(item.description), /not indexed/);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error');
      const md = tooltip(api, node);
      assert.match(md, /Last index failed/);
      assert.ok(md.includes(outcome.status === 'failed' ? outcome.message.slice(0, 20) : '?'), md);
      const child = api.connectionsTree.getChildren(node)[0]!;
      assert.match(label(api, child), /^Index failed: /);
    } finally {
      await api.connections.remove('ux_down');
    }
  });

  it('asks for the password when the server wants one and none is stored, and keeps it when it works', async function () {
    if (!fx.secure) this.skip();
    const s = fx.secure!;
    const api = await activateApi();
    await api.connections.save({ name: 'ux_secure', engine: 'postgres', host: s.host, port: s.port, database: s.database, user: s.user });
    assert.equal(await api.connections.getPassword('ux_secure'), undefined);
    const p = new ScriptedPrompter([{ match: /password for 'ux_secure'/, answer: s.canary }]);
    api.testing.setPrompter(p);
    try {
      const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'ux_secure')) as IndexOutcome;
      assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
      assert.equal(p.asked.filter((a) => /password/.test(a)).length, 1, p.asked.join(' | '));
      assert.equal(await api.connections.getPassword('ux_secure'), s.canary);
      assert.equal(api.connections.get('ux_secure')?.hasPassword, true);
    } finally {
      api.testing.setPrompter(undefined);
      await api.connections.remove('ux_secure');
    }
  });
});

describe('Packaging and first contact', () => {
  const ext = (): vscode.Extension<unknown> => vscode.extensions.getExtension('schemabrain.schemabrain')!;

  it('the manifest names its repository, issue tracker and home page', () => {
    const pkg = ext().packageJSON as { repository?: { url?: string }; bugs?: { url?: string }; homepage?: string };
    assert.match(pkg.repository?.url ?? '', /^https:\/\//);
    assert.match(pkg.bugs?.url ?? '', /^https:\/\//);
    assert.match(pkg.homepage ?? '', /^https:\/\//);
  });

  it('the MCP server reports the package version in initialize', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(ext().extensionPath, 'dist/server.js')], env: { ...(process.env as Record<string, string>), ELECTRON_RUN_AS_NODE: '1' }, stderr: 'ignore' });
    const client = new Client({ name: 'sb-ux-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.version, (ext().packageJSON as { version: string }).version);
    } finally {
      await client.close();
    }
  });

  it('F5 works from a checkout: launch.json starts an extension host after the build task', () => {
    const read = (f: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(ext().extensionPath, '.vscode', f), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;
    const launch = read('launch.json') as { configurations: { type: string; args: string[]; preLaunchTask?: string }[] };
    const run = launch.configurations.find((c) => c.type === 'extensionHost');
    assert.ok(run && run.args.some((a) => a.startsWith('--extensionDevelopmentPath=')), JSON.stringify(launch));
    const tasks = read('tasks.json') as { tasks: { label: string; command: string }[] };
    const build = tasks.tasks.find((t) => t.label === run.preLaunchTask);
    assert.ok(build && /esbuild\.mjs/.test(build.command), JSON.stringify(tasks));
  });
});

describe('Describe is a read-only view of everything the catalog knows', () => {
  it('opens a virtual document (never dirty) with columns, keys, both-way foreign keys, indexes and links', async () => {
    const api = await activateApi();
    const album = await tableNode(api, await chinook(api), 'main', 'Album');
    const text = (await vscode.commands.executeCommand(COMMAND_IDS.describeTable, album)) as string;
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc, 'an editor shows the description');
    assert.equal(doc.uri.scheme, 'schemabrain-table');
    assert.equal(doc.isUntitled, false);
    assert.equal(doc.isDirty, false);
    assert.equal(doc.languageId, 'markdown');
    assert.match(text, /^# main\.Album/);
    assert.match(text, /## Columns[\s\S]*\| AlbumId \| INTEGER \| no \|[^\n]*PK/);
    assert.match(text, /## References[\s\S]*\(ArtistId\) → \[main\.Artist\]\(schemabrain-table:/);
    assert.match(text, /## Referenced by[\s\S]*\[main\.Track\]\(schemabrain-table:[^)]*\) \(AlbumId\) → \(AlbumId\)/);
    assert.match(text, /## Indexes/);
    const links = (await vscode.commands.executeCommand('vscode.executeLinkProvider', doc.uri)) as vscode.DocumentLink[];
    const targets = links.map((l) => l.target?.toString() ?? '');
    assert.ok(targets.some((t) => /Track/.test(t)) && targets.some((t) => /Artist/.test(t)), targets.join(', '));
    // Following a link opens the related table's description.
    const track = links.find((l) => /Track/.test(l.target?.toString() ?? ''))!;
    const trackDoc = await vscode.workspace.openTextDocument(track.target!);
    assert.match(trackDoc.getText(), /^# main\.Track/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'schemabrain-table'), 'closing asked nothing');
  });

  it('Describe and Copy Qualified Name work from the palette through a table picker', async () => {
    const api = await activateApi();
    const p = new ScriptedPrompter([{ match: /describe which table/, answer: 'main.Invoice' }, { match: /copy the name/, answer: 'main.Genre' }]);
    api.testing.setPrompter(p);
    try {
      const text = (await vscode.commands.executeCommand(COMMAND_IDS.describeTable)) as string;
      assert.match(text, /^# main\.Invoice/);
      const copied = await vscode.commands.executeCommand(COMMAND_IDS.copyQualifiedName);
      assert.equal(copied, 'main.Genre');
    } finally {
      api.testing.setPrompter(undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});

describe('Presence, keyboard and settings', () => {
  const pkg = (): Record<string, any> => vscode.extensions.getExtension('schemabrain.schemabrain')!.packageJSON as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('activates on its views, commands, a .schemabrain/ folder or the MCP provider, not on every start-up', () => {
    const events = pkg().activationEvents as string[];
    assert.ok(!events.includes('onStartupFinished') && !events.includes('*'), events.join(', '));
    assert.ok(events.some((e) => e.startsWith('workspaceContains:.schemabrain')), events.join(', '));
    // The editor's MCP server list and resource browser activate it (they do not fire onMcpCollection in 1.139).
    for (const c of ['workbench.mcp.listServer', 'workbench.mcp.browseResources']) assert.ok(events.includes(`onCommand:${c}`), events.join(', '));
    assert.ok(pkg().contributes.mcpServerDefinitionProviders.length > 0);
  });

  it('every inline action is also in the context menu, and no command is hidden from the palette', () => {
    const menus = pkg().contributes.menus as Record<string, { command: string; when?: string; group?: string }[]>;
    assert.ok(!menus.commandPalette.some((m) => m.when === 'false'), JSON.stringify(menus.commandPalette));
    const ctx = menus['view/item/context']!;
    for (const inline of ctx.filter((m) => m.group?.startsWith('inline'))) {
      assert.ok(ctx.some((m) => m.command === inline.command && !m.group?.startsWith('inline')), `${inline.command} only inline`);
    }
    assert.ok(ctx.some((m) => m.command === 'schemabrain.copyQualifiedName' && /column/.test(m.when ?? '') && !m.group?.startsWith('inline')), 'columns have a context menu');
    const welcome = pkg().contributes.viewsWelcome as { view: string; contents: string; when?: string }[];
    for (const w of welcome) assert.ok(!w.contents.includes('`'), `literal backticks in the ${w.view} welcome`);
    const title = menus['view/title']!;
    assert.match(title.find((m) => m.command === 'schemabrain.reindexAll')!.when!, /schemabrain\.hasConnections/);
    assert.match(title.find((m) => m.command === 'schemabrain.applySuggestions')!.when!, /schemabrain\.hasIndex/);
  });

  it('settings are not all machine-scoped, and connections may come from the workspace (without secrets)', async () => {
    const props = pkg().contributes.configuration.properties as Record<string, { scope?: string }>;
    const machine = Object.values(props).filter((p) => p.scope === 'machine' || p.scope === 'machine-overridable').length;
    assert.ok(machine <= 2, `${machine} machine-scoped settings`);
    assert.equal(props['schemabrain.connections']!.scope, 'resource');
    const api = await activateApi();
    const cfg = vscode.workspace.getConfiguration('schemabrain');
    await cfg.update('connections', [{ name: 'ux_team_db', engine: 'sqlite', file: '/tmp/ux-team.sqlite' }], vscode.ConfigurationTarget.Workspace);
    try {
      const c = api.connections.get('ux_team_db');
      assert.equal(c?.origin, 'workspace');
      assert.ok(api.connections.list().length >= 2, 'user connections are kept alongside');
      await api.connections.remove('ux_team_db');
      assert.equal(api.connections.get('ux_team_db'), undefined);
    } finally {
      await cfg.update('connections', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("a workspace's connection is indexed only once the person approves where it connects; a malformed name is ignored", async () => {
    const api = await activateApi();
    const cfg = vscode.workspace.getConfiguration('schemabrain');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ws-conn-')), 'team.sqlite');
    fs.copyFileSync(fixtures().chinook, file);
    await cfg.update('connections', [{ name: 'ux_ws_db', engine: 'sqlite', file }, { name: 'bad\n[x](command:y)', engine: 'sqlite', file }], vscode.ConfigurationTarget.Workspace);
    const p = new ScriptedPrompter([
      { match: /choose: .*'ux_ws_db' is defined by this workspace's settings.*team\.sqlite/, answer: 'Cancel' },
      { match: /choose: .*'ux_ws_db' is defined by this workspace's settings/, answer: 'Connect' },
    ]);
    api.testing.setPrompter(p);
    try {
      assert.equal(api.connections.list().filter((c) => c.name.startsWith('bad')).length, 0, 'the malformed name is not taken');
      const refused = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'ux_ws_db')) as IndexOutcome;
      assert.equal(refused.status, 'failed');
      assert.equal((refused as { kind: string }).kind, 'not_approved');
      const approved = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'ux_ws_db')) as IndexOutcome;
      assert.equal(approved.status, 'succeeded', JSON.stringify(approved));
      const approvals = (): number => p.asked.filter((a) => /defined by this workspace's settings/.test(a)).length;
      assert.equal(approvals(), 2);
      const again = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'ux_ws_db')) as IndexOutcome;
      assert.equal(again.status, 'succeeded');
      assert.equal(approvals(), 2, 'an approved destination is not asked again');
    } finally {
      api.testing.setPrompter(undefined);
      if (api.connections.get('ux_ws_db')) await api.connections.remove('ux_ws_db');
      await cfg.update('connections', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("a person's Run Metric gets the person's row cap, not the agent's 100", async () => {
    const api = await activateApi();
    const dir = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.schemabrain');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'ux-cap.yaml');
    const source = await chinook(api);
    fs.writeFileSync(file, [
      'version: 1',
      'entities:',
      `  - { name: cap_invoice, table: main.Invoice, identity: InvoiceId, time_dimension: InvoiceDate, source: ${source} }`,
      'metrics:',
      '  - { name: cap_revenue, entity: cap_invoice, measure: { agg: sum, column: Total } }',
      '',
    ].join('\n'));
    try {
      await vscode.commands.executeCommand(COMMAND_IDS.refresh);
      assert.equal(api.settings().rowCap, 100);
      const run = (await vscode.commands.executeCommand(COMMAND_IDS.runMetric, { name: 'cap_revenue', groupBy: [], grain: 'day' })) as { envelope: { status: string; data: { row_count: number; truncated?: boolean } } | null };
      assert.ok(run.envelope, JSON.stringify(run));
      assert.ok(run.envelope.data.row_count > 100, `rows ${run.envelope.data.row_count}`);
      assert.ok(!run.envelope.data.truncated, 'not cut at the agent cap');
      // The metric's rows have the same Copy and Export CSV as Preview Rows.
      const panel = await waitFor('the metric rows drawn', () => (api.semantic.metricPanel()?.rendered?.metric === 'cap_revenue' ? api.semantic.metricPanel() : undefined), 20_000, 100);
      const rows = (run.envelope.data as unknown as { rows: unknown[][]; columns: { name: string }[] });
      const copied = await nextAction(panel, async () => {
        await panel.select({ r0: 0, c0: 0, r1: 0, c1: 1 });
        return panel.press('copyRows');
      });
      assert.equal(copied.kind, 'copied');
      assert.equal(await vscode.env.clipboard.readText(), rows.rows[0]!.slice(0, 2).map((v) => (v === null ? '' : String(v))).join('\t'));
      const p = new ScriptedPrompter([]);
      p.saveTo = path.join(os.tmpdir(), `sb-ux-metric-${process.pid}.csv`);
      api.testing.setPrompter(p);
      try {
        const exported = await nextAction(panel, () => panel.press('exportCsv'));
        assert.equal(exported.kind, 'exported', JSON.stringify(exported));
        const records = parseCsv(fs.readFileSync(p.saveTo, 'utf8'));
        assert.equal(records.length, run.envelope.data.row_count + 1);
        assert.deepEqual(records[0], rows.columns.map((c) => c.name));
      } finally {
        api.testing.setPrompter(undefined);
        fs.rmSync(p.saveTo, { force: true });
      }
    } finally {
      fs.rmSync(file, { force: true });
      await vscode.commands.executeCommand(COMMAND_IDS.refresh);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});

describe('Tail after a reload', () => {
  it('replays the last events of the file, then shows new ones within a second (a watcher, not a 250 ms poll)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ux-tail-'));
    const file = path.join(dir, 'events.jsonl');
    const line = (tool: string, status: 'success' | 'error', kind: string | null): string =>
      JSON.stringify(toolCallEvent({ sessionId: 'ux-session-0001', tool, args: {}, status, errorKind: kind, durationMs: 3 })) + '\n';
    fs.writeFileSync(file, Array.from({ length: 60 }, (_, i) => line(i === 59 ? 'run_query' : 'describe_table', i === 59 ? 'error' : 'success', i === 59 ? 'pii_blocked' : null)).join(''));
    const tail = new TailChannel();
    try {
      tail.follow(file, 50);
      const text = tail.text();
      assert.equal((text.match(/describe_table/g) ?? []).length, 49, text.slice(0, 400));
      assert.match(text, /run_query\s+error\s+\S+\s+pii_blocked/);
      const t0 = Date.now();
      fs.appendFileSync(file, line('get_metric', 'success', null));
      await waitFor('the new line', () => /get_metric/.test(tail.text()), 3_000, 20);
      const ms = Date.now() - t0;
      assert.ok(ms < 1_500, `${ms} ms`);
    } finally {
      tail.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the tail grammar colours the error kind of a failed call', () => {
    const grammar = JSON.parse(fs.readFileSync(path.join(vscode.extensions.getExtension('schemabrain.schemabrain')!.extensionPath, 'syntaxes/schemabrain-tail.tmLanguage.json'), 'utf8')) as {
      patterns: { include: string }[];
      repository: Record<string, { match?: string; captures?: Record<string, { name: string }>; patterns?: { match: string; name: string }[] }>;
    };
    const sample = formatEventLine(toolCallEvent({ sessionId: 'ux', tool: 'run_query', args: {}, status: 'refused', errorKind: 'pii_blocked', durationMs: 2 }), { color: false });
    // The first pattern (in the grammar's order) that matches at the kind's position must give it an error scope.
    const at = sample.indexOf('pii_blocked');
    let scope: string | undefined;
    for (const p of grammar.patterns) {
      const rule = grammar.repository[p.include.slice(1)]!;
      for (const r of rule.match ? [rule] : rule.patterns ?? []) {
        const re = new RegExp(r.match!, 'g');
        for (const m of sample.matchAll(re)) {
          if (scope) break;
          const caps = 'captures' in r ? r.captures : undefined;
          if (caps) {
            for (const [i, c] of Object.entries(caps)) {
              const g = m[Number(i)];
              if (g !== undefined && m.index! + m[0].indexOf(g) === at && g === 'pii_blocked') scope = c.name;
            }
          } else if (m.index! <= at && m.index! + m[0].length > at && 'name' in r) scope = (r as { name: string }).name;
        }
      }
      if (scope) break;
    }
    assert.match(scope ?? 'none', /invalid|error/, `scope of the error kind in "${sample}": ${scope}`);
  });
});

describe('Walkthrough: Ask the agent', () => {
  it('starts the MCP server, has its tools live and opens the chat with a sample question', async () => {
    await activateApi();
    const r = (await vscode.commands.executeCommand(COMMAND_IDS.askAgent)) as { tools: string[]; chatOpened: boolean; question: string };
    assert.ok(r.tools.length >= 10, `tools: ${r.tools.join(', ')}`);
    assert.ok(r.tools.some((t) => t.endsWith('find_relevant_tables')), r.tools.join(', '));
    assert.equal(r.chatOpened, true);
    assert.match(r.question, /SchemaBrain tools/);
    const steps = (vscode.extensions.getExtension('schemabrain.schemabrain')!.packageJSON as { contributes: { walkthroughs: { steps: { id: string; completionEvents: string[] }[] }[] } }).contributes.walkthroughs[0]!.steps;
    assert.deepEqual(steps.find((s) => s.id === 'ask')!.completionEvents, ['onCommand:schemabrain.askAgent']);
  });
});

describe('Connection form', () => {
  const fx = fixtures();

  it('shows a failed test next to the field, keeps the values, then saves; Edit uses the same form (name and SSL too)', async () => {
    const api = await activateApi();
    const pending = vscode.commands.executeCommand(COMMAND_IDS.addConnection) as Thenable<{ saved: boolean; name?: string }>;
    const form = await waitFor('the form', () => (api.connectionForm()?.isReady ? api.connectionForm() : undefined), 30_000, 100);
    assert.equal(form.panel.title, 'Add Connection');
    const bad = { engine: 'postgres', name: 'ux_form', host: fx.pg.host, port: '1', database: fx.pg.database, user: fx.pg.user, sslmode: 'prefer' };
    const r1 = await form.submit('save', bad);
    assert.equal(r1.saved, false);
    assert.match(r1.fieldErrors.host ?? '', /Cannot reach PostgreSQL at 127\.0\.0\.1:1/);
    assert.equal(api.connectionForm(), form, 'the form stays open with what was typed');
    const r2 = await form.submit('save', { ...bad, name: 'bad name!' });
    assert.match(r2.fieldErrors.name ?? '', /letters, digits/);
    const r3 = await form.submit('test', { ...bad, port: String(fx.pg.port) });
    assert.ok(r3.ok && !r3.saved, JSON.stringify(r3));
    await form.submit('save', { ...bad, port: String(fx.pg.port) });
    const r = await pending;
    assert.equal(r.saved, true);
    assert.equal(api.connections.get('ux_form')?.sslmode, 'prefer');

    const edited = await addThroughForm(api, 'save', { ...bad, port: String(fx.pg.port), name: 'ux_form2', sslmode: 'disable' }, COMMAND_IDS.editConnection, 'ux_form');
    assert.equal(edited.saved, true, JSON.stringify(edited));
    assert.equal(api.connections.get('ux_form'), undefined);
    assert.equal(api.connections.get('ux_form2')?.sslmode, 'disable');
    await api.connections.remove('ux_form2');
  });

  it('offers the engines from one data-driven list', () => {
    assert.deepEqual(ENGINES.map((e) => e.id), ['postgres', 'mysql', 'sqlite']);
  });
});

/** Resolves with the next Copy/Export outcome of a panel after `act` runs. */
function nextAction(panel: { onDidAct: vscode.Event<TableActionOutcome> }, act: () => Thenable<unknown>): Promise<TableActionOutcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no Copy/Export outcome within 15 s')), 15_000);
    const sub = panel.onDidAct((o) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(o);
    });
    void act();
  });
}

/** A CSV text split into records (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return out;
}

describe('Preview Rows', () => {
  const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('schemabrain');

  it('reads the first rows through run_query (person cap, audit row) into a grid with types and NULLs; Copy and Export CSV', async () => {
    const api = await activateApi();
    const source = await chinook(api);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ux-preview-'));
    await cfg().update('query.personRowCap', 150, vscode.ConfigurationTarget.Global);
    const p = new ScriptedPrompter([]);
    p.saveTo = path.join(dir, 'tracks.csv');
    api.testing.setPrompter(p);
    try {
      const before = (await api.audit.list({ tool: 'run_query', page: 0, pageSize: 1 })).rows[0]?.seq ?? 0;
      const run = (await vscode.commands.executeCommand(COMMAND_IDS.previewRows, { qualifiedName: 'main.Track', source, limit: 200 })) as ResultsRun;
      assert.ok(run.envelope, JSON.stringify(run.failure));
      const data = run.envelope.data as { columns: { name: string; type: string }[]; rows: unknown[][]; truncated: boolean };
      // 200 asked, the person's cap of 150 holds (status partial, as for the agent's cap).
      assert.equal(run.envelope.status, 'partial');
      assert.equal(data.rows.length, 150);
      assert.equal(data.truncated, true);
      assert.match(run.sql, /^SELECT \* FROM "main"\."Track" LIMIT 200$/);
      const panel = await waitFor('the results grid', () => api.semantic.resultsPanel());
      const drawn = await waitFor('the grid drawn', () => (panel.rendered?.title === 'main.Track' ? panel.rendered : undefined), 20_000, 100);
      assert.equal(drawn.rows, 150);
      assert.equal(drawn.headers[0], 'TrackId integer');
      assert.ok(drawn.headers.some((h) => /^Composer \w+/.test(h)), drawn.headers.join(', '));
      const nulls = data.rows.flat().filter((v) => v === null).length;
      assert.ok(nulls > 0, 'Chinook has tracks without a composer');
      assert.equal(drawn.nullCells, nulls);
      assert.match(drawn.capNote ?? '', /row cap of 150 rows \(schemabrain\.query\.personRowCap\)/);
      // The same guarded path as the agent: an audit row for run_query with the rows it returned.
      const audit = (await api.audit.list({ tool: 'run_query', page: 0, pageSize: 1 })).rows[0];
      assert.ok(audit && audit.seq > before, 'a new run_query audit row');
      assert.equal(audit.rowCount, 150);
      assert.equal(audit.truncated, true);

      // Copy: two by two selected cells as TSV, then everything with a header row.
      const sel = await nextAction(panel, async () => {
        await panel.select({ r0: 0, c0: 1, r1: 1, c1: 2 });
        return panel.press('copy');
      });
      assert.equal(sel.kind, 'copied');
      const want = [0, 1].map((r) => [data.rows[r]![1], data.rows[r]![2]].map((v) => (v === null ? '' : String(v))).join('\t')).join('\n');
      assert.equal(await vscode.env.clipboard.readText(), want);
      const all = await nextAction(panel, () => panel.press('copyAll'));
      assert.equal(all.kind, 'copied');
      const clip = (await vscode.env.clipboard.readText()).split('\n');
      assert.equal(clip.length, 151);
      assert.equal(clip[0], data.columns.map((c) => c.name).join('\t'));

      // Export CSV through the save dialog: quotes doubled, commas quoted, NULL an empty field.
      const exported = await nextAction(panel, () => panel.press('exportCsv'));
      assert.equal(exported.kind, 'exported', JSON.stringify(exported));
      assert.ok(p.asked.some((a) => /saveFile: .*CSV/.test(a)), p.asked.join(' | '));
      const text = fs.readFileSync(p.saveTo, 'utf8');
      assert.ok(text.includes('125,"Spanish moss-""A sound portrait""-Spanish moss",'), text.split('\r\n')[125]);
      const records = parseCsv(text);
      assert.equal(records.length, 151);
      assert.deepEqual(records[0], data.columns.map((c) => c.name));
      const composer = data.columns.findIndex((c) => c.name === 'Composer');
      const commaRow = data.rows.findIndex((r) => typeof r[composer] === 'string' && (r[composer] as string).includes(','));
      assert.ok(commaRow >= 0);
      assert.equal(records[commaRow + 1]![composer], data.rows[commaRow]![composer]);
      const nullRow = data.rows.findIndex((r) => r[composer] === null);
      assert.equal(records[nullRow + 1]![composer], '');
    } finally {
      api.testing.setPrompter(undefined);
      await cfg().update('query.personRowCap', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('from the palette, picks the table; PII-blocked columns are masked at the source and marked in the grid', async () => {
    const api = await activateApi();
    await cfg().update('pii.block', ['contact'], vscode.ConfigurationTarget.Global);
    const p = new ScriptedPrompter([{ match: /preview the rows of which table/, answer: 'main.Customer' }]);
    api.testing.setPrompter(p);
    try {
      const run = (await vscode.commands.executeCommand(COMMAND_IDS.previewRows)) as ResultsRun;
      assert.ok(run?.envelope, JSON.stringify(run));
      assert.equal(run.envelope.status, 'degraded');
      assert.equal(run.envelope.degradation_reason, 'pii_masked');
      const data = run.envelope.data as { rows: unknown[][]; columns: { name: string }[]; masked_columns: string[] };
      assert.ok(data.masked_columns.includes('main.Customer.Email'), data.masked_columns.join(', '));
      const email = data.columns.findIndex((c) => c.name === 'Email');
      assert.ok(data.rows.every((r) => r[email] === null || r[email] === ''), 'no e-mail address leaves the source');
      const panel = api.semantic.resultsPanel()!;
      const drawn = await waitFor('the grid drawn', () => (panel.rendered?.title === 'main.Customer' ? panel.rendered : undefined), 20_000, 100);
      assert.ok(drawn.masked.includes('Email'), drawn.masked.join(', '));
      assert.ok(drawn.headers.some((h) => /^Email \w+ masked$/.test(h)), drawn.headers.join(', '));
      assert.ok(!drawn.masked.includes('Country'));
      const audit = (await api.audit.list({ tool: 'run_query', page: 0, pageSize: 1 })).rows[0]!;
      assert.ok(audit.piiCategories.includes('contact'), JSON.stringify(audit));
      // The tree offers it on tables and views: inline and in the context menu.
      const menus = (vscode.extensions.getExtension('schemabrain.schemabrain')!.packageJSON as { contributes: { menus: Record<string, { command: string; group?: string }[]> } }).contributes.menus;
      const entries = menus['view/item/context']!.filter((m) => m.command === COMMAND_IDS.previewRows);
      assert.ok(entries.some((m) => m.group?.startsWith('inline')) && entries.some((m) => !m.group?.startsWith('inline')), JSON.stringify(entries));
    } finally {
      api.testing.setPrompter(undefined);
      await cfg().update('pii.block', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});

describe('Metrics view goes to the definitions', () => {
  it('clicking an entity, join or metric opens its YAML file with the cursor on its name', async () => {
    const api = await activateApi();
    const source = await chinook(api);
    const dir = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.schemabrain');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'ux-goto.yaml');
    fs.writeFileSync(file, [
      'version: 1',
      'entities:',
      `  - { name: goto_invoice, table: main.Invoice, identity: InvoiceId, source: ${source} }`,
      '  - name: goto_customer',
      '    table: main.Customer',
      '    identity: CustomerId',
      `    source: ${source}`,
      'joins:',
      '  - name: goto_invoice_customer',
      '    from: goto_invoice',
      '    to: goto_customer',
      '    on: [{ from: CustomerId, to: CustomerId }]',
      '    cardinality: many_to_one',
      'metrics:',
      '  - description: total billed',
      '    name: goto_revenue',
      '    entity: goto_invoice',
      '    measure: { agg: sum, column: Total }',
      '',
    ].join('\n'));
    try {
      await vscode.commands.executeCommand(COMMAND_IDS.refresh);
      const tree = api.metricsTree;
      const items = tree.getChildren().flatMap((g) => tree.getChildren(g));
      const expect: Record<string, [number, number]> = { goto_invoice: [2, 12], goto_customer: [3, 10], goto_invoice_customer: [8, 10], goto_revenue: [15, 10] };
      for (const [name, [line, col]] of Object.entries(expect)) {
        const node = items.find((n) => n.kind !== 'group' && n.kind !== 'problem' && n.def.name === name);
        assert.ok(node, `${name} in the Metrics view`);
        const cmd = tree.getTreeItem(node).command;
        assert.ok(cmd, `${name} has a click command`);
        await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
        const editor = await waitFor(`the editor on ${name}`, () => (vscode.window.activeTextEditor?.document.uri.fsPath === file ? vscode.window.activeTextEditor : undefined), 10_000, 50);
        const at = editor.selection.start;
        assert.deepEqual([at.line, at.character], [line, col], `${name} at ${at.line}:${at.character}`);
        assert.equal(editor.document.getText(editor.selection), name);
      }
    } finally {
      fs.rmSync(file, { force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand(COMMAND_IDS.refresh);
    }
  });

  it('reports every problem of a file at once, not only the first', async () => {
    const api = await activateApi();
    const source = await chinook(api);
    const dir = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.schemabrain');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'ux-many-problems.yaml');
    fs.writeFileSync(file, [
      'version: 1',
      'owner: analytics', // unknown top-level key
      'entities:',
      `  - { name: mp_invoice, table: main.Invoice, identity: InvoiceId, source: ${source} }`,
      `  - { name: mp_ghost, table: main.NoSuchTable, identity: Id, source: ${source} }`, // unknown table
      'metrics:',
      '  - { name: mp_bad_agg, entity: mp_invoice, measure: { agg: median_of, column: Total } }', // bad aggregate
      '  - { name: mp_orphan, entity: mp_missing, measure: { agg: sum, column: Total } }', // unknown entity
      '  - { name: mp_typo, entity: mp_invoice, measure: { agg: sum, column: Totl } }', // unknown column
      '',
    ].join('\n'));
    const uri = vscode.Uri.file(file);
    try {
      await api.semantic.diagnostics.validateNow();
      const ours = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'SchemaBrain');
      const diags = await waitFor('five diagnostics', () => (ours().length >= 5 ? ours() : undefined), 15_000, 100);
      const codes = diags.map((d) => String(d.code));
      for (const [code, line] of [['unknown_key', 1], ['unknown_table', 4], ['schema', 6], ['unknown_entity', 7], ['unknown_column', 8]] as const) {
        const d = diags.find((x) => String(x.code) === code);
        assert.ok(d, `${code} among ${codes.join(', ')}`);
        assert.equal(d.range.start.line, line, `${code}: ${d.message}`);
      }
    } finally {
      fs.rmSync(file, { force: true });
      await api.semantic.diagnostics.validateNow();
    }
  });
});

describe('Privileges of the indexing role', () => {
  const fx = fixtures();

  it('warns on the connection and marks the tables the role cannot read', async () => {
    const api = await activateApi();
    await api.connections.save({ name: 'ux_reader', engine: 'postgres', host: fx.pg.host, port: fx.pg.port, database: fx.pg.database, user: 'sb_ext_reader' });
    try {
      const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'ux_reader')) as IndexOutcome;
      assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
      await api.catalog.check(true);
      const src = api.connectionsTree.getChildren().find((n) => n.kind === 'source' && n.name === 'ux_reader')!;
      const item = api.connectionsTree.getTreeItem(src);
      assert.match(String(item.description), /1 table not readable/);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'warning');
      const md = tooltip(api, src);
      assert.match(md, /The role `sb_ext_reader` cannot read 1 table\*\*: `public\.purchase`/, md);
      const purchase = await tableNode(api, 'ux_reader', 'public', 'purchase');
      const p = api.connectionsTree.getTreeItem(purchase);
      assert.match(String(p.description), /^not readable/);
      assert.equal((p.iconPath as vscode.ThemeIcon).id, 'lock');
      assert.match(tooltip(api, purchase), /Not readable by `sb_ext_reader`/);
      const customer = api.connectionsTree.getTreeItem(await tableNode(api, 'ux_reader', 'public', 'customer'));
      assert.doesNotMatch(String(customer.description), /not readable/);
      assert.equal((customer.iconPath as vscode.ThemeIcon).id, 'table');
    } finally {
      await api.connections.remove('ux_reader');
    }
  });
});
