import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { classifyColumn } from '../../src/core/pii';
import { parsePolicyYaml } from '../../src/core/pii/policy';
import { runIndex } from '../../src/core/indexing/run-index';
import { createIntrospector, parseSourceSpec } from '../../src/core/sources';
import { createPiiGate } from '../../src/server/pii-gate';
import { startHarness, tempDir, type Harness } from '../support/server-harness';

/**
 * Shapes of a SQLite file whose blocked values the query copy once handed out: a decoy column whose name only
 * JavaScript folds onto a credential's (the Kelvin sign, U+212A, lower-cases to `k`), view columns blocked in their
 * own right (by name or by the operator), a column that references a blocked one through a foreign key.
 */

const POLICY = `version: 1
column_overrides:
  main.emp_summary.health_note: { categories: [health], block: true }
`;
const K = '\u212a';

describe('the SQLite query copy masks every blocked column, wherever it is', function () {
  this.timeout(120_000);
  let h: Harness | undefined;

  before(async () => {
    const dir = tempDir('sb-sqlite-shapes-');
    const file = path.join(dir, 'shapes.sqlite');
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(`
      CREATE TABLE accounts (id INTEGER PRIMARY KEY, login TEXT, private_key TEXT, "private_${K}ey" TEXT);
      INSERT INTO accounts VALUES (1, 'bob', 'correct horse battery staple', 'decoy one');
      CREATE TABLE emp (id INTEGER PRIMARY KEY, first TEXT, passport_number TEXT UNIQUE, diagnosis TEXT);
      INSERT INTO emp VALUES (1, 'bob', 'X1234567', 'purple elephant syndrome'), (2, 'amy', 'K7654321', 'green giraffe fever');
      CREATE VIEW creds AS SELECT id, lower(first) || 'hunter2secret' AS password FROM emp;
      CREATE VIEW emp_summary AS SELECT id, first || ' has ' || diagnosis AS health_note FROM emp;
      CREATE VIEW emp_named(ident, nick) AS SELECT id, first FROM emp ORDER BY id;
      CREATE VIEW emp_pass(ident, pn) AS SELECT id, passport_number FROM emp;
      CREATE TABLE visas (id INTEGER PRIMARY KEY, holder TEXT REFERENCES emp(passport_number), country TEXT);
      INSERT INTO visas VALUES (1, 'X1234567', 'FR'), (2, 'K7654321', 'DE');
      CREATE TABLE vaultkeys (password INTEGER PRIMARY KEY, owner TEXT);
      INSERT INTO vaultkeys VALUES (4711, 'ann'), (4712, 'bob');
      CREATE VIEW v_master AS SELECT name, sql FROM sqlite_master;
      CREATE VIEW v_opts AS SELECT * FROM pragma_compile_options;
      CREATE VIEW v_over_master AS SELECT * FROM v_master;
      CREATE VIEW v_plain AS SELECT id, first FROM emp;
    `);
    fs.writeFileSync(file, db.export());
    db.close();
    const catalogPath = path.join(dir, 'catalog.sqlite');
    const policy = parsePolicyYaml(POLICY);
    await runIndex({ spec: parseSourceSpec(file, { name: 'shapes' }), sourceInput: file, catalogPath, policy, deps: { createIntrospector, classifyColumn } });
    h = await startHarness({ catalogPath, deps: { pii: createPiiGate(policy) } });
  });
  after(async () => h?.close());

  const run = async (sql: string): Promise<{ status: string; text: string; rows: unknown[][]; masked: string[] }> => {
    const env = (await h!.call('run_query', { sql })) as { status: string; data?: { rows?: unknown[][]; masked_columns?: string[] } };
    return { status: env.status, text: JSON.stringify(env), rows: env.data?.rows ?? [], masked: env.data?.masked_columns ?? [] };
  };

  it('masks the credential itself, not a column whose name only JavaScript folds onto it', async () => {
    const r = await run(`SELECT login, private_key, "private_${K}ey" FROM accounts`);
    assert.ok(!r.text.includes('correct horse'), r.text.slice(0, 400));
    assert.deepEqual(r.rows[0]!.slice(0, 2), ['bob', ''], 'the credential reads empty (the look-alike may be masked too)');
  });

  it('masks view columns blocked in their own right, by name or by the operator, and keeps the view usable', async () => {
    for (const sql of ['SELECT * FROM creds', 'SELECT password FROM creds', 'SELECT health_note FROM emp_summary', 'SELECT s.* FROM emp_summary s JOIN creds c ON c.id = s.id']) {
      const r = await run(sql);
      assert.ok(!/hunter2secret|elephant|giraffe/.test(r.text), `${sql}: ${r.text.slice(0, 400)}`);
      assert.equal(r.status, 'degraded', `${sql}: ${r.text.slice(0, 300)}`);
    }
    const counted = await run('SELECT count(*), count(password) FROM creds');
    assert.deepEqual(counted.rows, [[2, 2]], 'NULL stays NULL, anything else reads empty: counts stay right');
    const listed = await run('SELECT * FROM emp_pass');
    assert.ok(!/X1234567|K7654321/.test(listed.text), listed.text.slice(0, 300));
    assert.equal(listed.status, 'degraded', `a view renaming a blocked column in its column list: ${listed.text.slice(0, 300)}`);
    for (const [tool, args] of [['profile_table', { qualified_name: 'main.emp_pass', response_format: 'detailed' }], ['describe_column', { qualified_name: 'main.emp_pass.pn' }]] as const) {
      const d = JSON.stringify(await h!.call(tool, args));
      assert.ok(!/X1234567|K7654321/.test(d), `${tool}: ${d.slice(0, 400)}`);
    }
    const plain = await run('SELECT ident, nick FROM emp_named');
    assert.deepEqual(plain.rows, [[1, 'bob'], [2, 'amy']], 'a view with nothing blocked reads as it is');
  });

  it("answers no view of the file whose definition the guard would refuse (system tables, pragma functions)", async () => {
    for (const sql of ['SELECT * FROM v_master', 'SELECT * FROM v_opts', 'SELECT * FROM v_over_master']) {
      const r = await run(sql);
      assert.notEqual(r.status, 'success', `${sql}: ${r.text.slice(0, 300)}`);
      assert.ok(!/CREATE TABLE|passport_number|ENABLE_/.test(r.text), `${sql}: ${r.text.slice(0, 300)}`);
    }
    assert.deepEqual((await run('SELECT count(*) FROM v_plain')).rows, [[2]]);
  });

  it('says so when a table had to be emptied because its blocked column could not be overwritten (the rowid)', async () => {
    const r = await run('SELECT count(*) FROM vaultkeys');
    assert.ok(!/4711|4712/.test(r.text), r.text.slice(0, 300));
    assert.equal(r.status, 'degraded', r.text.slice(0, 300));
    assert.ok(r.masked.some((c) => c.endsWith('vaultkeys.password')), r.text.slice(0, 300));
    assert.equal((await run('SELECT count(*) FROM emp')).status, 'success', 'other tables are not affected');
  });

  it('masks a column that references a blocked one through a foreign key', async () => {
    const r = await run('SELECT v.holder, e.first FROM visas v JOIN emp e ON e.id = v.id ORDER BY v.id');
    assert.ok(!/X1234567|K7654321/.test(r.text), r.text.slice(0, 400));
    assert.deepEqual(r.rows.map((x) => x[1]), ['bob', 'amy']);
    for (const [tool, args] of [['describe_table', { qualified_name: 'main.visas', response_format: 'detailed' }], ['describe_column', { qualified_name: 'main.visas.country' }], ['describe_column', { qualified_name: 'main.creds.id' }]] as const) {
      const d = JSON.stringify(await h!.call(tool, args));
      assert.ok(!/passport_number|X1234567/.test(d), `${tool} names the blocked column it references: ${d.slice(0, 400)}`);
    }
    const profile = await h!.call('profile_table', { qualified_name: 'main.visas', response_format: 'detailed' });
    assert.ok(!/X1234567|K7654321/.test(JSON.stringify(profile)), JSON.stringify(profile).slice(0, 400));
  });
});

describe('a column override applies on the next index run, in whatever ASCII case it names the column', function () {
  this.timeout(120_000);

  it('re-classifies a source whose structure is unchanged when the policy changed, and matches MOTTO to motto', async () => {
    const dir = tempDir('sb-sqlite-policy-');
    const file = path.join(dir, 'late.sqlite');
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run("CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT, MOTTO TEXT); INSERT INTO staff VALUES (1, 'ann', 'purple elephant dances');");
    fs.writeFileSync(file, db.export());
    db.close();
    const catalogPath = path.join(dir, 'catalog.sqlite');
    const index = (policy?: string) =>
      runIndex({ spec: parseSourceSpec(file, { name: 'late' }), sourceInput: file, catalogPath, ...(policy ? { policy: parsePolicyYaml(policy) } : {}), deps: { createIntrospector, classifyColumn } });
    assert.equal((await index()).mode, 'full');
    assert.equal((await index()).mode, 'unchanged', 'nothing changed: nothing to do');
    const policy = 'version: 1\ncolumn_overrides:\n  main.staff.motto: { categories: [contact], block: true }\n';
    const again = await index(policy);
    assert.notEqual(again.mode, 'unchanged', 'a new override is applied without waiting for a structural change');
    assert.equal((await index(policy)).mode, 'unchanged', 'the same policy again: unchanged');
    const h = await startHarness({ catalogPath, deps: { pii: createPiiGate(parsePolicyYaml(policy)) } });
    try {
      const r = await h.call('run_query', { sql: 'SELECT * FROM staff' });
      assert.ok(!JSON.stringify(r).includes('elephant'), JSON.stringify(r).slice(0, 300));
      const d = await h.call('describe_column', { qualified_name: 'main.staff.MOTTO' });
      assert.ok(!JSON.stringify(d).includes('elephant'), JSON.stringify(d).slice(0, 300));
    } finally {
      await h.close();
    }
  });
});

describe('get_metric: a join key paired with a blocked column', function () {
  this.timeout(120_000);
  it('refuses to group or filter by the column a join pairs with a blocked key (a table of words joined on the password)', async () => {
    const dir = tempDir('sb-metric-keys-');
    const file = path.join(dir, 'keys.sqlite');
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, password TEXT);
      INSERT INTO users VALUES (1, 'ann', 'hunter2secret'), (2, 'bob', 'other-pass-7');
      CREATE TABLE wordlist (rank INTEGER PRIMARY KEY, word TEXT);
      INSERT INTO wordlist VALUES (1, 'password1'), (3, 'hunter2secret');
      CREATE VIEW v_where AS SELECT id FROM users WHERE password = 'hunter2secret';
      CREATE VIEW v_top AS SELECT id FROM users ORDER BY password LIMIT 1;`);
    fs.writeFileSync(file, db.export());
    db.close();
    const catalogPath = path.join(dir, 'catalog.sqlite');
    await runIndex({ spec: parseSourceSpec(file, { name: 'keys' }), sourceInput: file, catalogPath, deps: { createIntrospector, classifyColumn } });
    const ws = path.join(dir, 'ws', '.schemabrain');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(
      path.join(ws, 'defs.yaml'),
      `version: 1
entities:
  - { name: users, table: main.users, identity: id }
  - { name: wordlist, table: main.wordlist, identity: rank }
  - { name: matched, table: main.v_where, identity: id }
joins:
  - { name: users_wordlist_pw, from: users, to: wordlist, on: [{ from: password, to: word }], cardinality: many_to_one }
metrics:
  - { name: users_count, entity: users, measure: { agg: count } }
  - { name: matched_max, entity: matched, measure: { agg: max, column: id } }
`,
    );
    const h = await startHarness({ catalogPath, deps: { workspaceDir: path.join(dir, 'ws') } });
    try {
      for (const args of [
        { name: 'users_count', group_by: ['users.id', 'wordlist.word'], via: ['users_wordlist_pw'] },
        { name: 'users_count', via: ['users_wordlist_pw'], filters: [{ column: 'wordlist.word', op: 'eq', value: 'hunter2secret' }] },
      ]) {
        const r = await h.call('get_metric', args);
        const text = JSON.stringify(r);
        assert.ok(!text.includes('hunter2secret') || (r as { status: string }).status === 'refused', text.slice(0, 300));
        assert.equal((r as { error?: { kind: string } | null }).error?.kind, 'pii_blocked', text.slice(0, 400));
      }
      // Views whose rows are picked by a blocked value: profile_table and get_metric refuse them (run_query reads them on
      // the masked copy, where the blocked value is gone).
      for (const [tool, args] of [['profile_table', { qualified_name: 'main.v_where', response_format: 'detailed' }], ['profile_table', { qualified_name: 'main.v_top' }], ['get_metric', { name: 'matched_max' }]] as const) {
        const r = (await h.call(tool, args)) as { status: string; error?: { kind: string } | null };
        assert.equal(r.error?.kind, 'pii_blocked', `${tool} ${JSON.stringify(args)}: ${JSON.stringify(r).slice(0, 300)}`);
      }
      const plain = await h.call('get_metric', { name: 'users_count', group_by: ['users.id'] });
      assert.notEqual((plain as { error?: { kind: string } | null }).error?.kind, 'pii_blocked', JSON.stringify(plain).slice(0, 300));
    } finally {
      await h.close();
    }
  });
});
