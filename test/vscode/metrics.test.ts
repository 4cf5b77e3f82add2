import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND_IDS } from '../../src/extension/constants';
import type { MetricsNode } from '../../src/extension/views/metrics-tree';
import { activateApi } from './helpers';

describe('Metrics tree', () => {
  it('shows entities, joins and metrics from .schemabrain/*.yaml with their validation state', async () => {
    const api = await activateApi();
    const dir = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.schemabrain');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'chinook.yaml'), [
      'version: 1',
      'entities:',
      '  - { name: album, table: main.Album, identity: AlbumId, group: catalog, source: chinook_ui }',
      '  - { name: artist, table: main.Artist, identity: ArtistId, group: catalog, source: chinook_ui }',
      'joins:',
      '  - { name: album_artist, from: album, to: artist, on: [{ from: ArtistId, to: ArtistId }], cardinality: many_to_one }',
      'metrics:',
      '  - { name: album_count, entity: album, measure: { agg: count } }',
      '  - { name: bad_metric, entity: album, measure: { agg: sum, column: NoSuchColumn } }',
      '',
    ].join('\n'));
    await vscode.commands.executeCommand(COMMAND_IDS.refresh);
    const groups = api.metricsTree.getChildren();
    const byGroup = (g: string): MetricsNode[] => api.metricsTree.getChildren(groups.find((n) => n.kind === 'group' && n.group === g));
    assert.deepEqual(byGroup('entities').map((n) => n.kind === 'entity' && n.def.name), ['album', 'artist']);
    assert.deepEqual(byGroup('joins').map((n) => n.kind === 'join' && n.def.name), ['album_artist']);
    const metric = byGroup('metrics').find((n) => n.kind === 'metric' && n.def.name === 'album_count')!;
    assert.match(String(api.metricsTree.getTreeItem(metric).description), /count\(\*\) of album · applied/);
    const problems = byGroup('problems');
    assert.ok(problems.some((p) => p.kind === 'problem' && /NoSuchColumn/.test(p.text)), JSON.stringify(problems));
  });
});
