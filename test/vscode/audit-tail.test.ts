import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AUDIT_ANCHOR_STATE_KEY, COMMAND_IDS } from '../../src/extension/constants';
import type { VerificationState } from '../../src/extension/audit/audit-service';
import type { AuditNode } from '../../src/extension/views/audit-tree';
import { activateApi, waitFor } from './helpers';
import { invokeSchemaBrainTool } from './mcp.test';

describe('Tail channel and audit', () => {
  it('shows one tail line per tool call in the output channel', async () => {
    const api = await activateApi();
    await invokeSchemaBrainTool('find_relevant_tables', { query: 'invoice lines' });
    const text = await waitFor('tail line for find_relevant_tables', () => (/find_relevant_tables\s+\w+/.test(api.tail.text()) ? api.tail.text() : ''), 15_000);
    assert.match(text, /\d{2}:\d{2}:\d{2}\.\d{3}\s+find_relevant_tables\s+(success|empty|partial)/);
    const shown = await vscode.commands.executeCommand(COMMAND_IDS.showTail);
    assert.match(String(shown), /find_relevant_tables/);
  });

  it('lists tool calls newest first under the verification state in the Audit view', async () => {
    const api = await activateApi();
    const nodes = await waitFor('audit rows', async () => {
      const n = await api.auditTree.getChildren();
      return n.filter((x) => x.kind === 'row').length >= 2 ? n : undefined;
    }, 15_000);
    assert.equal(nodes[0]!.kind, 'verification');
    const rows = nodes.filter((n): n is Extract<AuditNode, { kind: 'row' }> => n.kind === 'row');
    assert.ok(rows[0]!.row.seq > rows[1]!.row.seq, 'newest first');
    assert.equal(rows[0]!.row.tool, 'find_relevant_tables');
  });

  it('verifies the chain and keeps the head as an anchor in globalState', async () => {
    const api = await activateApi();
    const v = (await vscode.commands.executeCommand(COMMAND_IDS.verifyAudit)) as VerificationState;
    assert.equal(v.state, 'ok', JSON.stringify(v));
    assert.ok(v.state === 'ok' && v.rows >= 2);
    const anchor = api.audit.anchor();
    assert.ok(anchor && v.state === 'ok' && anchor.hash === v.head.hash);
    const again = await api.audit.verify();
    assert.ok(again.state === 'ok' && again.anchored, 'second verification checks the stored anchor');
    const item = api.auditTree.getTreeItem({ kind: 'verification' });
    assert.match(String(item.label), /Audit chain intact/);
    assert.ok(AUDIT_ANCHOR_STATE_KEY);
  });

  it('opens the audit panel and filters it by status and tool', async () => {
    const api = await activateApi();
    await vscode.commands.executeCommand(COMMAND_IDS.openAuditPanel);
    const panel = await waitFor('audit panel', () => api.auditPanel());
    await waitFor('first page rendered', () => panel.rendered);
    const all = await panel.query({ page: 0, pageSize: 50 });
    assert.ok(all >= 2);
    const byTool = await panel.query({ tool: 'find_relevant_tables', page: 0, pageSize: 50 });
    assert.ok(byTool >= 1 && byTool < all, `${byTool} of ${all}`);
    const none = await panel.query({ status: 'refused', tool: 'list_indexed_schemas', page: 0, pageSize: 50 });
    assert.equal(none, 0);
    const paged = await panel.query({ page: 1, pageSize: 1 });
    assert.equal(paged, 1);
    assert.ok(api.audit.path.endsWith('audit.log'));
    panel.dispose();
  });
});
