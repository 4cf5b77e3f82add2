import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadSqlJs } from '../../src/core/catalog/sqljs';
import { allTools } from '../../src/server/tools';
import { indexInto, startHarness, tempDir } from '../support/server-harness';
import type { Harness } from '../support/server-harness';

/**
 * A blocked column never appears raw in any tool's output: every registered tool is called with every argument
 * shape that could reach the PII fixture, and no raw value of a floor-category column (nor, in the catalog tools,
 * its name) may appear in any response, audit row or event.
 */

const CANARIES = {
  card: '4539578763621486', // Luhn-valid
  ssn: '536-22-8714',
  hash: '$2b$12$KIXQJd9n3xV0yq8iN2Yz1uX5m7Q9wLr3sT1vB6cD8eF0gH2jK4lMm',
};

async function buildFixture(file: string): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE customer_account (
    account_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, email TEXT, password_hash TEXT, card_number TEXT, ssn TEXT, city TEXT)`);
  db.run(`CREATE TABLE purchase (purchase_id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES customer_account(account_id), amount REAL, bought_at TEXT)`);
  const cards = ['4539578763621486', '4556737586899855', '4916338506082832', '4024007198964305', '4716461583322103'];
  const ssns = ['536-22-8714', '219-09-9999', '457-55-5462', '078-05-1120', '323-45-6789'];
  for (let i = 1; i <= 40; i++) {
    db.run(`INSERT INTO customer_account VALUES (?, ?, ?, ?, ?, ?, ?)`, [
      i,
      `Person ${i}`,
      `person${i}@example.org`,
      i === 1 ? CANARIES.hash : `$2b$12$${'abcdefghijklmnopqrstuv'.repeat(3).slice(0, 53 - i % 7)}${i}`.slice(0, 60),
      cards[i % cards.length],
      ssns[i % ssns.length],
      ['Lyon', 'Porto', 'Oslo'][i % 3],
    ]);
    db.run(`INSERT INTO purchase VALUES (?, ?, ?, ?)`, [i, (i % 40) + 1, i * 3.5, `2024-0${(i % 9) + 1}-1${i % 9}`]);
  }
  // A secret written into the schema itself (a column default), which every surface that shows the schema must redact.
  db.run(`CREATE TABLE api_settings (id INTEGER PRIMARY KEY, label TEXT, note TEXT DEFAULT 'sk_live_4eC39HqLyjWDarjtT1zdp7dc')`);
  db.run(`INSERT INTO api_settings (id, label, note) VALUES (1, 'default', 'rotated monthly')`);
  // Full-text indexes over the blocked columns: an FTS4 table (this SQLite has the module), and the shadow tables of an
  // FTS5 index written by a SQLite that has that module (this one has not, so they read as plain tables).
  db.run('CREATE VIRTUAL TABLE account_search USING fts4(full_name, ssn, card_number)');
  db.run('INSERT INTO account_search(docid, full_name, ssn, card_number) SELECT account_id, full_name, ssn, card_number FROM customer_account');
  db.run('CREATE TABLE account_fts5_data(id INTEGER PRIMARY KEY, block BLOB)');
  db.run('CREATE TABLE account_fts5_idx(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID');
  db.run('CREATE TABLE account_fts5_docsize(id INTEGER PRIMARY KEY, sz BLOB)');
  db.run('CREATE TABLE account_fts5_config(k PRIMARY KEY, v) WITHOUT ROWID');
  for (let i = 0; i < ssns.length; i++) {
    db.run('INSERT INTO account_fts5_data VALUES (?, ?)', [i + 1, new TextEncoder().encode(`\u0000\u0006${ssns[i]!.replace(/-/g, '\u0002')}`)]);
    db.run('INSERT INTO account_fts5_idx VALUES (1, ?, ?)', [ssns[i]!.slice(-4), i]);
  }
  db.run('PRAGMA writable_schema = ON');
  db.run("INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('table', 'account_fts5', 'account_fts5', 0, 'CREATE VIRTUAL TABLE account_fts5 USING fts5(full_name, ssn)')");
  db.run('PRAGMA writable_schema = OFF');
  fs.writeFileSync(file, db.export());
  db.close();
}

const ARG_SHAPES: ReadonlyArray<Record<string, unknown>> = [
  {},
  { qualified_name: 'main.customer_account' },
  { qualified_name: 'main.customer_account', response_format: 'detailed' },
  { qualified_name: 'main.customer_account.ssn' },
  { qualified_name: 'main.customer_account.card_number' },
  { qualified_name: 'main.customer_account.password_hash' },
  { query: 'customer account card ssn password', response_format: 'detailed' },
  { query: '*', with_join_tree: true },
  { query: CANARIES.ssn },
  { tables: ['main.customer_account', 'main.purchase'] },
  { sql: 'SELECT * FROM customer_account' },
  { sql: 'SELECT ssn, card_number FROM customer_account' },
  { sql: 'SELECT max(card_number) FROM customer_account' },
  { sql: 'SELECT a.password_hash FROM customer_account a JOIN purchase p ON p.account_id = a.account_id' },
  { sql: 'WITH x AS (SELECT ssn FROM customer_account) SELECT * FROM x' },
  { name: 'customer_account' },
];

describe('PII: no tool returns raw values of blocked columns', function () {
  let h: Harness;
  const outputs: Array<{ tool: string; args: Record<string, unknown>; text: string }> = [];

  before(async () => {
    const dir = tempDir();
    const db = path.join(dir, 'shop.sqlite');
    await buildFixture(db);
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, db, 'shop');
    h = await startHarness({ catalogPath: catalog });
    for (const tool of allTools) {
      for (const args of ARG_SHAPES) {
        const res = await h.client.callTool({ name: tool.name, arguments: args });
        outputs.push({ tool: tool.name, args, text: JSON.stringify(res) });
      }
    }
  });
  after(async () => h?.close());

  it('classifies the fixture columns into the floor categories', async () => {
    const env = (await h.call('describe_table', { qualified_name: 'main.customer_account' })) as { data: { redacted_columns?: number } };
    assert.equal(env.data.redacted_columns, 3);
  });

  it('sweeps every registered tool with every argument shape', () => {
    assert.equal(outputs.length, allTools.length * ARG_SHAPES.length);
  });

  it('never returns a raw value of a blocked column', () => {
    for (const o of outputs) {
      const argText = JSON.stringify(o.args);
      for (const [what, value] of Object.entries(CANARIES)) {
        if (argText.includes(value)) continue; // the agent's own input may be echoed in a recovery hint
        assert.ok(!o.text.includes(value), `${o.tool} ${argText} leaked the ${what} canary`);
      }
      // Other fixture values of the blocked columns (not just the canaries).
      assert.doesNotMatch(o.text, /4556737586899855|4916338506082832|219-09-9999|457-55-5462/, `${o.tool} ${argText} leaked a blocked value`);
    }
  });

  it('never names a blocked column in catalog answers unless the agent named it first', () => {
    for (const o of outputs) {
      // run_query answers a statement over the table itself: its result columns and `masked_columns` name what was masked
      if (o.tool === 'run_query') continue;
      const argText = JSON.stringify(o.args);
      for (const col of ['password_hash', 'card_number', 'ssn']) {
        if (argText.includes(col)) continue;
        assert.ok(!o.text.includes(col), `${o.tool} ${argText} named the blocked column ${col}`);
      }
    }
  });

  it('answers blocked columns named outright with NULLs, degraded, and never their values', async () => {
    const env = (await h.call('run_query', { sql: 'SELECT city, ssn, card_number AS c, count(ssn) OVER () AS n FROM customer_account' })) as {
      status: string;
      degradation_reason: string;
      data: { rows: unknown[][]; masked_columns: string[] };
    };
    assert.equal(env.status, 'degraded');
    assert.equal(env.degradation_reason, 'pii_masked');
    assert.deepEqual([...env.data.masked_columns].sort(), ['main.customer_account.card_number', 'main.customer_account.ssn']);
    assert.equal(env.data.rows.length, 40);
    // stored values read as the empty value ('' here); NULL would stay NULL; no value, length or prefix survives
    for (const r of env.data.rows) assert.deepEqual(r.slice(1), ['', '', 40]);
    const plain = (await h.call('run_query', { sql: 'SELECT city, count(*) FROM customer_account GROUP BY city' })) as { status: string };
    assert.equal(plain.status, 'success', 'a statement that reaches no blocked column is not degraded');
  });

  it('answers SELECT * with the blocked columns masked at the source (degraded, masked columns named)', async () => {
    const env = (await h.call('run_query', { sql: "SELECT * FROM customer_account WHERE city = 'Oslo'" })) as {
      status: string;
      degradation_reason: string;
      data: { columns: Array<{ name: string }>; rows: unknown[][]; masked_columns: string[] };
    };
    assert.equal(env.status, 'degraded');
    assert.equal(env.degradation_reason, 'pii_masked');
    assert.deepEqual(env.data.columns.map((c) => c.name), ['account_id', 'full_name', 'email', 'password_hash', 'card_number', 'ssn', 'city']);
    assert.deepEqual([...env.data.masked_columns].sort(), ['main.customer_account.card_number', 'main.customer_account.password_hash', 'main.customer_account.ssn']);
    assert.ok(env.data.rows.length > 0);
    for (const r of env.data.rows) assert.deepEqual([r[3], r[4], r[5]], ['', '', '']);
  });

  it('reads nothing from a full-text index over blocked columns, through its module or its shadow tables', async () => {
    const counts: Array<[string, string]> = [
      ['SELECT count(*) FROM account_search', 'the FTS4 table'],
      ["SELECT count(*) FROM account_search WHERE account_search MATCH '8714'", 'an FTS4 match on an SSN part'],
      ['SELECT count(*) FROM account_search_segdir', 'the FTS4 segment directory'],
      ['SELECT count(*) FROM account_search_segments', 'the FTS4 segments'],
      ['SELECT count(*) FROM account_search_content', 'the FTS4 content'],
      ['SELECT count(*) FROM account_fts5_data', 'the FTS5 blocks'],
      ['SELECT count(*) FROM account_fts5_idx', 'the FTS5 term index'],
    ];
    for (const [sql, what] of counts) {
      const env = (await h.call('run_query', { sql })) as { status: string; data: { rows: unknown[][] } | null; error: { kind: string } | null };
      if (env.status === 'refused' || env.status === 'error') continue; // not read at all
      assert.deepEqual(env.data?.rows, [[0]], `${what}: ${JSON.stringify(env)}`);
    }
    const terms = JSON.stringify(await h.call('run_query', { sql: 'SELECT term, hex(term) FROM account_fts5_idx' }));
    assert.doesNotMatch(terms, /8714|9999|5462/);
  });

  it('redacts secrets in the schema from resources, prompts and completions as tools do', async () => {
    const secret = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
    const described = JSON.stringify(await h.call('describe_column', { qualified_name: 'main.api_settings.note' }));
    assert.ok(!described.includes(secret), 'the tool redacts it');
    const texts: string[] = [JSON.stringify(await h.client.listResources())];
    for (const uri of ['schemabrain://shop/main/api_settings', 'schemabrain://shop/main/api_settings/note']) texts.push(JSON.stringify(await h.client.readResource({ uri })));
    texts.push(JSON.stringify(await h.client.getPrompt({ name: 'review_table_quality', arguments: { table: 'main.api_settings' } })));
    texts.push(JSON.stringify(await h.client.getPrompt({ name: 'explore_database', arguments: { source: 'shop' } })));
    for (const t of texts) assert.ok(!t.includes(secret), t.slice(0, 300));
    assert.ok(texts.some((t) => t.includes('<redacted:')), 'the default is shown redacted, not dropped');
  });

  it('keeps raw values out of the audit log and the event file', () => {
    const audit = fs.readFileSync(h.auditPath, 'utf8');
    const events = fs.readFileSync(h.eventsPath, 'utf8');
    for (const v of ['4556737586899855', '219-09-9999']) {
      assert.ok(!audit.includes(v));
      assert.ok(!events.includes(v));
    }
  });
});
