// Browser UI suite: playwright-core drives the real VS Code workbench (code-server) in headless Chromium.
// Bundled to dist/test/e2e.mjs and run by scripts/vscode/run-tests.mjs with the dev extension loaded, SCHEMABRAIN_HOME
// holding Chinook and MusicBrainz indexed by the real CLI, and both connections in the user settings.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpUiTests } from './mcp-ui';
import { palette } from './palette';

interface Ctx {
  readonly page: Page;
  readonly log: (...m: unknown[]) => void;
  readonly shots: string;
  readonly root: string;
  readonly fixtures: { home: string; workspace: string; env: Record<string, string> };
}

interface Result {
  title: string;
  state: 'passed' | 'failed' | 'skipped';
  err?: string;
  ms?: number;
}

/** Collapses the Metrics and Audit panes so the Connections tree gets the height (rows are virtualised). */
async function focusConnectionsPane(page: Page): Promise<void> {
  for (const title of ['Metrics', 'Audit']) {
    const header = page.locator('.pane-header', { hasText: new RegExp(`^${title}`) }).first();
    if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
  }
}

function row(page: Page, text: string | RegExp) {
  return page.locator('.monaco-list-row', { hasText: text }).first();
}

/** One tool call through the real MCP server bundle, as an agent would make it (writes events and audit rows). */
async function callTool(ctx: Ctx, tool: string, args: Record<string, unknown>): Promise<string> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ctx.root, 'dist/server.js')],
    env: { ...(process.env as Record<string, string>), ...ctx.fixtures.env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'sb-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = await client.callTool({ name: tool, arguments: args });
    return JSON.stringify(r.structuredContent ?? r.content);
  } finally {
    await client.close();
  }
}

export default async function run(ctx: Ctx): Promise<{ results: Result[]; bench: Record<string, number> }> {
  const { page, log, shots } = ctx;
  const results: Result[] = [];
  const bench: Record<string, number> = {};
  const shot = (name: string) => page.screenshot({ path: path.join(shots, `e2e-${name}.png`) }).catch(() => undefined);
  const grep = process.env.SCHEMABRAIN_VSCODE_GREP ? new RegExp(process.env.SCHEMABRAIN_VSCODE_GREP) : undefined;
  const test = async (title: string, fn: () => Promise<void>) => {
    if (grep && !grep.test(title)) {
      results.push({ title, state: 'skipped' });
      return;
    }
    const t0 = Date.now();
    try {
      await fn();
      results.push({ title, state: 'passed', ms: Date.now() - t0 });
      log(`  ✔ ${title} (${Date.now() - t0} ms)`);
    } catch (e) {
      results.push({ title, state: 'failed', err: (e as Error).message.split('\n')[0], ms: Date.now() - t0 });
      log(`  ✗ ${title}: ${(e as Error).message.split('\n')[0]}`);
      await shot(`failed-${title.replace(/\W+/g, '-').slice(0, 40)}`);
    }
  };

  await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 90_000 });

  await test('the SchemaBrain container opens from the activity bar and lists the connections', async () => {
    const icon = page.locator('.part.activitybar .action-item a[aria-label^="SchemaBrain"], .part.activitybar li[aria-label^="SchemaBrain"]').first();
    await icon.waitFor({ timeout: 60_000 });
    await icon.click();
    await row(page, 'chinook').waitFor({ timeout: 30_000 });
    await row(page, 'musicbrainz').waitFor({ timeout: 10_000 });
    assert.match(await row(page, 'chinook').innerText(), /SQLite · 11 tables/);
    await page.locator('.statusbar-item', { hasText: /SchemaBrain: \d+ sources?/ }).first().waitFor({ timeout: 10_000 });
    await shot('01-container');
  });

  await test('a connection expands down to columns with type, key and FK', async () => {
    await focusConnectionsPane(page);
    await row(page, /^chinook/).click();
    await row(page, /^main/).click();
    await row(page, /^Track\b/).click();
    const albumId = row(page, /^AlbumId/);
    await albumId.waitFor({ timeout: 10_000 });
    assert.match(await albumId.innerText(), /INTEGER.*FK → Album/i);
    assert.match(await row(page, /^TrackId/).innerText(), /PK/);
    // The hover a person reads: names in code spans, without Markdown escapes showing.
    await albumId.hover();
    const hover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: /References/ }).first();
    await hover.waitFor({ timeout: 10_000 });
    const text = await hover.innerText();
    assert.match(text, /References main\.Album\(AlbumId\)/, text);
    assert.ok(!text.includes('\\'), `backslashes in the hover: ${text}`);
    await shot('02-expanded-columns');
    await page.mouse.move(5, 5);
    await row(page, /^chinook/).click();
  });

  await test('expanding the 375-table MusicBrainz schema renders its tables', async () => {
    await row(page, /^musicbrainz/).click();
    const schemaRow = row(page, /^musicbrainz\s*\d+ relations/);
    await schemaRow.waitFor({ timeout: 10_000 });
    // Click to first table row painted, three times (expand, collapse, expand…); the median goes to the bench.
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      await schemaRow.click();
      await row(page, /^alternative_medium\b/).waitFor({ timeout: 10_000 });
      times.push(Date.now() - t0);
      if (i < 2) {
        await schemaRow.click();
        await row(page, /^alternative_medium\b/).waitFor({ state: 'hidden', timeout: 10_000 });
      }
    }
    bench.expand375UiMsRuns = times.length;
    bench.expand375UiMsMedian = [...times].sort((a, b) => a - b)[1]!;
    bench.expand375UiMsMax = Math.max(...times);
    const text = await schemaRow.innerText();
    const n = Number(/(\d+) relations/.exec(text)?.[1] ?? 0);
    bench.expand375UiRelations = n;
    assert.ok(n >= 365, text);
    await shot('03-musicbrainz-expanded');
    await schemaRow.click();
  });

  await test('Index Connection from the palette shows progress and finishes', async () => {
    await palette(page, 'SchemaBrain: Index Connection');
    await page.locator('.quick-input-widget', { hasText: 'index which connection' }).waitFor({ timeout: 10_000 });
    await page.keyboard.type('musicbrainz');
    const choice = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'musicbrainz' }).first();
    await choice.waitFor({ timeout: 10_000 });
    await choice.click();
    const t0 = Date.now();
    await page.locator('.statusbar-item', { hasText: /indexing musicbrainz/ }).first().waitFor({ timeout: 15_000 });
    await page.getByText(/SchemaBrain: indexing 'musicbrainz'/).first().waitFor({ timeout: 15_000 });
    await shot('04-index-progress');
    await page.getByText(/indexed 'musicbrainz' \(\d+ tables\)/).first().waitFor({ timeout: 90_000 });
    bench.indexMusicbrainzUiMs = Date.now() - t0;
    await shot('05-index-done');
  });

  await test('a tool call appears as a line in the tail output channel', async () => {
    await palette(page, 'SchemaBrain: Show Tail');
    await page.locator('.part.panel').first().waitFor({ timeout: 10_000 });
    const envelope = await callTool(ctx, 'find_relevant_tables', { query: 'tracks of an album' });
    assert.match(envelope, /"status":"(success|empty|partial)"/);
    await page.locator('.part.panel', { hasText: /find_relevant_tables\s+(success|empty|partial)/ }).first().waitFor({ timeout: 15_000 });
    await shot('06-tail-line');
  });

  await test('the audit panel opens, lists calls and filters by tool and status', async () => {
    await callTool(ctx, 'list_indexed_schemas', {});
    await palette(page, 'SchemaBrain: Open Audit Panel');
    const frame = await waitForFrame(page, (f) => f.locator('#rows').count().then((c) => c > 0));
    await frame.locator('#rows tbody tr').first().waitFor({ timeout: 15_000 });
    const all = await frame.locator('#rows tbody tr').count();
    assert.ok(all >= 2, `rows ${all}`);
    await frame.locator('#tool').selectOption('list_indexed_schemas');
    // Polled through locators: the panel's CSP forbids the eval that waitForFunction(string) needs.
    const toolCells = frame.locator('#rows tbody tr td:nth-child(3)');
    for (let i = 0; i < 40; i++) {
      const cells = await toolCells.allInnerTexts();
      if (cells.length > 0 && cells.every((c) => c === 'list_indexed_schemas')) break;
      await page.waitForTimeout(250);
    }
    const filtered = await frame.locator('#rows tbody tr').count();
    assert.ok(filtered >= 1 && filtered < all, `${filtered} of ${all}`);
    await frame.locator('#status').selectOption('refused');
    await frame.locator('#empty').waitFor({ state: 'visible', timeout: 10_000 });
    await frame.locator('#status').selectOption('');
    await frame.locator('#rows tbody tr').first().click();
    await frame.locator('#details').waitFor({ state: 'visible' });
    await frame.locator('#verify').click();
    await frame.locator('#verification.ok').waitFor({ timeout: 15_000 });
    assert.match(await frame.locator('#verification').innerText(), /Audit chain intact/);
    await shot('07-audit-panel');
  });

  await test('the connection form works from the keyboard and shows a failed test next to the field', async () => {
    await palette(page, 'SchemaBrain: Add Connection');
    const frame = await waitForFrame(page, (f) => f.locator('#form').count().then((c) => c > 0), 30_000);
    await frame.locator('#name').click();
    await page.keyboard.type('e2e_form');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1');
    await shot('12-connection-form');
    await page.keyboard.press('Enter');
    await frame.locator('#error-host', { hasText: /Cannot reach PostgreSQL at 127\.0\.0\.1:1/ }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('#name').inputValue(), 'e2e_form', 'the values stay after a failed test');
    assert.equal(await frame.locator('#port').inputValue(), '1');
    assert.equal(await frame.locator('#host').getAttribute('aria-invalid'), 'true');
    await shot('13-connection-form-error');
    await page.keyboard.press('Escape');
    await frame.locator('#form').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  });

  await test('Run Metric from the Metrics view draws the result chart', async () => {
    await runMetricFromView(ctx, shot);
  });

  await test('Preview Rows from the palette draws the rows grid with types, NULLs and cell selection', async () => {
    await previewRowsFromPalette(ctx);
  });

  await test('writes the README screenshots', async () => {
    await readmeScreenshots(ctx);
  });

  // Last: it adds a PostgreSQL source to the catalog the views above show.
  await mcpUiTests(ctx, test, shot);

  return { results, bench };
}

export type Theme = 'light' | 'dark';
/**
 * The editor's default pair (VS Code 1.139). The runner starts the workbench with `window.autoDetectColorScheme`
 * and these as the preferred light and dark themes; the pictures switch between them by emulating the system colour
 * scheme (code-server's web client does not apply a later change of `workbench.colorTheme` in the settings file, and
 * its theme picker waits on a Marketplace search offline).
 */
export const THEME_IDS: Record<Theme, string> = { light: 'Light 2026', dark: 'Dark 2026' };
let currentTheme: Theme = 'light';

/** Switches to `theme` and waits until the workbench is painted in it (the side bar's background). */
async function setTheme(ctx: Ctx, theme: Theme): Promise<void> {
  const isDark = async (): Promise<boolean | undefined> => {
    const bg = (await ctx.page.locator('.part.sidebar, .part.activitybar').first().evaluate((e) =>
      (globalThis as unknown as { getComputedStyle(x: unknown): { backgroundColor: string } }).getComputedStyle(e).backgroundColor).catch(() => '')) as string;
    const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(bg);
    return rgb ? (Number(rgb[1]) + Number(rgb[2]) + Number(rgb[3])) / 3 < 128 : undefined;
  };
  await ctx.page.emulateMedia({ colorScheme: theme });
  for (let i = 0; i < 40 && (await isDark()) !== (theme === 'dark'); i++) await ctx.page.waitForTimeout(250);
  if ((await isDark()) !== (theme === 'dark')) throw new Error(`the workbench did not switch to ${THEME_IDS[theme]}`);
  currentTheme = theme;
  // Webviews receive the new theme's variables by message: give them a moment to repaint.
  await ctx.page.waitForTimeout(500);
}

/**
 * Writes media/readme/<name>-light.png and <name>-dark.png of the screen as it is now, the current theme first (one
 * switch per picture); `prepare` runs before each (a hover that the repaint dismissed, for instance).
 */
async function shotBothThemes(ctx: Ctx, name: string, prepare?: () => Promise<void>): Promise<string[]> {
  const dir = path.join(ctx.root, 'media', 'readme');
  fs.mkdirSync(dir, { recursive: true });
  const out: string[] = [];
  for (const theme of currentTheme === 'dark' ? (['dark', 'light'] as const) : (['light', 'dark'] as const)) {
    await setTheme(ctx, theme);
    if (prepare) await prepare();
    const f = path.join(dir, `${name}-${theme}.png`);
    await ctx.page.screenshot({ path: f });
    out.push(f);
  }
  return out;
}

/**
 * The README's pictures, from the product as it is now, in the light and the dark theme: the Connections tree, the
 * audit panel, a table profile, the rows grid, the connection form and the agent's chat, into media/readme/ (the
 * metric chart is taken where that test draws it).
 */
async function readmeScreenshots(ctx: Ctx): Promise<void> {
  const { page } = ctx;
  const written: string[] = [];
  await page.keyboard.press('Escape');
  await palette(page, 'View: Close All Editors');
  await focusPane(page, 'Connections');
  if (!(await row(page, /^Track\b/).isVisible().catch(() => false))) {
    if (!(await row(page, /^main/).isVisible().catch(() => false))) await row(page, /^chinook/).click();
    await row(page, /^main/).click();
    await row(page, /^Track\b/).click();
  }
  await row(page, /^AlbumId/).waitFor({ timeout: 10_000 });
  written.push(...(await shotBothThemes(ctx, 'connections', async () => {
    await page.mouse.move(5, 5);
    await row(page, /^AlbumId/).hover();
    await page.locator('.workbench-hover, .monaco-hover').filter({ hasText: /References/ }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
  })));
  await page.mouse.move(5, 5);

  await palette(page, 'SchemaBrain: Open Audit Panel');
  const audit = await waitForFrame(page, (f) => f.locator('#rows tbody tr').count().then((c) => c > 0));
  await audit.locator('#rows tbody tr').first().click();
  written.push(...(await shotBothThemes(ctx, 'audit')));

  await palette(page, 'View: Close All Editors');
  await palette(page, 'SchemaBrain: Profile Table');
  await page.keyboard.type('main.Invoice');
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'main.Invoice' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await waitForFrame(page, (f) => f.locator('text=/findings/i').count().then((c) => c > 0), 60_000).catch(() => undefined);
  await page.waitForTimeout(500);
  written.push(...(await shotBothThemes(ctx, 'profile')));

  await palette(page, 'View: Close All Editors');
  await palette(page, 'SchemaBrain: Preview Rows');
  await page.locator('.quick-input-widget input').first().fill('main.Customer');
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'main.Customer' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const grid = await waitForFrame(page, (f) => f.locator('#grid tbody tr').count().then((c) => c > 0), 60_000);
  await grid.locator('#grid tbody tr:nth-child(2) td').nth(1).click();
  await grid.locator('#grid tbody tr:nth-child(4) td').nth(3).click({ modifiers: ['Shift'] });
  written.push(...(await shotBothThemes(ctx, 'results')));

  await palette(page, 'View: Close All Editors');
  await palette(page, 'SchemaBrain: Add Connection');
  const form = await waitForFrame(page, (f) => f.locator('#form').count().then((c) => c > 0), 30_000);
  await form.locator('#name').fill('analytics');
  written.push(...(await shotBothThemes(ctx, 'connection-form')));
  await palette(page, 'View: Close All Editors');

  await palette(page, 'SchemaBrain: Ask the Agent');
  await page.locator('.interactive-input-part, .chat-input-container').first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  await page.waitForTimeout(2000);
  written.push(...(await shotBothThemes(ctx, 'agent')));
  await setTheme(ctx, 'light');
  assert.equal(written.length, 12, written.join(', '));
  for (const f of written) assert.ok(fs.statSync(f).size > 10_000, `${f} is a real picture`);
}

/**
 * Preview Rows from the palette, picking main.Invoice: the grid shows the first 100 rows with column types, NULL
 * cells drawn apart, and a Shift+click selection that Copy puts on the clipboard (the status bar confirms it).
 */
async function previewRowsFromPalette(ctx: Ctx): Promise<void> {
  const { page } = ctx;
  await page.keyboard.press('Escape');
  await palette(page, 'View: Close All Editors');
  await palette(page, 'SchemaBrain: Preview Rows');
  await page.locator('.quick-input-widget', { hasText: 'preview the rows of which table' }).waitFor({ timeout: 10_000 });
  await page.locator('.quick-input-widget input').first().fill('main.Invoice');
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: /^main\.Invoice(?!Line)/ }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const frame = await waitForFrame(page, (f) => f.locator('#grid tbody tr').count().then((c) => c > 0), 60_000);
  assert.equal(await frame.locator('#grid tbody tr').count(), 100);
  assert.equal(await frame.locator('#title').innerText(), 'main.Invoice');
  const header = await frame.locator('#grid thead th').nth(1).innerText();
  assert.match(header, /InvoiceId\s+integer/i);
  // BillingState is empty for most countries: NULL cells are drawn as a marked NULL, not as empty text.
  assert.ok((await frame.locator('#grid td .null').count()) > 0, 'NULL cells are marked');
  await frame.locator('#grid tbody tr:nth-child(1) td').nth(0).click();
  await frame.locator('#grid tbody tr:nth-child(2) td').nth(1).click({ modifiers: ['Shift'] });
  assert.equal(await frame.locator('#grid td.selected').count(), 4);
  assert.match(await frame.locator('#selection').innerText(), /4 cells selected/);
  await frame.locator('#copy').click();
  await page.locator('.statusbar-item', { hasText: /Copied 4 cells/ }).first().waitFor({ timeout: 10_000 });
  await shot(ctx, '14-preview-rows');
}

async function shot(ctx: Ctx, name: string): Promise<void> {
  await ctx.page.screenshot({ path: path.join(ctx.shots, `e2e-${name}.png`) }).catch(() => undefined);
}

/** Opens only the named pane of the SchemaBrain container (the others collapse, rows are virtualised). */
async function focusPane(page: Page, open: string): Promise<void> {
  for (const title of ['Connections', 'Metrics', 'Audit']) {
    const header = page.locator('.pane-header', { hasText: new RegExp(`^${title}`) }).first();
    const expanded = (await header.getAttribute('aria-expanded')) === 'true';
    if (expanded !== (title === open)) await header.click();
  }
}

/**
 * Writes a small definitions file for the indexed Chinook, reloads the Metrics view, runs the metric from its
 * inline action through the two pickers, and waits for the chart the webview draws.
 */
async function runMetricFromView(ctx: Ctx, shot: (name: string) => Promise<unknown>): Promise<void> {
  const { page } = ctx;
  const dir = path.join(ctx.fixtures.workspace, '.schemabrain');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'e2e-metrics.yaml');
  fs.writeFileSync(file, [
    'version: 1',
    'entities:',
    '  - { name: e2e_invoice, table: main.Invoice, identity: InvoiceId, time_dimension: InvoiceDate, source: chinook }',
    '  - { name: e2e_customer, table: main.Customer, identity: CustomerId, source: chinook }',
    'joins:',
    '  - { name: e2e_invoice_customer, from: e2e_invoice, to: e2e_customer, on: [{ from: CustomerId, to: CustomerId }], cardinality: many_to_one }',
    'metrics:',
    '  - { name: e2e_revenue, entity: e2e_invoice, measure: { agg: sum, column: Total } }',
    '',
  ].join('\n'));
  try {
    await palette(page, 'SchemaBrain: Refresh');
    await focusPane(page, 'Metrics');
    const metric = row(page, /^e2e_revenue/);
    await metric.waitFor({ timeout: 15_000 });
    await metric.hover();
    await metric.locator('.action-label[aria-label="Run Metric"]').click();
    const quick = page.locator('.quick-input-widget');
    await quick.filter({ hasText: "break 'e2e_revenue' down by" }).waitFor({ timeout: 10_000 });
    await page.keyboard.type('e2e_customer.Country');
    const choice = page.locator('.quick-input-list .monaco-list-row', { hasText: 'e2e_customer.Country' }).first();
    await choice.waitFor({ timeout: 10_000 });
    // A click on a row of a multi-select QuickPick toggles its checkbox; OK accepts.
    await choice.click();
    await quick.locator('.quick-input-count', { hasText: /1 Selected/ }).waitFor({ timeout: 5_000 });
    await shot('08-metric-group-by');
    await quick.locator('.monaco-button', { hasText: /^OK$/ }).first().click();
    await quick.filter({ hasText: "time grain for 'e2e_revenue'" }).waitFor({ timeout: 10_000 });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: /^No time grain/ }).first().click();
    const frame = await waitForFrame(page, (f) => f.locator('#chart').count().then((c) => c > 0), 60_000);
    await frame.locator('#chart rect.bar').first().waitFor({ timeout: 60_000 });
    assert.match(await frame.locator('#status').innerText(), /success/);
    const bars = await frame.locator('#chart rect.bar').count();
    const rows = await frame.locator('#rows tbody tr').count();
    assert.ok(bars === 24 && rows === 24, `${bars} bars, ${rows} rows (Chinook customers live in 24 countries)`);
    assert.match(await frame.locator('#title').innerText(), /e2e_revenue by e2e_customer\.Country$/);
    // Bars are drawn largest first (the table keeps the query's order).
    const widths = (await frame.locator('#chart rect.bar').evaluateAll((els) => els.map((e) => Number(e.getAttribute('width'))))) as number[];
    assert.ok(widths.every((w, i) => i === 0 || w <= widths[i - 1]!), `bar widths not sorted: ${widths.slice(0, 6).join(', ')}…`);
    await shot('09-metric-chart');
    await shotBothThemes(ctx, 'metric-chart');
    await frame.locator('#toggleSql').click();
    await frame.locator('#sqlBox').waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await frame.locator('#sql').innerText(), /GROUP BY/);
    await shot('10-metric-sql');

    // A time grain draws a line chart: the series is a stroked line, not a filled polygon.
    await focusPane(page, 'Metrics');
    await metric.hover();
    await metric.locator('.action-label[aria-label="Run Metric"]').click();
    await quick.filter({ hasText: "break 'e2e_revenue' down by" }).waitFor({ timeout: 10_000 });
    await quick.locator('.monaco-button', { hasText: /^OK$/ }).first().click();
    await quick.filter({ hasText: "time grain for 'e2e_revenue'" }).waitFor({ timeout: 10_000 });
    // fill() focuses the picker's input first (typing can land before the new picker has focus).
    await quick.locator('input').first().fill('month');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'month' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await frame.locator('#chart polyline').first().waitFor({ timeout: 60_000 });
    const line = frame.locator('#chart polyline').first();
    const style = (await line.evaluate((e) => {
      // Runs in the webview page (the project's tsconfig has no DOM lib).
      const cs = (globalThis as unknown as { getComputedStyle(x: unknown): { fill: string; stroke: string } }).getComputedStyle(e);
      return { fill: cs.fill, stroke: cs.stroke };
    })) as { fill: string; stroke: string };
    assert.equal(style.fill, 'none', `the series line is filled with ${style.fill}`);
    assert.notEqual(style.stroke, 'none');
    assert.ok((await frame.locator('#chart circle.point').count()) > 12, 'one point per month');
    await shot('11-metric-line-chart');
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** The webview's content frame (VS Code nests the page inside an iframe within an iframe). */
async function waitForFrame(page: Page, pred: (f: Frame) => Promise<boolean>, timeoutMs = 20_000): Promise<Frame> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    for (const f of page.frames()) {
      try {
        if (await pred(f)) return f;
      } catch {
        // frame navigating
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('webview frame not found');
}
