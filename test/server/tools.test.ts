import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadSqlJs } from '../../src/core/catalog/sqljs';
import { CatalogStore } from '../../src/core/catalog/store';
import { PERSIST_SEARCH_MIN_TABLES } from '../../src/core/indexing/run-index';
import { CatalogView } from '../../src/core/catalog/view';
import { EnvelopeSchema } from '../../src/core/envelope';
import { DEFAULT_POLICY } from '../../src/core/pii';
import { buildSearchIndex, deserializeIndex, searchInput } from '../../src/core/search';
import { createPiiGate } from '../../src/server/pii-gate';
import { CHINOOK_SQLITE, indexInto, startHarness, tempDir } from '../support/server-harness';
import type { Harness } from '../support/server-harness';

const SNAPSHOTS = path.join(__dirname, 'snapshots', 'tools');

function assertEnvelope(env: Record<string, unknown>): void {
  const r = EnvelopeSchema.safeParse(env);
  assert.ok(r.success, `invalid envelope: ${JSON.stringify(r.error?.issues)}\n${JSON.stringify(env).slice(0, 400)}`);
}

type Env = { status: string; data: Record<string, unknown> & { [k: string]: unknown }; error: { kind: string; message: string; recovery: Record<string, unknown> } | null; confidence: string | null };

describe('MCP server over the SDK client (Chinook SQLite)', function () {
  let h: Harness;
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<Env> => {
    const env = await h.call(name, args);
    assertEnvelope(env);
    return env as unknown as Env;
  };

  before(async () => {
    const dir = tempDir();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, CHINOOK_SQLITE, 'chinook');
    h = await startHarness({ catalogPath: catalog });
  });
  after(async () => h?.close());

  it('lists every tool with the envelope as outputSchema and annotations from the charter table', async () => {
    const { tools } = await h.client.listTools();
    assert.ok(tools.length >= 7);
    for (const t of tools) {
      assert.equal((t.outputSchema as { type?: string }).type, 'object');
      assert.equal(t.annotations?.readOnlyHint, true);
      assert.equal(t.annotations?.destructiveHint, false);
      assert.equal(typeof t.annotations?.idempotentHint, 'boolean');
      assert.ok(['fast', 'moderate', 'slow'].includes(String(t._meta?.latency_hint)));
    }
  });

  it('matches the committed tools/list snapshot of each tool', async () => {
    const { tools } = await h.client.listTools();
    fs.mkdirSync(SNAPSHOTS, { recursive: true });
    for (const t of tools) {
      const file = path.join(SNAPSHOTS, `${t.name}.json`);
      const actual = `${JSON.stringify(t, null, 2)}\n`;
      if (process.env.UPDATE_SNAPSHOTS === '1' || !fs.existsSync(file)) fs.writeFileSync(file, actual);
      assert.equal(actual, fs.readFileSync(file, 'utf8'), `tools/list entry of ${t.name} changed; re-run with UPDATE_SNAPSHOTS=1 if intended`);
    }
    const listed = new Set(tools.map((t) => `${t.name}.json`));
    for (const f of fs.readdirSync(SNAPSHOTS)) assert.ok(listed.has(f), `stale snapshot ${f}`);
  });

  it('keeps tools/list within a 6,000-token budget', async () => {
    const { tools } = await h.client.listTools();
    assert.ok(JSON.stringify(tools).length / 4 <= 6000, `tools/list is ${Math.round(JSON.stringify(tools).length / 4)} tokens`);
  });

  it('list_indexed_schemas reports the source with its schema and counts', async () => {
    const env = await call('list_indexed_schemas');
    assert.equal(env.status, 'success');
    const src = (env.data.sources as Array<Record<string, unknown>>)[0]!;
    assert.equal(src.name, 'chinook');
    assert.equal(src.engine, 'sqlite');
    assert.equal(src.table_count, 11);
    assert.deepEqual(src.schemas, [{ name: 'main', tables: 11, views: 0 }]);
    // A source named in another case is that source; one no source is called is an error with the closest names.
    assert.equal(((await call('list_indexed_schemas', { source: 'Chinook' })).data.sources as unknown[]).length, 1);
    const wrong = (await call('list_indexed_schemas', { source: 'chinok' })) as unknown as { status: string; error: { kind: string; recovery: { fuzzy_matches: string[] } } };
    assert.equal(wrong.status, 'error');
    assert.equal(wrong.error.kind, 'unknown_name');
    assert.deepEqual(wrong.error.recovery.fuzzy_matches, ['chinook']);
  });

  it('an error answer stays small whatever size of argument it is about', async () => {
    for (const args of [{ qualified_name: 'main.'.concat('x'.repeat(2_000_000)) }, { qualified_name: 'main.Album', source: Array.from({ length: 100_000 }, (_, i) => `s${i}`) }]) {
      const res = await h.client.callTool({ name: 'describe_table', arguments: args });
      const size = JSON.stringify(res).length;
      assert.ok(size < 60_000, `answer of ${size} characters`);
      assert.equal((res.structuredContent as { status: string }).status, 'error');
    }
  });

  it('get_index_status answers unknown_name with the closest source for a source that is not indexed', async () => {
    const env = await call('get_index_status', { source: 'chinok' });
    assert.equal(env.status, 'error');
    assert.equal(env.error!.kind, 'unknown_name');
    assert.deepEqual((env.error!.recovery as unknown as { fuzzy_matches: string[] }).fuzzy_matches, ['chinook']);
    const one = await call('get_index_status', { source: 'CHINOOK' });
    assert.equal(one.status, 'success');
    assert.equal((one.data.sources as unknown[]).length, 1);
  });

  it('describe_table returns columns, keys, foreign keys both ways and the row estimate', async () => {
    const env = await call('describe_table', { qualified_name: 'main.Invoice' });
    assert.equal(env.status, 'success');
    assert.equal(env.confidence, 'HIGH');
    const d = env.data;
    assert.equal(d.qualified_name, 'main.Invoice');
    assert.equal(d.row_estimate, 412);
    assert.deepEqual(d.primary_key, ['InvoiceId']);
    assert.deepEqual(d.foreign_keys, [{ columns: ['CustomerId'], references: 'main.Customer', referenced_columns: ['CustomerId'] }]);
    assert.deepEqual(d.referenced_by, [{ table: 'main.InvoiceLine', columns: ['InvoiceId'], referenced_columns: ['InvoiceId'] }]);
    const cols = d.columns as Array<Record<string, unknown>>;
    assert.equal(cols.length, 9);
    assert.equal(cols.find((c) => c.name === 'CustomerId')?.references, 'main.Customer.CustomerId');
  });

  it('describe_table in detailed mode adds indexes and column statistics', async () => {
    const env = await call('describe_table', { qualified_name: 'main.Track', response_format: 'detailed' });
    assert.equal(env.status, 'success');
    assert.ok(Array.isArray(env.data.indexes) && (env.data.indexes as unknown[]).length > 0);
    const cols = env.data.columns as Array<Record<string, unknown>>;
    assert.ok(cols.some((c) => c.stats), 'some column carries stats');
    const concise = await call('describe_table', { qualified_name: 'main.Track' });
    assert.ok(JSON.stringify(concise.data).length < JSON.stringify(env.data).length);
  });

  it('accepts names case-insensitively and with quoted segments', async () => {
    assert.equal((await call('describe_table', { qualified_name: 'MAIN.invoiceline' })).data.qualified_name, 'main.InvoiceLine');
    assert.equal((await call('describe_table', { qualified_name: '"main"."Album"' })).data.qualified_name, 'main.Album');
  });

  it('answers a bare table name with malformed_name and the qualified candidate', async () => {
    const env = await call('describe_table', { qualified_name: 'Invoice' });
    assert.equal(env.status, 'error');
    assert.equal(env.error!.kind, 'malformed_name');
    assert.deepEqual(env.error!.recovery.fuzzy_matches, ['main.Invoice']);
    assert.deepEqual(env.error!.recovery.suggested_args, { qualified_name: 'main.Invoice' });
  });

  it('answers an unknown table with unknown_name, close names and a search to try', async () => {
    const env = await call('describe_table', { qualified_name: 'main.Invoices' });
    assert.equal(env.error!.kind, 'unknown_name');
    assert.ok((env.error!.recovery.fuzzy_matches as string[]).includes('main.Invoice'));
    assert.equal(env.error!.recovery.suggested_tool, 'find_relevant_tables');
    const bad = await call('describe_table', { qualified_name: 'main."unterminated' });
    assert.equal(bad.error!.kind, 'malformed_name');
  });

  it('describe_column returns stats and the foreign keys into and out of the column', async () => {
    const env = await call('describe_column', { qualified_name: 'main.Track.AlbumId' });
    assert.equal(env.status, 'success');
    assert.equal((env.data.outgoing_foreign_keys as unknown[]).length, 1);
    const pk = await call('describe_column', { qualified_name: 'main.Album.AlbumId' });
    assert.deepEqual((pk.data.incoming_foreign_keys as Array<{ table: string }>).map((f) => f.table), ['main.Track']);
    const genre = await call('describe_column', { qualified_name: 'main.Genre.Name' });
    const stats = genre.data.stats as { distinct_estimate: number; null_fraction: number };
    assert.ok(stats.distinct_estimate > 20 && stats.distinct_estimate <= 30, JSON.stringify(stats));
  });

  it('describe_column on a missing column points at describe_table with close names', async () => {
    const env = await call('describe_column', { qualified_name: 'main.Track.Nmae' });
    assert.equal(env.error!.kind, 'unknown_name');
    assert.equal(env.error!.recovery.suggested_tool, 'describe_table');
    assert.deepEqual(env.error!.recovery.suggested_args, { qualified_name: 'main.Track' });
    assert.ok((env.error!.recovery.fuzzy_matches as string[]).includes('main.Track.Name'));
  });

  it('suggest_joins connects Artist to InvoiceLine through Album and Track', async () => {
    const env = await call('suggest_joins', { tables: ['main.Artist', 'main.InvoiceLine'] });
    assert.equal(env.status, 'success');
    assert.equal(env.data.hops, 3);
    assert.deepEqual([...(env.data.bridge_tables as string[])].sort(), ['main.Album', 'main.Track']);
    for (const e of env.data.edges as Array<Record<string, unknown>>) assert.equal(e.confidence, 'HIGH');
  });

  it('suggest_joins finds the smallest tree for three tables', async () => {
    const env = await call('suggest_joins', { tables: ['main.Genre', 'main.Customer', 'main.MediaType'] });
    assert.equal(env.status, 'success');
    // Genre–Track–MediaType plus Track–InvoiceLine–Invoice–Customer: 5 edges.
    assert.equal(env.data.hops, 5);
  });

  it('find_relevant_tables ranks the track table for a question about songs', async () => {
    const env = await call('find_relevant_tables', { query: 'which songs are longest', limit: 5 });
    assert.equal(env.status, 'success');
    const tables = (env.data.tables as Array<{ table: string; why: string[] }>).map((t) => t.table);
    assert.ok(tables.slice(0, 3).includes('main.Track'), tables.join(','));
    for (const t of env.data.tables as Array<{ why: string[] }>) assert.ok(t.why.length > 0);
  });

  it('find_relevant_tables with a query that matches nothing is degraded with candidates and a map of areas, never a dead end', async () => {
    const env = await call('find_relevant_tables', { query: 'zzqx wplk' });
    assert.equal(env.status, 'degraded');
    assert.equal((env as unknown as { degradation_reason: string }).degradation_reason, 'no_confident_match');
    assert.equal(env.data.match, 'no_match');
    assert.ok((env.data.tables as unknown[]).length > 0);
    const areas = env.data.areas as Array<{ area: string; tables: number; summary: string; examples: string[] }>;
    assert.ok(areas.length > 0 && areas.every((a) => a.tables > 0 && a.summary.length > 0 && a.examples.length > 0), JSON.stringify(areas));
  });

  it('find_relevant_tables with only words that ask is degraded with the map of the catalog, and a blank query is a typed error', async () => {
    for (const query of ['show me everything', 'what tables are there?', '?']) {
      const env = await call('find_relevant_tables', { query });
      assert.equal(env.status, 'degraded', query);
      assert.equal(env.data.match, 'no_words', query);
      assert.ok((env.data.tables as unknown[]).length > 0 && (env.data.areas as unknown[]).length > 0, query);
    }
    const blank = await call('find_relevant_tables', { query: '  ' });
    assert.equal(blank.status, 'error');
    assert.equal(blank.error?.kind, 'invalid_argument');
    assert.match(blank.error!.message, /query is blank.*'\*'/);
  });

  it('find_relevant_tables refuses a source or schema filter that names nothing, with the closest names, and folds the case of a schema', async () => {
    type Failure = { status: string; error: { kind: string; message: string; recovery: { suggested_tool: string; suggested_args: Record<string, unknown>; fuzzy_matches: string[] } } };
    const schema = (await call('find_relevant_tables', { query: 'albums', schema: 'mian' })) as unknown as Failure;
    assert.equal(schema.status, 'error');
    assert.equal(schema.error.kind, 'unknown_name');
    assert.match(schema.error.message, /Schema 'mian'/);
    assert.deepEqual(schema.error.recovery.fuzzy_matches, ['main']);
    assert.equal(schema.error.recovery.suggested_tool, 'find_relevant_tables');
    assert.equal(schema.error.recovery.suggested_args.schema, 'main');
    // The recovery it suggests answers.
    assert.equal((await call('find_relevant_tables', schema.error.recovery.suggested_args)).status, 'success');
    // Nothing close: the same call without the filter.
    const far = (await call('find_relevant_tables', { query: 'albums', schema: 'zzqx' })) as unknown as Failure;
    assert.equal(far.error.kind, 'unknown_name');
    assert.equal('schema' in far.error.recovery.suggested_args, false);
    const source = (await call('find_relevant_tables', { query: 'albums', source: 'chinok' })) as unknown as Failure;
    assert.equal(source.error.kind, 'unknown_name');
    assert.deepEqual(source.error.recovery.fuzzy_matches, ['chinook']);
    // The case of a schema is not worth an error when only one schema matches without it.
    const folded = await call('find_relevant_tables', { query: 'albums', schema: 'MAIN' });
    assert.equal(folded.status, 'success');
    assert.ok((folded.data.tables as Array<{ table: string }>).some((t) => t.table === 'main.Album'));
  });

  it('run_query returns rows read-only and flags truncation with status partial', async () => {
    const env = await call('run_query', { sql: 'SELECT Name FROM Genre ORDER BY GenreId' });
    assert.equal(env.status, 'success');
    assert.equal(env.data.row_count, 25);
    const cut = await call('run_query', { sql: 'SELECT TrackId FROM Track', max_rows: 10 });
    assert.equal(cut.status, 'partial');
    assert.equal(cut.data.truncated, true);
    assert.equal((cut.data.rows as unknown[]).length, 10);
  });

  it('run_query refuses a write before it reaches the database', async () => {
    const env = await call('run_query', { sql: 'DELETE FROM Invoice' });
    assert.equal(env.status, 'refused');
    assert.equal(env.error!.kind, 'policy_blocked');
    const after = await call('run_query', { sql: 'SELECT count(*) AS n FROM Invoice' });
    assert.deepEqual(after.data.rows, [[412]]);
  });

  it('bad arguments come back as invalid_argument envelopes in the validator style', async () => {
    const big = await call('find_relevant_tables', { query: 'x', limit: 1000 });
    assert.equal(big.error!.kind, 'invalid_argument');
    assert.equal(big.error!.message, "argument 'limit' value must be <= 100");
    assert.deepEqual(big.error!.recovery.suggested_args, { query: 'x', limit: 100 });
    const typo = await call('find_relevant_tables', { qury: 'songs' });
    assert.match(typo.error!.message, /missing required argument 'query'/);
    assert.match(typo.error!.message, /unknown argument 'qury'/);
    assert.ok((typo.error!.recovery.fuzzy_matches as string[]).includes('query'));
    assert.deepEqual(typo.error!.recovery.suggested_args, { query: 'songs' });
    const wrongType = await call('describe_table', { qualified_name: 42 });
    assert.equal(wrongType.error!.message, "argument 'qualified_name' must be a string");
    const en = await call('describe_table', { qualified_name: 'main.Track', response_format: 'verbose' });
    assert.match(en.error!.message, /^argument 'response_format' must be one of the enum values/);
    const few = await call('suggest_joins', { tables: ['main.Track'] });
    assert.equal(few.error!.message, "argument 'tables' must have >= 2 items");
  });

  it('writes one audit row and one event per call', async () => {
    const before = fs.readFileSync(h.auditPath, 'utf8').trim().split('\n').length;
    await call('describe_table', { qualified_name: 'main.Artist' });
    const lines = fs.readFileSync(h.auditPath, 'utf8').trim().split('\n');
    assert.equal(lines.length, before + 1);
    assert.match(lines[lines.length - 1]!, /describe_table/);
    const events = fs.readFileSync(h.eventsPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool_name?: string });
    assert.equal(events[events.length - 1]!.tool_name, 'describe_table');
  });
});

describe('persisted search index', function () {
  it('is left out for small catalogs, where the server builds it faster than it loads', async () => {
    const dir = tempDir();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, CHINOOK_SQLITE, 'chinook');
    const store = await CatalogStore.open(catalog);
    assert.equal(CatalogView.fromStore(store).searchIndexBytes, null);
    store.close();
  });

  it('is written for large catalogs and matches the input the server builds, so the server loads it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'wide.sqlite');
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    const words = ['order', 'invoice', 'customer', 'product', 'shipment', 'supplier', 'payment', 'region', 'account', 'ledger'];
    for (let i = 0; i < PERSIST_SEARCH_MIN_TABLES; i++) {
      const name = `${words[i % words.length]}_${words[Math.floor(i / words.length) % words.length]}_${i}`;
      db.run(`CREATE TABLE "${name}" (id INTEGER PRIMARY KEY, label TEXT, amount REAL${i > 0 ? ', parent_id INTEGER' : ''})`);
    }
    fs.writeFileSync(file, db.export());
    db.close();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, file, 'wide');
    const store = await CatalogStore.open(catalog);
    const view = CatalogView.fromStore(store);
    store.close();
    assert.ok(view.searchIndexBytes && view.searchIndexBytes.length > 0);
    const gate = createPiiGate(DEFAULT_POLICY);
    const input = searchInput(view.entries.map((e) => ({ sourceName: e.source.name, table: e.table })), (tag) => gate.blockedCategories(tag).length > 0);
    const loaded = deserializeIndex(view.searchIndexBytes, input);
    assert.ok(loaded, 'bytes match the server-side input');
    assert.deepEqual(loaded.search('supplier payments').hits.map((h) => h.qualifiedName), buildSearchIndex(input).search('supplier payments').hits.map((h) => h.qualifiedName));
    // A server with a stricter policy (here: every column blocked) indexes other input: the bytes are refused and it rebuilds.
    const strict = searchInput(view.entries.map((e) => ({ sourceName: e.source.name, table: e.table })), () => true);
    assert.equal(deserializeIndex(view.searchIndexBytes, strict), null);
  });
});

describe('run_query on SQLite with a tight time cap', function () {
  it('stops a runaway statement at the cap and keeps answering', async () => {
    const dir = tempDir();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, CHINOOK_SQLITE, 'chinook');
    const h = await startHarness({ catalogPath: catalog, deps: { limits: { maxRows: 100, maxBytes: 1_000_000, statementTimeoutMs: 500 } } });
    try {
      const started = Date.now();
      const env = (await h.call('run_query', { sql: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r' })) as unknown as Env;
      assert.equal(env.status, 'error');
      assert.equal(env.error!.kind, 'cost_cap_exceeded');
      assert.ok(Date.now() - started < 10_000, 'stopped near the cap');
      const next = (await h.call('run_query', { sql: 'SELECT count(*) FROM Artist' })) as unknown as Env;
      assert.deepEqual(next.data.rows, [[275]]);
    } finally {
      await h.close();
    }
  });
});

describe('MCP server without a usable catalog', () => {
  it('answers index_not_ready with a recovery when no catalog exists', async () => {
    const h = await startHarness();
    try {
      const env = (await h.call('describe_table', { qualified_name: 'main.Invoice' })) as unknown as Env;
      assertEnvelope(env as unknown as Record<string, unknown>);
      assert.equal(env.error!.kind, 'index_not_ready');
      assert.equal(env.error!.recovery.suggested_tool, 'get_index_status');
      const status = (await h.call('get_index_status')) as unknown as Env;
      assert.equal(status.status, 'success');
      assert.equal(status.data.catalog_state, 'missing');
      assert.match(String(status.data.next_step), /schemabrain index/);
    } finally {
      await h.close();
    }
  });

  it('answers index_not_ready naming the damage when the catalog file is corrupt', async () => {
    const dir = tempDir();
    const catalog = path.join(dir, 'catalog.sqlite');
    fs.writeFileSync(catalog, 'this is not a database'.repeat(20));
    const h = await startHarness({ catalogPath: catalog });
    try {
      const env = (await h.call('list_indexed_schemas')) as unknown as Env;
      assert.equal(env.error!.kind, 'index_not_ready');
      assert.match(env.error!.message, /cannot be read/);
      assert.match(env.error!.message, /--rebuild/, 'the message names the way to build it again');
      assert.equal(fs.readFileSync(catalog, 'utf8'), 'this is not a database'.repeat(20), 'the damaged file is left as it was');
    } finally {
      await h.close();
    }
  });
});
