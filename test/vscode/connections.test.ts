import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import * as vscode from 'vscode';
import type { IndexOutcome } from '../../src/extension/indexing/run-index';
import type { ConnectionNode } from '../../src/extension/views/connections-tree';
import type { ConnectionCommandResult } from '../../src/extension/commands/connection-commands';
import { CatalogStore } from '../../src/core/catalog/store';
import { COMMAND_IDS } from '../../src/extension/constants';
import { activateApi, addThroughForm, bench, fixtures } from './helpers';

function label(api: Awaited<ReturnType<typeof activateApi>>, n: ConnectionNode): string {
  const l = api.connectionsTree.getTreeItem(n).label;
  return typeof l === 'string' ? l : l?.label ?? '';
}

describe('Connections, indexing and the Connections tree', () => {
  const fx = fixtures();

  it('adds a SQLite connection through the connection form and tests it', async () => {
    const api = await activateApi();
    const r = await addThroughForm(api, 'save', { engine: 'sqlite', name: 'chinook_ui', file: fx.chinook });
    assert.equal(r.saved, true, JSON.stringify(r));
    assert.ok(r.test?.ok);
    assert.equal(api.connections.get('chinook_ui')?.file, fx.chinook);
  });

  it('indexes it through the real CLI and shows source → schema → table → column', async () => {
    const api = await activateApi();
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'chinook_ui')) as IndexOutcome;
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    await api.catalog.check(true);
    const roots = api.connectionsTree.getChildren();
    const source = roots.find((n) => n.kind === 'source' && n.name === 'chinook_ui');
    assert.ok(source, `roots: ${roots.map((r) => label(api, r)).join(', ')}`);
    assert.match(String(api.connectionsTree.getTreeItem(source).description), /SQLite · 11 tables/);
    const schemas = api.connectionsTree.getChildren(source);
    assert.equal(schemas.length, 1);
    const tables = api.connectionsTree.getChildren(schemas[0]);
    const names = tables.map((t) => label(api, t));
    for (const t of ['Album', 'Artist', 'Customer', 'Invoice', 'Track']) assert.ok(names.includes(t), `${t} in ${names.join(',')}`);
    const track = tables.find((t) => label(api, t) === 'Track')!;
    const cols = api.connectionsTree.getChildren(track);
    const trackId = cols.find((c) => label(api, c) === 'TrackId')!;
    assert.match(String(api.connectionsTree.getTreeItem(trackId).description), /PK/);
    const albumId = cols.find((c) => label(api, c) === 'AlbumId')!;
    assert.match(String(api.connectionsTree.getTreeItem(albumId).description), /FK → Album/);
    assert.match(String(api.connectionsTree.getTreeItem(track).description), /rows/);
  });

  it('adds and indexes a PostgreSQL database given as arguments, with comments in the tree', async () => {
    const api = await activateApi();
    const r = (await vscode.commands.executeCommand(COMMAND_IDS.addConnection, {
      name: 'pgfixture', engine: 'postgres', host: fx.pg.host, port: fx.pg.port, database: fx.pg.database, user: fx.pg.user,
    })) as ConnectionCommandResult;
    assert.equal(r.saved, true, JSON.stringify(r));
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'pgfixture')) as IndexOutcome;
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    await api.catalog.check(true);
    const source = api.connectionsTree.getChildren().find((n) => n.kind === 'source' && n.name === 'pgfixture')!;
    const publicSchema = api.connectionsTree.getChildren(source).find((n) => label(api, n) === 'public')!;
    const customer = api.connectionsTree.getChildren(publicSchema).find((n) => label(api, n) === 'customer')!;
    assert.match(String(api.connectionsTree.getTreeItem(customer).description), /People who buy things/);
    const email = api.connectionsTree.getChildren(customer).find((n) => label(api, n) === 'email')!;
    const item = api.connectionsTree.getTreeItem(email);
    assert.match(String(item.description), /text · not null/);
    assert.match(String(item.description), /Login e-mail address/);
    const copied = await vscode.commands.executeCommand(COMMAND_IDS.copyQualifiedName, email);
    assert.equal(copied, 'public.customer.email');
    assert.equal(await vscode.env.clipboard.readText(), 'public.customer.email');
    const described = (await vscode.commands.executeCommand(COMMAND_IDS.describeTable, customer)) as string;
    assert.match(described, /# public\.customer/);
    assert.match(described, /\| email \| text \| no \|/);
  });

  it('expands the 375-table MusicBrainz schema quickly', async function () {
    const api = await activateApi();
    await api.catalog.check(true);
    const source = api.connectionsTree.getChildren().find((n) => n.kind === 'source' && n.name === 'musicbrainz');
    if (!source) this.skip();
    const t0 = performance.now();
    const schemas = api.connectionsTree.getChildren(source);
    let tableCount = 0;
    for (const s of schemas) {
      const tables = api.connectionsTree.getChildren(s);
      tableCount += tables.length;
      for (const t of tables) api.connectionsTree.getTreeItem(t);
    }
    const ms = performance.now() - t0;
    bench('expand375ProviderMs', Math.round(ms * 10) / 10);
    bench('expand375Tables', tableCount);
    // 375 tables in the DDL; partitions are folded into their parents, so the tree shows ~370 relations.
    assert.ok(tableCount >= 365, `tables: ${tableCount}`);
    assert.ok(ms < 1000, `building ${tableCount} table items took ${ms} ms`);
  });

  it('edits a connection (rename keeps the password) and removes it', async () => {
    const api = await activateApi();
    await vscode.commands.executeCommand(COMMAND_IDS.addConnection, { name: 'tmpconn', engine: 'postgres', host: fx.pg.host, port: fx.pg.port, database: fx.pg.database, user: fx.pg.user, password: 'pw-for-rename' });
    const edited = (await vscode.commands.executeCommand(COMMAND_IDS.editConnection, 'tmpconn', { name: 'tmpconn2' })) as ConnectionCommandResult;
    assert.equal(edited.saved, true, JSON.stringify(edited));
    assert.equal(api.connections.get('tmpconn'), undefined);
    assert.equal(await api.connections.getPassword('tmpconn2'), 'pw-for-rename');
    assert.equal(await api.connections.getPassword('tmpconn'), undefined);
    assert.equal(api.connections.get('tmpconn2')?.hasPassword, true);
    const removed = await vscode.commands.executeCommand(COMMAND_IDS.removeConnection, 'tmpconn2', { confirmed: true });
    assert.equal(removed, true);
    assert.equal(api.connections.get('tmpconn2'), undefined);
    assert.equal(await api.connections.getPassword('tmpconn2'), undefined);
  });

  it('an edit that points a connection at another server does not send it the stored password', async () => {
    // A server that asks every client for its password in clear and keeps what it is sent.
    const received: string[] = [];
    const trap = net.createServer((sock) => {
      let buf = Buffer.alloc(0);
      let started = false;
      sock.on('error', () => undefined);
      sock.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        for (;;) {
          if (!started) {
            if (buf.length < 8) return;
            const len = buf.readInt32BE(0);
            if (buf.length < len) return;
            const code = buf.readInt32BE(4);
            buf = buf.subarray(len);
            if (code === 80877103) {
              sock.write('N'); // no TLS: go on in clear
              continue;
            }
            started = true;
            const ask = Buffer.alloc(9);
            ask.write('R', 0);
            ask.writeInt32BE(8, 1);
            ask.writeInt32BE(3, 5); // AuthenticationCleartextPassword
            sock.write(ask);
            continue;
          }
          if (buf.length < 5) return;
          const len = buf.readInt32BE(1);
          if (buf.length < len + 1) return;
          if (buf[0] === 0x70) received.push(buf.subarray(5, len).toString('utf8').replace(/\0$/, ''));
          buf = buf.subarray(len + 1);
          sock.destroy();
          return;
        }
      });
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const port = (trap.address() as net.AddressInfo).port;
    const api = await activateApi();
    try {
      // The trap works: a connection made to it with a password hands that password over.
      await vscode.commands.executeCommand(COMMAND_IDS.addConnection, { name: 'trap_direct', engine: 'postgres', host: '127.0.0.1', port, database: 'x', user: 'u', password: 'pw-typed-for-trap', saveOnFailure: false });
      assert.deepEqual(received, ['pw-typed-for-trap']);
      received.length = 0;
      await vscode.commands.executeCommand(COMMAND_IDS.addConnection, { name: 'pw_home', engine: 'postgres', host: fx.pg.host, port: fx.pg.port, database: fx.pg.database, user: fx.pg.user, password: 'pw-stays-home' });
      assert.equal(await api.connections.getPassword('pw_home'), 'pw-stays-home');
      const moved = (await vscode.commands.executeCommand(COMMAND_IDS.editConnection, 'pw_home', { host: '127.0.0.1', port, saveOnFailure: true })) as ConnectionCommandResult;
      assert.equal(moved.saved, true, JSON.stringify(moved));
      // It may ask; the client then has no password to give (an empty one at most).
      assert.ok(received.every((p) => p === ''), `the stored password went to the other server: ${JSON.stringify(received)}`);
      assert.equal(await api.connections.getPassword('pw_home'), undefined, 'the password stays with the server it was given for');
      assert.notEqual(api.connections.get('pw_home')?.hasPassword, true);
    } finally {
      trap.close();
      for (const n of ['trap_direct', 'pw_home']) if (api.connections.get(n)) await vscode.commands.executeCommand(COMMAND_IDS.removeConnection, n, { confirmed: true });
    }
  });

  it('cancels an index run and leaves the previous catalog intact', async () => {
    const api = await activateApi();
    const catalogPath = api.settings().catalogPath;
    const before = await CatalogStore.open(catalogPath);
    const genBefore = before.generation;
    const sourcesBefore = before.listSources().map((s) => s.info.name).sort();
    before.close();
    const bytesBefore = fs.readFileSync(catalogPath);
    await vscode.commands.executeCommand(COMMAND_IDS.addConnection, { name: 'mb_cancel', url: fx.musicbrainz });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'mb_cancel', { signal: abort.signal })) as IndexOutcome;
    assert.equal(outcome.status, 'cancelled', JSON.stringify(outcome));
    assert.ok(api.notifier.notices.some((n) => /cancelled; the previous catalog is unchanged/.test(n.message)));
    const after = await CatalogStore.open(catalogPath);
    try {
      assert.equal(after.generation, genBefore);
      assert.deepEqual(after.listSources().map((s) => s.info.name).sort(), sourcesBefore);
    } finally {
      after.close();
    }
    assert.ok(fs.readFileSync(catalogPath).equals(bytesBefore), 'catalog bytes unchanged');
    await vscode.commands.executeCommand(COMMAND_IDS.removeConnection, 'mb_cancel', { confirmed: true });
  });

  it('re-indexes all connections and refreshes', async () => {
    const api = await activateApi();
    const results = (await vscode.commands.executeCommand(COMMAND_IDS.reindexAll)) as Map<string, IndexOutcome>;
    assert.ok(results.size >= 2);
    for (const [name, o] of results) assert.equal(o.status, 'succeeded', `${name}: ${JSON.stringify(o)}`);
    await vscode.commands.executeCommand(COMMAND_IDS.refresh);
    assert.ok(api.connectionsTree.getChildren().length >= 2);
  });
});
