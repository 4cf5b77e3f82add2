import assert from 'node:assert/strict';
import { describeConnection, parsePostgresUrl, sourceLocator, validateConnectionName } from '../../../src/extension/connections/model';

describe('connection model', () => {
  it('parses a pasted URL into fields and moves its password out', () => {
    const r = parsePostgresUrl('postgresql://ann%40corp:s3cr%2Ft@db.example.com:6543/sales?sslmode=require');
    assert.ok(typeof r !== 'string');
    assert.deepEqual(r.config, { engine: 'postgres', host: 'db.example.com', port: 6543, database: 'sales', user: 'ann@corp', sslmode: 'require' });
    assert.equal(r.password, 's3cr/t');
  });

  it('builds a credential-free locator that never contains the password', () => {
    const r = parsePostgresUrl('postgres://bob:hunter2@127.0.0.1/app');
    assert.ok(typeof r !== 'string');
    const loc = sourceLocator({ ...r.config, name: 'app' });
    assert.equal(loc, 'postgres://bob@127.0.0.1:5432/app');
    assert.ok(!loc.includes('hunter2'));
    assert.equal(describeConnection({ ...r.config, name: 'app' }), 'bob@127.0.0.1:5432/app');
  });

  it('uses the file path as the SQLite locator', () => {
    assert.equal(sourceLocator({ name: 'c', engine: 'sqlite', file: '/data/c.sqlite' }), '/data/c.sqlite');
  });

  it('rejects other schemes and bad sslmodes with a message naming the problem', () => {
    assert.match(String(parsePostgresUrl('mysql://a@b/c')), /Unsupported scheme 'mysql:'/);
    assert.match(String(parsePostgresUrl('postgres://a@b/c?sslmode=maybe')), /sslmode 'maybe' is not one of/);
    assert.match(String(parsePostgresUrl('not a url')), /Not a URL/);
  });

  it('validates connection names for shape and uniqueness', () => {
    assert.equal(validateConnectionName('prod_db-1.eu', []), undefined);
    assert.match(String(validateConnectionName('has space', [])), /letters, digits/);
    assert.match(String(validateConnectionName('x', ['x'])), /already exists/);
  });
});
