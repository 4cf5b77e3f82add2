// The editor's own MCP UI over the SchemaBrain server it started, driven in the real workbench (code-server 4.139.1,
// VS Code 1.139.1): the chat's Add Context… → MCP Resources picker, `/mcp.SchemaBrain.<prompt>` slash commands in
// the chat input, and MCP: Browse Resources after a re-index. None of these has an extension API (see
// test/vscode/mcp-resources.test.ts for what the API reaches); the chat input works without a signed-in model for
// all three, since none sends a request to a model.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import pg from 'pg';
import { palette } from './palette';

interface McpUiCtx {
  readonly page: Page;
  readonly root: string;
  readonly fixtures: { home: string; pg?: { database: string } };
}

type TestFn = (title: string, fn: () => Promise<void>) => Promise<void>;

const PG = { host: '127.0.0.1', port: 5432, user: 'postgres' };
const SOURCE = 'mcp_live';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function rows(page: Page): Promise<string[]> {
  return (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s*\n\s*/g, ' | '));
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/**
 * MCP: Browse Resources (`mcpr ` in the palette) filtered by `filter`, kept open until `ok` holds for its rows: the
 * picker calls resources/list once when it opens, and closing it cancels that call, so it is reopened only when it
 * closed by itself. Returns the rows; the picker stays open for the caller to close.
 */
async function browseUntil(page: Page, what: string, filter: string, ok: (rows: string[]) => boolean, timeoutMs: number): Promise<string[]> {
  const widget = page.locator('.quick-input-widget');
  const input = page.locator('.quick-input-widget input');
  const open = async (): Promise<void> => {
    await page.keyboard.press('F1');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`mcpr ${filter}`);
  };
  await open();
  let seen: string[] = [];
  try {
    return await until(what, async () => {
      if (!(await widget.isVisible()) || !(await input.inputValue()).startsWith('mcpr ')) await open();
      seen = await rows(page);
      return ok(seen) ? seen : undefined;
    }, timeoutMs);
  } catch (e) {
    throw new Error(`${(e as Error).message} (rows: ${seen.slice(0, 5).join(' ; ') || 'none'}; busy: ${await page.locator('.quick-input-widget .quick-input-progress').isVisible().catch(() => false)})`);
  }
}

/** No picker, editor or half-typed chat question from an earlier check in the way. */
async function settle(page: Page): Promise<void> {
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  await palette(page, 'View: Close All Editors');
}

/** The chat view's input (the Chat view of the secondary side bar: the one the product opens by default). */
const CHAT_INPUT = '.part.auxiliarybar .interactive-input-part';

/** The chat input's editor, focused and emptied (attachments of an earlier check stay; checks compare before/after). */
async function chatInput(page: Page) {
  await palette(page, 'Chat: Open Chat').catch(() => undefined); // already open by default
  const editor = page.locator(`${CHAT_INPUT} .monaco-editor`).first();
  await editor.waitFor({ timeout: 15_000 });
  // The placeholder overlays the textarea, so the click goes to the editor box itself.
  await editor.click({ force: true });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  return editor;
}

async function attachments(page: Page): Promise<string[]> {
  return (await page.locator(`${CHAT_INPUT} .chat-attached-context-attachment`).allInnerTexts()).map((t) => t.trim());
}

async function inputText(page: Page): Promise<string> {
  return (await page.locator(`${CHAT_INPUT} .view-lines`).first().innerText()).replace(/\s+/g, ' ');
}

/** Per run (named after the run's fixture database), so runs that overlap on one server leave each other alone. */
function liveDb(ctx: McpUiCtx): string {
  return ctx.fixtures.pg?.database.replace(/^sb_ext_fixture/, 'sb_e2e_mcp') ?? `sb_e2e_mcp_${process.pid}`;
}

function indexLive(ctx: McpUiCtx): void {
  const DB = liveDb(ctx);
  const r = spawnSync(process.execPath, [path.join(ctx.root, 'dist/cli.js'), 'index', '--source', `postgres://${PG.user}@${PG.host}:${PG.port}/${DB}`, '--name', SOURCE, '--catalog', path.join(ctx.fixtures.home, 'catalog.sqlite'), '--json'], {
    encoding: 'utf8', env: { ...process.env, SCHEMABRAIN_HOME: ctx.fixtures.home }, timeout: 120_000,
  });
  assert.equal(r.status, 0, `index ${SOURCE}: ${r.stderr.slice(-500)}`);
}

export async function mcpUiTests(ctx: McpUiCtx, test: TestFn, shot: (name: string) => Promise<unknown>): Promise<void> {
  const { page } = ctx;
  // The workspace holds definition files the integration suite left, one bound to a source this catalog does not
  // hold: the pickers below list the catalog all the same (a failing resources/list leaves them empty and busy).
  await test('MCP: Browse Resources starts the editor’s SchemaBrain server and lists its schemabrain:// resources', async () => {
    await settle(page);
    // Until the workbench has started the server once, the chat offers neither its resources nor its prompts.
    await browseUntil(page, 'schemabrain:// resources in MCP: Browse Resources', '(chinook)', (r) => r.some((x) => x.includes('schemabrain://chinook/main/')), 120_000);
    await page.keyboard.press('Escape');
  });

  await test('chat Add Context… → MCP Resources lists the schemabrain:// tables of the indexed sample and attaches one', async () => {
    await settle(page);
    await chatInput(page);
    await page.locator(`${CHAT_INPUT} [aria-label^="Add Context"]`).first().click();
    const mcp = page.locator('.quick-input-list .monaco-list-row', { hasText: 'MCP Resources' }).first();
    await mcp.waitFor({ timeout: 15_000 });
    await mcp.click();
    // The picker starts the server if needed and lists its resources/list (templates first, then resources).
    await until('schemabrain:// resources in the picker', async () => ((await rows(page)).some((r) => r.includes('schemabrain://chinook/main/')) ? true : undefined), 60_000);
    await page.keyboard.type('(chinook)');
    const listed = await until('the chinook tables', async () => {
      const r = (await rows(page)).filter((x) => /schemabrain:\/\/chinook\/main\/\w+/.test(x));
      return r.length >= 8 ? r : undefined;
    });
    for (const t of ['Album', 'Artist', 'Customer', 'Invoice']) assert.ok(listed.some((r) => r.includes(`main.${t} (chinook)`) && r.includes(`schemabrain://chinook/main/${t}`)), `${t} in ${listed.join(' ; ')}`);
    await shot('mcp-01-add-context-resources');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('main.Album (chinook)');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'schemabrain://chinook/main/Album' }).first().click();
    await until('the Album attachment in the chat input', async () => ((await attachments(page)).some((a) => /Album/.test(a)) ? true : undefined));
    await shot('mcp-02-resource-attached');
  });

  await test('a prompt is the slash command /mcp.SchemaBrain.explore_database; running it fills the chat input with its messages', async () => {
    await chatInput(page);
    const before = await attachments(page);
    await page.keyboard.type('/mcp.');
    const suggest = page.locator('.suggest-widget .monaco-list-row');
    const offered = await until('the prompt completions', async () => {
      const t = await suggest.allInnerTexts();
      return t.filter((x) => x.startsWith('/mcp.SchemaBrain.')).length >= 4 ? t : undefined;
    });
    for (const p of ['explore_database', 'answer_with_sql', 'explain_metric', 'review_table_quality']) assert.ok(offered.some((o) => o.startsWith(`/mcp.SchemaBrain.${p}`)), `${p} in ${offered.join(' ; ')}`);
    await shot('mcp-03-slash-commands');
    await page.keyboard.type('SchemaBrain.explore');
    await suggest.filter({ hasText: '/mcp.SchemaBrain.explore_database' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    // The argument: the workbench asks for it, with the server's completion/complete values as suggestions.
    await page.locator('.quick-input-widget', { hasText: 'source' }).first().waitFor({ timeout: 15_000 });
    const suggestion = page.locator('.quick-input-list .monaco-list-row', { hasText: /^chinook/ }).first();
    await suggestion.waitFor({ timeout: 15_000 });
    await suggestion.click();
    // prompts/get: the user message replaces the command and the embedded resources become attachments.
    const text = await until('the prompt text in the chat input', async () => {
      const t = await inputText(page);
      return /Explore the chinook database/.test(t) ? t : undefined;
    }, 30_000);
    assert.match(text, /list_indexed_schemas/);
    assert.ok(!text.includes('/mcp.SchemaBrain'), text);
    const att = await until('the embedded resources as attachments', async () => {
      const a = (await attachments(page)).filter((x) => !before.includes(x));
      return a.some((x) => /^chinook/.test(x)) && a.length >= 3 ? a : undefined;
    });
    assert.ok(att.some((a) => /Track|Invoice|Album|Customer/.test(a)), att.join(' ; '));
    await shot('mcp-04-prompt-filled');
    await chatInput(page);
  });

  await test('after a re-index, MCP: Browse Resources lists the newly created table', async () => {
    const DB = liveDb(ctx);
    const admin = new pg.Client({ ...PG, database: 'postgres' });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${DB}`);
      const c = new pg.Client({ ...PG, database: DB });
      // The FORCE drop at the end ends this session if a check failed before c.end(): not a crash of the runner.
      c.on('error', () => undefined);
      await c.connect();
      await c.query('CREATE TABLE mcp_first (id integer PRIMARY KEY, label text)');
      indexLive(ctx);
      await settle(page);
      // Each opening calls resources/list again: the first one after the index already lists the new source.
      const before = await browseUntil(page, `${SOURCE} in the resource list`, `(${SOURCE})`, (r) => r.some((x) => x.includes(`schemabrain://${SOURCE}/public/mcp_first`)), 90_000);
      await page.keyboard.press('Escape');
      assert.ok(!before.some((x) => x.includes('mcp_second')), before.join(' ; '));
      await c.query("CREATE TABLE mcp_second (id integer PRIMARY KEY, first_id integer REFERENCES mcp_first(id)); COMMENT ON TABLE mcp_second IS 'Created after the first index'");
      await c.end();
      indexLive(ctx);
      // The server sees the new catalog generation (and sends notifications/resources/list_changed); the list
      // the editor shows is read again and has the new table.
      // The picker lists once per opening: open it again until the server has seen the new generation.
      const after = await until('the new table in the list', async () => {
        const r = await browseUntil(page, 'the resource list', `(${SOURCE})`, (x) => x.some((y) => y.includes(`schemabrain://${SOURCE}/public/`)), 60_000);
        await page.keyboard.press('Escape');
        return r.some((x) => x.includes(`schemabrain://${SOURCE}/public/mcp_second`)) ? r : undefined;
      }, 90_000);
      assert.ok(after.some((x) => /Created after the first index/.test(x) || x.includes('mcp_second')));
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill(`mcpr (${SOURCE})`);
      await until('the list for the screenshot', async () => ((await rows(page)).some((r) => r.includes('mcp_second')) ? true : undefined));
      await shot('mcp-05-browse-after-reindex');
      await page.keyboard.press('Escape');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  });
}
