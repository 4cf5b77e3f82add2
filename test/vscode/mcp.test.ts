import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MCP_API_MISSING_MESSAGE } from '../../src/extension/mcp/provider';
import { activateApi, bench, sleep } from './helpers';

let startRecorded = false;

/** Starts the provider's server through the workbench, retrying: the workbench learns of provider servers asynchronously. */
export async function startMcpTools(): Promise<vscode.LanguageModelToolInformation[]> {
  const find = (): vscode.LanguageModelToolInformation[] => vscode.lm.tools.filter((t) => /schemabrain/i.test(t.name) && /list_indexed_schemas$/.test(t.name));
  const t0 = Date.now();
  for (let i = 0; i < 30 && find().length === 0; i++) {
    try {
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
    } catch {
      // not yet known to the workbench; retry
    }
    for (let j = 0; j < 4 && find().length === 0; j++) await sleep(500);
  }
  if (!startRecorded) bench('mcpStartMs', Date.now() - t0);
  startRecorded = true;
  return vscode.lm.tools.filter((t) => /schemabrain/i.test(t.name));
}

/**
 * Invokes a SchemaBrain tool, retrying while the workbench swaps servers: after a restart or a settings change,
 * vscode.lm.tools can still list the old server's tools for a moment, and invoking one then fails with
 * "was not contributed".
 */
export async function invokeSchemaBrainTool(suffix: string, input: object): Promise<vscode.LanguageModelToolResult> {
  let last: unknown;
  for (let attempt = 0; attempt < 20; attempt++) {
    await startMcpTools();
    const tool = vscode.lm.tools.find((t) => /schemabrain/i.test(t.name) && t.name.endsWith(suffix));
    if (tool) {
      try {
        return await vscode.lm.invokeTool(tool.name, { input, toolInvocationToken: undefined });
      } catch (e) {
        last = e;
        if (!/not contributed|not found|not running/i.test(String(e))) throw e;
      }
    }
    await sleep(750);
  }
  throw new Error(`tool ${suffix} never became invocable: ${String(last)}`);
}

describe('MCP server definition provider', () => {
  it('registers the provider with the editor', async () => {
    const api = await activateApi();
    const reg = api.mcp();
    assert.equal(reg.registered, true, reg.registered ? '' : reg.message);
  });

  it('starts the server through workbench.mcp.startServer and lists its tools in vscode.lm.tools', async () => {
    const api = await activateApi();
    const tools = await startMcpTools();
    const reg = api.mcp();
    assert.ok(reg.registered);
    assert.ok(reg.provider.provideCalls > 0, 'provideMcpServerDefinitions called');
    assert.ok(reg.provider.resolveCalls > 0, 'resolveMcpServerDefinition called');
    const names = tools.map((t) => t.name);
    for (const tool of ['list_indexed_schemas', 'find_relevant_tables', 'describe_table']) {
      assert.ok(names.some((n) => n.endsWith(tool)), `${tool} in ${names.join(', ')}`);
    }
  });

  it('returns a charter envelope from vscode.lm.invokeTool', async () => {
    const tool = vscode.lm.tools.find((t) => /schemabrain/i.test(t.name) && t.name.endsWith('list_indexed_schemas'));
    assert.ok(tool, 'tool present');
    const res = await vscode.lm.invokeTool(tool.name, { input: {}, toolInvocationToken: undefined });
    const text = res.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('');
    const envelope = JSON.parse(text) as { status: string; charter_version: string; data: unknown };
    assert.ok(['success', 'empty'].includes(envelope.status), text.slice(0, 300));
    assert.ok(envelope.charter_version, 'charter_version present');
    assert.match(text, /chinook/);
  });

  it('restarts the server on request', async () => {
    const ok = await vscode.commands.executeCommand('schemabrain.restartMcpServer');
    assert.equal(ok, true);
    const tools = await startMcpTools();
    assert.ok(tools.length > 0);
  });

  it('offers no server while schemabrain.mcp.enabled is off', async () => {
    const api = await activateApi();
    const reg = api.mcp();
    assert.ok(reg.registered);
    const cfg = vscode.workspace.getConfiguration('schemabrain');
    await cfg.update('mcp.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      assert.deepEqual(reg.provider.provideMcpServerDefinitions(), []);
    } finally {
      await cfg.update('mcp.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    const defs = reg.provider.provideMcpServerDefinitions();
    assert.equal(defs.length, 1);
    const def = defs[0]!;
    assert.ok(def instanceof vscode.McpStdioServerDefinition, 'without a team server the local stdio server is offered');
    assert.equal(def.command, process.execPath);
    assert.equal(def.env.ELECTRON_RUN_AS_NODE, '1');
    assert.ok(def.args.some((a) => a.endsWith('dist/server.js')));
    const flag = (f: string): string | undefined => def.args[def.args.indexOf(f) + 1];
    assert.equal(flag('--max-rows'), '100');
    assert.equal(flag('--statement-timeout-ms'), '5000');
    assert.equal(flag('--pii-block'), 'credential,government_id,payment_card');
    assert.ok(!Object.keys(def.env).some((k) => /SECRET/.test(k)), 'no secret channel before resolve');
  });

  it('gives a clear message in an editor without the MCP API', async () => {
    const api = await activateApi();
    const r = api.testing.registerMcpWith({});
    assert.equal(r.registered, false);
    assert.ok(!r.registered && r.message === MCP_API_MISSING_MESSAGE);
    assert.match(MCP_API_MISSING_MESSAGE, /1\.101 or newer/);
    assert.ok(api.notifier.notices.some((n) => n.message === MCP_API_MISSING_MESSAGE));
    const r2 = api.testing.registerMcpWith(undefined);
    assert.equal(r2.registered, false);
  });
});
