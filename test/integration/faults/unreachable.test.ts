import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { runIndex } from '../../../src/core/indexing/run-index';
import { classifyColumn } from '../../../src/core/pii';
import { createIntrospector } from '../../../src/core/sources';
import { parseSourceSpec } from '../../../src/core/sources/locator';
import { getTestPostgres, type TestPostgres } from '../../support/pg';
import { auditedServer, tempDir } from './support';

/** A TCP forwarder to PostgreSQL that the test can take down (connection refused, live sockets cut) and bring back. */
class Forwarder {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(
    private readonly host: string,
    private readonly target: number,
  ) {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = null;
  }
}

describe('faults: a source that goes away during tool calls', function () {
  this.timeout(120_000);
  let pg: TestPostgres;
  let dir: string;
  let fwd: Forwarder;
  before(async () => {
    pg = await getTestPostgres();
    await pg.ensureDatabase('sb_audit_unreach');
    const url = new URL(pg.urlFor('sb_audit_unreach'));
    const c = new PgClient({ connectionString: url.toString() });
    await c.connect();
    await c.query('CREATE TABLE IF NOT EXISTS widgets (id int PRIMARY KEY, label text)');
    await c.end();
    fwd = new Forwarder(url.hostname, Number(url.port || 5432));
    await fwd.up();
    url.port = String(fwd.port);
    dir = tempDir('unreach');
    const catalog = path.join(dir, 'catalog.sqlite');
    await runIndex({ spec: parseSourceSpec(url.toString(), { name: 'shop' }), sourceInput: url.toString(), catalogPath: catalog, deps: { createIntrospector, classifyColumn }, sampleRows: 0 });
  });
  after(async () => {
    await fwd?.down();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await pg?.stop();
  });

  it('answers the retryable unreachable kind with a recovery while the database is down, and the same call works once it is back', async () => {
    const { server, recorder } = await auditedServer(path.join(dir, 'catalog.sqlite'), path.join(dir, 'audit.log'));
    const call = () => server.callTool('run_query', { sql: 'SELECT count(*) AS n FROM widgets', source: 'shop' });
    try {
      assert.equal((await call()).status, 'success');
      await fwd.down();
      const down = await call();
      assert.equal(down.status, 'error');
      assert.equal(down.error?.kind, 'unreachable', JSON.stringify(down.error));
      assert.ok(down.error?.recovery.suggested_tool, 'the error says what to call next');
      assert.doesNotMatch(down.error!.message, /bug|retrying will not help/);
      await fwd.up();
      let back = await call();
      for (let i = 0; i < 5 && back.status !== 'success'; i++) back = await call();
      assert.equal(back.status, 'success', JSON.stringify(back.error));
    } finally {
      await recorder.close();
    }
  });
});
