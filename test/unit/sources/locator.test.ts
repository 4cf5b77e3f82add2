import assert from 'node:assert/strict';
import path from 'node:path';
import { inspect } from 'node:util';
import { classifyDriverError, displaySource, parseSourceSpec, redactSecrets, sourceId, SourceSpecError } from '../../../src/core/sources';
import { parseCopyText, splitSqlScript } from '../../support/datasets';
import { checkInListLabels, parseCreateIndex, parseCreateTable } from '../../../src/core/sources/sqlite/ddl';

const pgSpec = (input: string, env: NodeJS.ProcessEnv = {}) => {
  const s = parseSourceSpec(input, { env });
  assert.equal(s.engine, 'postgres');
  return s;
};

describe('parseSourceSpec', () => {
  it('parses a postgres URL into host, port, database, user, params and a credential-free locator', () => {
    const s = pgSpec('postgresql://App:p%40ss@DB.Example.com:6543/sales?sslmode=require&application_name=x');
    assert.deepEqual([s.host, s.port, s.database, s.user, s.password], ['db.example.com', 6543, 'sales', 'App', 'p@ss']);
    assert.deepEqual(s.params, { sslmode: 'require', application_name: 'x' });
    assert.equal(s.locator, 'postgres://db.example.com:6543/sales');
    assert.equal(s.id, sourceId(s.locator));
    assert.match(s.id, /^[0-9a-f]{16}$/);
    assert.equal(s.name, 'sales');
  });

  it('gives the same id whatever the credentials, scheme spelling or default port', () => {
    const a = pgSpec('postgres://a:x@h/db');
    const b = pgSpec('postgresql://b@h:5432/db');
    assert.equal(a.id, b.id);
    assert.notEqual(a.id, pgSpec('postgres://h/other').id);
  });

  it('expands ${VAR} references from the given environment, verbatim', () => {
    const s = pgSpec('postgres://${U}:${PW}@${H}:${P}/app', { U: 'reader', PW: 'a/b@c:d', H: 'pg.local', P: '5544' });
    assert.deepEqual([s.user, s.password, s.host, s.port], ['reader', 'a/b@c:d', 'pg.local', 5544]);
  });

  it('never shows the password in JSON, util.inspect, spread or the display string', () => {
    const s = pgSpec('postgres://u:hunter22@h/db');
    const shown = [JSON.stringify(s), inspect(s), JSON.stringify({ ...s }), displaySource(s), String(Object.keys(s))].join('\n');
    assert.ok(!shown.includes('hunter22'), shown);
    assert.match(JSON.stringify(s), /"password":"\*\*\*"/);
    assert.equal(displaySource(s), 'u@h:5432/db');
  });

  it('accepts the password as a URL parameter and IPv6 hosts', () => {
    const s = pgSpec('postgres://u@[::1]:5433/db?password=pw');
    assert.deepEqual([s.host, s.port, s.password, s.locator], ['::1', 5433, 'pw', 'postgres://[::1]:5433/db']);
  });

  it('rejects bad ports, unknown parameters, bad sslmodes, several hosts and other engines with typed errors', () => {
    const code = (input: string): string => {
      try {
        parseSourceSpec(input, { env: {} });
      } catch (e) {
        assert.ok(e instanceof SourceSpecError);
        assert.ok(!e.message.includes('topsecret'));
        return e.code;
      }
      return 'none';
    };
    assert.equal(code('postgres://u:topsecret@h:99999/db'), 'invalid_port');
    assert.equal(code('postgres://u:topsecret@h/db?sslmod=require'), 'invalid_parameter');
    assert.equal(code('postgres://h/db?sslmode=always'), 'invalid_parameter');
    assert.equal(code('postgres://h1,h2/db'), 'unsupported_feature');
    assert.equal(code('oracle://u:topsecret@h/db'), 'unsupported_engine');
    assert.equal(code('   '), 'empty_input');
    assert.equal(code('postgres://u:top%ZZsecret@h/db'), 'malformed_url');
    assert.equal(code('postgres://u:${NOPE}@h/db'), 'missing_credential');
  });

  it('resolves SQLite paths, sqlite: and file: URLs to absolute paths used as the locator', () => {
    const cwd = path.resolve('/tmp/work');
    const rel = parseSourceSpec('data/app.sqlite', { cwd });
    assert.equal(rel.engine, 'sqlite');
    assert.equal(rel.locator, path.join(cwd, 'data/app.sqlite'));
    assert.equal(rel.name, 'app');
    assert.equal(parseSourceSpec('sqlite:///var/db/x.db', { cwd }).locator, '/var/db/x.db');
    assert.equal(parseSourceSpec('file:///var/db/x%20y.db?mode=ro', { cwd }).locator, '/var/db/x y.db');
    assert.equal(parseSourceSpec('sqlite:rel.db', { cwd }).locator, path.join(cwd, 'rel.db'));
    assert.equal(parseSourceSpec('x.db', { cwd, name: 'Mine' }).name, 'Mine');
  });
});

describe('redactSecrets', () => {
  it('masks listed secrets, their URL-encoded form, URL userinfo passwords and password= pairs', () => {
    const out = redactSecrets('auth p@ss failed (p%40ss) at postgres://u:zzz@h/db with password=abc; PASSWORD: "q r"', ['p@ss']);
    assert.equal(out, 'auth *** failed (***) at postgres://u:***@h/db with password=***; PASSWORD: ***');
  });
});

describe('classifyDriverError', () => {
  const spec = parseSourceSpec('postgres://app:Sup3rSecret@db.local:5432/shop', { env: {} });
  it('maps SQLSTATEs and socket errors onto the closed set and strips an echoed password', () => {
    const c = classifyDriverError({ code: '28P01', message: 'password authentication failed for user "app" (Sup3rSecret)' }, spec);
    assert.equal(c.code, 'auth_failed');
    assert.ok(!c.message.includes('Sup3rSecret'));
    assert.equal(classifyDriverError({ code: '3D000', message: 'database "shop" does not exist' }, spec).code, 'database_missing');
    assert.equal(classifyDriverError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, spec).code, 'unreachable');
    assert.equal(classifyDriverError({ code: '57014', message: 'canceling statement due to statement timeout' }, spec).code, 'timeout');
    assert.equal(classifyDriverError({ code: '42501', message: 'permission denied for table t' }, spec).code, 'permission_denied');
    assert.equal(classifyDriverError(Object.assign(new Error('x'), { name: 'AbortError' }), spec).code, 'cancelled');
    assert.match(classifyDriverError({ code: 'ECONNREFUSED', message: 'x' }, spec).message, /db\.local:5432/);
    const file = parseSourceSpec('/nowhere/x.db');
    assert.equal(classifyDriverError({ code: 'ENOENT', message: 'no such file' }, file).code, 'file_missing');
    assert.equal(classifyDriverError(new Error('file is not a database'), file).code, 'not_sqlite');
  });
});

describe('SQLite DDL reading', () => {
  it('finds named and unnamed CHECK, PRIMARY KEY and FOREIGN KEY constraints and column comments', () => {
    const t = parseCreateTable(`CREATE TABLE [t] (
      "a b" INTEGER CONSTRAINT pk_t PRIMARY KEY, -- the key
      c TEXT CHECK (c IN ('x', 'y')),
      d INT REFERENCES other(id),
      CONSTRAINT "d positive" CHECK ((d > 0) AND (d < 10)),
      CONSTRAINT fk_x FOREIGN KEY (c, d) REFERENCES o (c, d)
    )`);
    assert.deepEqual(t.constraints.map((c) => [c.kind, c.name, c.columns, c.expression]), [
      ['primary', 'pk_t', ['a b'], null],
      ['check', null, ['c'], "c IN ('x', 'y')"],
      ['foreign', null, ['d'], null],
      ['check', 'd positive', [], '(d > 0) AND (d < 10)'],
      ['foreign', 'fk_x', ['c', 'd'], null],
    ]);
    assert.equal(t.columnComments.get('a b'), 'the key');
    assert.deepEqual(checkInListLabels("c IN ('x', 'y')", 'c'), ['x', 'y']);
    assert.equal(checkInListLabels('c > 1', 'c'), null);
  });

  it('reads index expressions and partial-index predicates', () => {
    assert.deepEqual(parseCreateIndex(`CREATE INDEX i ON t (lower(a) COLLATE NOCASE, "b" DESC) WHERE a IS NOT NULL;`), {
      terms: ['lower(a)', 'b'],
      predicate: 'a IS NOT NULL',
    });
  });
});

describe('SQL script splitting for the dataset loaders', () => {
  it('splits on semicolons outside quotes, dollar quotes and comments, drops meta-commands and captures COPY data', () => {
    const items = splitSqlScript(
      [
        '\\restrict abc',
        "SET x = 'a;b';",
        'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;',
        '-- a comment; with a semicolon',
        'COPY public."T" (a, b) FROM stdin;',
        '1\tx\\ty',
        '2\t\\N',
        '\\.',
        'SELECT E\'it\\\'s;\';',
      ].join('\n'),
    );
    assert.deepEqual(
      items.map((i) => (i.kind === 'copy' ? `COPY ${i.table} ${i.columns?.join('|')}` : i.sql)),
      ["SET x = 'a;b'", 'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql', 'COPY public."T" a|b', "SELECT E'it\\'s;'"],
    );
    const copy = items[2];
    assert.ok(copy?.kind === 'copy');
    assert.deepEqual(parseCopyText(copy.data), [
      ['1', 'x\ty'],
      ['2', null],
    ]);
  });
});

describe('a password the URL cuts in the wrong place', () => {
  it('is never echoed in the error, which says how to write it', () => {
    const secret = 'WholeSecret77';
    for (const url of [`postgres://u:${secret}/@127.0.0.1/db`, `postgres://u:${secret}#@127.0.0.1/db`, `postgres://u:?${secret}@127.0.0.1/db`, `mysql://u:${secret}/@127.0.0.1/db`, `mysql://u:?${secret}@127.0.0.1/db`]) {
      assert.throws(
        () => parseSourceSpec(url, { name: 'x' }),
        (e: unknown) => {
          const err = e as { message: string; hint: string };
          assert.ok(!`${err.message} ${err.hint}`.includes(secret), `${url}: ${err.message} ${err.hint}`);
          assert.match(err.hint, /percent-encode/);
          return true;
        },
      );
    }
  });
});
