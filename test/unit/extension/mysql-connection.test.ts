import assert from 'node:assert/strict';
import net from 'node:net';
import { ENGINES, engineSpec } from '../../../src/extension/connections/engines';
import { describeConnection, sourceLocator, usesPassword, type ConnectionConfig } from '../../../src/extension/connections/model';
import { testConnection } from '../../../src/extension/connections/test-connection';
import { parseSourceSpec } from '../../../src/core/sources/locator';

const MARIADB = { host: '127.0.0.1', port: 3306 };

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}

describe('MySQL/MariaDB connections in the extension', () => {
  it('offers MySQL/MariaDB in the engine list with its port, SSL modes and an optional database', () => {
    const spec = engineSpec('mysql');
    assert.ok(spec && ENGINES.includes(spec));
    assert.equal(spec.kind, 'server');
    assert.equal(spec.defaultPort, 3306);
    assert.ok(spec.databaseOptional);
    assert.deepEqual(spec.sslModes, ['preferred', 'disabled', 'required', 'verify_ca', 'verify_identity']);
  });

  it('builds a credential-free mysql:// locator the indexer parses back to the same server, database and TLS mode', () => {
    const c: ConnectionConfig = { name: 'shop', engine: 'mysql', host: 'db.internal', port: 3307, database: 'shop', user: 'reader', sslmode: 'verify_identity' };
    const url = sourceLocator(c);
    assert.equal(url, 'mysql://reader@db.internal:3307/shop?ssl-mode=VERIFY_IDENTITY');
    assert.doesNotMatch(url, /:[^/@]*@/, 'no password in the locator');
    const spec = parseSourceSpec(url, { name: 'shop' });
    assert.equal(spec.engine, 'mysql');
    assert.equal(sourceLocator({ ...c, database: undefined, sslmode: 'preferred' }), 'mysql://reader@db.internal:3307/');
    assert.equal(describeConnection({ ...c, database: undefined }), 'reader@db.internal:3307/(all databases)');
    assert.ok(usesPassword(c));
    assert.ok(!usesPassword({ engine: 'sqlite' }));
  });

  it('tests a real MariaDB by its handshake and names the product and version', async function () {
    if (!(await answers(MARIADB.host, MARIADB.port))) {
      process.stderr.write('skipped: no MySQL/MariaDB server answers on 127.0.0.1:3306\n');
      this.skip();
    }
    const r = await testConnection({ name: 'm', engine: 'mysql', ...MARIADB, user: 'root' }, undefined);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.match(r.ok ? r.detail : '', /^(MariaDB|MySQL) \d+\.\d+/);
  });

  it('reports a closed port as unreachable and a server that is not MySQL as a timeout, never as success', async function () {
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer();
      srv.listen(0, '127.0.0.1', () => {
        const port = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(port));
      });
    });
    const refused = await testConnection({ name: 'm', engine: 'mysql', host: '127.0.0.1', port: closed }, undefined, 2000);
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.kind, 'unreachable');
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const r = await testConnection({ name: 'm', engine: 'mysql', host: '127.0.0.1', port: (silent.address() as net.AddressInfo).port }, undefined, 500);
      assert.equal(!r.ok && r.kind, 'timeout');
    } finally {
      silent.close();
    }
  });
});
