import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionCommandResult } from '../../src/extension/commands/connection-commands';
import type { IndexOutcome } from '../../src/extension/indexing/run-index';
import { COMMAND_IDS } from '../../src/extension/constants';
import { activateApi, fixtures } from './helpers';

async function add(args: Record<string, unknown>): Promise<ConnectionCommandResult> {
  return (await vscode.commands.executeCommand(COMMAND_IDS.addConnection, args)) as ConnectionCommandResult;
}

describe('Bad input gives a clear message with a next step', () => {
  const fx = fixtures();

  it('reports an unreachable host and does not save the connection', async () => {
    const api = await activateApi();
    const r = await add({ name: 'nowhere', engine: 'postgres', host: '127.0.0.1', port: 1, database: 'x', user: 'postgres' });
    assert.equal(r.saved, false);
    assert.ok(r.test && !r.test.ok && r.test.kind === 'unreachable', JSON.stringify(r.test));
    assert.match(r.test.message, /Cannot reach PostgreSQL at 127\.0\.0\.1:1/);
    assert.match(r.test.nextStep, /Check the host and port/);
    assert.equal(api.connections.get('nowhere'), undefined);
    assert.ok(api.notifier.notices.some((n) => n.severity === 'error' && /Cannot reach .* Check the host and port/.test(n.message)));
  });

  it('reports a role the server does not know', async () => {
    const r = await add({ name: 'badrole', engine: 'postgres', host: fx.pg.host, port: fx.pg.port, database: fx.pg.database, user: 'sb_ext_no_such_role' });
    assert.equal(r.saved, false);
    assert.ok(r.test && !r.test.ok && r.test.kind === 'role_not_permitted', JSON.stringify(r.test));
    assert.match(r.test.message, /Role 'sb_ext_no_such_role' may not connect/);
    assert.match(r.test.nextStep, /LOGIN/);
  });

  it('reports a wrong password', async function () {
    if (!fx.secure) this.skip();
    const s = fx.secure!;
    const r = await add({ name: 'wrongpw', engine: 'postgres', host: s.host, port: s.port, database: s.database, user: s.user, password: 'not-the-password' });
    assert.equal(r.saved, false);
    assert.ok(r.test && !r.test.ok && r.test.kind === 'auth_failed', JSON.stringify(r.test));
    assert.match(r.test.message, /Password authentication failed for user 'sb_ext_user'/);
    assert.match(r.test.nextStep, /Edit the connection and enter the correct password/);
  });

  it('reports a missing SQLite file, and indexing it anyway explains why it failed', async () => {
    const api = await activateApi();
    const r = await add({ name: 'ghost', engine: 'sqlite', file: '/nonexistent/ghost.sqlite' });
    assert.equal(r.saved, false);
    assert.ok(r.test && !r.test.ok && r.test.kind === 'file_missing');
    assert.match(r.test.message, /SQLite file not found: \/nonexistent\/ghost\.sqlite/);
    const forced = await add({ name: 'ghost', engine: 'sqlite', file: '/nonexistent/ghost.sqlite', saveOnFailure: true });
    assert.equal(forced.saved, true);
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'ghost')) as IndexOutcome;
    assert.equal(outcome.status, 'failed');
    const notice = api.notifier.notices.filter((n) => n.severity === 'error').at(-1)!;
    assert.match(notice.message, /indexing 'ghost' failed: .*ghost\.sqlite.* Next: \S+/);
    await vscode.commands.executeCommand(COMMAND_IDS.removeConnection, 'ghost', { confirmed: true });
  });

  it('rejects a malformed URL and a duplicate name', async () => {
    const api = await activateApi();
    const bad = await add({ name: 'badurl', url: 'mysql://x@y/z' });
    assert.equal(bad.saved, false);
    assert.ok(api.notifier.notices.some((n) => /Unsupported scheme 'mysql:'/.test(n.message)));
    const dup = await add({ name: 'pgfixture', engine: 'postgres', host: fx.pg.host, port: fx.pg.port, database: fx.pg.database, user: fx.pg.user });
    assert.equal(dup.saved, false);
    assert.ok(api.notifier.notices.some((n) => /already exists/.test(n.message)));
  });
});
