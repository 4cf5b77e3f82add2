import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { DIST_CLI, DIST_SERVER, ROOT, ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, tempDir } from '../support/server-harness';

const INSPECTOR = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');

/** MCP Inspector's CLI, a client SchemaBrain did not write, drives dist/server.js over stdio. */
describe('MCP Inspector CLI: resources, prompts and tools over stdio', function () {
  let catalog: string;

  before(() => {
    ensureBuilt();
    catalog = path.join(tempDir('sb-inspector-'), 'catalog.sqlite');
    const r = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
  });

  function inspect(...args: string[]): Record<string, unknown> {
    const r = spawnSync(process.execPath, [INSPECTOR, '--cli', process.execPath, DIST_SERVER, '--catalog', catalog, '--no-audit', ...args], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }

  it('lists and reads resources', () => {
    const list = inspect('--method', 'resources/list') as { resources: Array<{ uri: string; mimeType: string }> };
    assert.ok(list.resources.some((r) => r.uri === 'schemabrain://chinook/main/Invoice' && r.mimeType === 'text/markdown'));
    const read = inspect('--method', 'resources/read', '--uri', 'schemabrain://chinook/main/Invoice') as { contents: Array<{ text: string }> };
    assert.match(read.contents[0]!.text, /^# main\.Invoice/);
    assert.match(read.contents[0]!.text, /main\.Invoice\(CustomerId\) → main\.Customer\(CustomerId\)/);
  });

  it('lists prompts and gets one with its embedded resources', () => {
    const list = inspect('--method', 'prompts/list') as { prompts: Array<{ name: string }> };
    assert.deepEqual(list.prompts.map((p) => p.name), ['explore_database', 'answer_with_sql', 'explain_metric', 'review_table_quality']);
    const got = inspect('--method', 'prompts/get', '--prompt-name', 'review_table_quality', '--prompt-args', 'table=main.Track') as { messages: Array<{ content: { type: string; resource?: { uri: string } } }> };
    assert.ok(got.messages.some((m) => m.content.type === 'resource' && m.content.resource?.uri === 'schemabrain://chinook/main/Track'));
  });

  it('calls a tool', () => {
    const call = inspect('--method', 'tools/call', '--tool-name', 'find_relevant_tables', '--tool-arg', 'query=invoice lines') as { structuredContent: { status: string; data: { tables: Array<{ table: string }> } } };
    assert.equal(call.structuredContent.status, 'success');
    assert.ok(call.structuredContent.data.tables.some((t) => t.table === 'main.InvoiceLine'));
  });
});
