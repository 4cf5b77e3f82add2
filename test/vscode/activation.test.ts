import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMAND_IDS, VIEW_IDS } from '../../src/extension/constants';
import { activateApi, bench } from './helpers';

describe('Activation', () => {
  it('activates in the real extension host and returns its services', async () => {
    const t0 = performance.now();
    const api = await activateApi();
    const waited = performance.now() - t0;
    assert.ok(api.connections && api.catalog && api.tail && api.audit, 'services present');
    assert.ok(api.activationMs > 0 && api.activationMs < 2000, `activate() body took ${api.activationMs} ms`);
    bench('activationMs', Math.round(api.activationMs * 10) / 10);
    bench('activateCallMs', Math.round(waited * 10) / 10);
    bench('vscodeVersion', vscode.version);
  });

  it('registers every command the manifest declares', async () => {
    await activateApi();
    const ext = vscode.extensions.getExtension('schemabrain.schemabrain')!;
    const declared = (ext.packageJSON.contributes.commands as Array<{ command: string; category: string; title: string }>);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const c of declared) {
      assert.ok(registered.has(c.command), `${c.command} registered`);
      assert.equal(c.category, 'SchemaBrain');
      assert.ok(!c.title.startsWith('%'), `title of ${c.command} is localised from package.nls.json, got ${c.title}`);
    }
    assert.deepEqual(new Set(declared.map((c) => c.command)), new Set(Object.values(COMMAND_IDS)));
  });

  it('contributes the SchemaBrain container with the three views', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.schemabrain');
    for (const v of Object.values(VIEW_IDS)) await vscode.commands.executeCommand(`${v}.focus`);
    const ext = vscode.extensions.getExtension('schemabrain.schemabrain')!;
    assert.deepEqual(ext.packageJSON.contributes.views.schemabrain.map((v: { id: string }) => v.id), Object.values(VIEW_IDS));
  });

  it('shows catalog freshness in the status bar', async () => {
    const api = await activateApi();
    await api.catalog.check(true);
    assert.match(api.statusBar.text(), /SchemaBrain: (\d+ sources? · |not indexed)/);
  });
});
