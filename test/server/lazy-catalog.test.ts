import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { PiiTag } from '../../src/core/catalog/model';
import { CatalogProvider, type CatalogState } from '../../src/core/catalog/provider';
import { loadSqlJs } from '../../src/core/catalog/sqljs';
import { CatalogStore } from '../../src/core/catalog/store';
import { CatalogView, VIEW_FRAME_ARTIFACT } from '../../src/core/catalog/view';
import { PERSIST_SEARCH_MIN_TABLES, runIndex } from '../../src/core/indexing/run-index';
import { classifyColumn, DEFAULT_POLICY } from '../../src/core/pii';
import { createIntrospector } from '../../src/core/sources';
import { parseSourceSpec } from '../../src/core/sources/locator';
import { openPersistedIndex, SEARCH_INDEX_ARTIFACT, visibleTable } from '../../src/core/search';
import { DerivedData } from '../../src/server/derived';
import { createPiiGate } from '../../src/server/pii-gate';
import { silentLogger } from '../../src/core/util/logger';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DIST_CLI, DIST_SERVER, ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, indexInto, startHarness, tempDir } from '../support/server-harness';
import type { Harness } from '../support/server-harness';

/**
 * A catalog large enough for the indexer to persist the view and search frames: the server then opens it reading
 * relations on demand. Every answer must be the one the server gives from the same file read whole.
 */

const WORDS = ['order', 'invoice', 'customer', 'product', 'shipment', 'supplier', 'payment', 'region', 'account', 'ledger', 'employee', 'warehouse'];

/** A SQLite database of PERSIST_SEARCH_MIN_TABLES tables: foreign keys between them, junctions, lookups, PII columns. */
async function wideDatabase(file: string): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  const names: string[] = [];
  for (let i = 0; i < PERSIST_SEARCH_MIN_TABLES; i++) {
    const a = WORDS[i % WORDS.length]!;
    const b = WORDS[Math.floor(i / WORDS.length) % WORDS.length]!;
    const name = i % 50 === 7 ? `${a}_status_${i}` : `${a}_${b}_${i}`;
    const cols = ['id INTEGER PRIMARY KEY', 'label TEXT', 'amount REAL'];
    if (i % 9 === 0) cols.push('email TEXT', 'first_name TEXT', 'last_name TEXT');
    if (i % 13 === 0) cols.push('city TEXT', 'country TEXT');
    const fks: string[] = [];
    if (i > 0) {
      cols.push('parent_id INTEGER');
      fks.push(`FOREIGN KEY (parent_id) REFERENCES "${names[(i * 7) % i]}"(id)`);
    }
    if (i > 10 && i % 5 === 0) {
      cols.push('other_id INTEGER', 'owner_id INTEGER');
      fks.push(`FOREIGN KEY (other_id) REFERENCES "${names[i - 3]}"(id)`, `FOREIGN KEY (owner_id) REFERENCES "${names[i - 10]}"(id)`);
    }
    db.run(`CREATE TABLE "${name}" (${[...cols, ...fks].join(', ')})`);
    names.push(name);
  }
  fs.writeFileSync(file, db.export());
  db.close();
}

/** A provider that hands out the view read whole from the file, as a server did before frames were persisted. */
class EagerProvider extends CatalogProvider {
  override async get(): Promise<CatalogState> {
    const store = await CatalogStore.open(this.path);
    try {
      return { state: 'ready', view: CatalogView.fromStore(store) };
    } finally {
      store.close();
    }
  }
}

const QUESTIONS: ReadonlyArray<Record<string, unknown>> = [
  { query: 'supplier payments' },
  { query: 'which customers placed orders', response_format: 'detailed' },
  { query: 'shipments by warehouse region', with_join_tree: true, limit: 8 },
  { query: 'employee email addresses', response_format: 'detailed' },
  { query: 'order status' },
  { query: 'zebra giraffe' },
  { query: '*', limit: 20 },
  { query: 'ledger accounts', schema: 'main' },
];

/** The envelope without what differs from call to call (timings, request ids). */
function stable(env: Record<string, unknown>): unknown {
  return JSON.parse(JSON.stringify(env, (k, v: unknown) => (/(_ms|_at|request_id|trace)$/.test(k) ? undefined : v)));
}

describe('catalog read on demand (persisted view and search frames)', function () {
  this.timeout(180_000);
  let dir: string;
  let catalog: string;

  before(async () => {
    dir = tempDir('sb-lazy-');
    const db = path.join(dir, 'wide.sqlite');
    await wideDatabase(db);
    catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, db, 'wide');
  });

  async function answers(h: Harness, describe: readonly string[]): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const q of QUESTIONS) out.push(stable(await h.call('find_relevant_tables', q)));
    for (const t of describe) out.push(stable(await h.call('describe_table', { qualified_name: t })));
    for (const t of describe.slice(0, 2)) out.push(stable(await h.call('describe_table', { qualified_name: t, response_format: 'detailed' })));
    out.push(stable(await h.call('describe_table', { qualified_name: 'main.no_such_table' })));
    out.push(stable(await h.call('describe_table', { qualified_name: describe[0]!.split('.')[1]! })));
    return out;
  }

  it('opens a catalog with persisted frames without reading its relations, and reads only what a call uses', async () => {
    const store = await CatalogStore.open(catalog);
    const reads: string[] = [];
    const load = store.loadTable.bind(store);
    store.loadTable = (sourceId, schema, name) => {
      reads.push(`${schema}.${name}`);
      return load(sourceId, schema, name);
    };
    const { view, owned } = CatalogView.open(store);
    assert.equal(owned, true);
    assert.equal(view.readsOnDemand, true);
    assert.equal(view.entries.length, PERSIST_SEARCH_MIN_TABLES);
    assert.equal(reads.length, 0, 'opening reads no relation');
    const gate = createPiiGate(DEFAULT_POLICY);
    const isBlocked = (tag: PiiTag | null): boolean => gate.blockedCategories(tag).length > 0;
    const index = openPersistedIndex(view.searchIndexBytes!, { generation: view.generation, tables: view.entries, isBlocked, table: (d) => visibleTable(view.entries[d]!.table, isBlocked) });
    assert.ok(index, 'the persisted search frame belongs to this catalog');
    const result = index.search('supplier payments');
    assert.ok(result.hits.length > 0);
    assert.ok(reads.length > 0 && reads.length <= 3 * result.hits.length, `a search reads the tables it explains, not the catalog (${reads.length} read)`);
    // A role the catalog does not name makes the ranker look for a hub of typed relationships: by the frame, not by
    // reading every table's columns.
    const before = reads.length;
    const roles = index.search('which drummers and producers made supplier payments');
    assert.ok(reads.length - before <= 3 * roles.hits.length, `a role question reads the tables it explains (${reads.length - before} read)`);
    const top = view.resolveTable(result.hits[0]!.qualifiedName);
    assert.ok(top.ok);
    assert.ok(top.value.table.columns.length > 0);
    // The same table read whole: identical, reverse foreign keys included.
    const eager = CatalogView.fromStore(store);
    const e = eager.resolveTable(result.hits[0]!.qualifiedName);
    assert.ok(e.ok);
    assert.deepEqual(top.value.table, e.value.table);
    const incoming = (v: CatalogView, i: number): unknown => v.incomingForeignKeys(v.entries[i]!).map((r) => [r.from.key, r.fk]);
    let linked = 0;
    for (let i = 0; i < 40; i++) {
      assert.deepEqual(incoming(view, i), incoming(eager, i));
      if (view.incomingForeignKeys(view.entries[i]!).length > 0) linked++;
    }
    assert.ok(linked > 5, 'the sample has tables that other tables reference');
    assert.equal(reads.length < PERSIST_SEARCH_MIN_TABLES / 2, true, `${reads.length} relations read`);
    // Once every relation has been read (resources/list does that), the store is closed and its memory released;
    // the view keeps answering from what it read.
    const columns = view.entries.reduce((n, entry) => n + entry.table.columns.length, 0);
    assert.equal(new Set(reads).size, PERSIST_SEARCH_MIN_TABLES, 'each relation read once');
    assert.equal(reads.length, PERSIST_SEARCH_MIN_TABLES);
    let closed = '';
    try {
      load(view.sources[0]!.id, 'main', view.entries[0]!.qualifiedName.split('.')[1]!);
    } catch (e) {
      closed = String(e); // sql.js throws a string
    }
    assert.match(closed, /closed/i, 'the store is closed');
    assert.equal(view.entries.reduce((n, entry) => n + entry.table.columns.length, 0), columns);
    assert.deepEqual(incoming(view, 5), incoming(eager, 5));
  });

  it('opens the persisted search index ahead of the first question, reading no relation, with the same answers', async () => {
    const warmed = await startHarness({ catalogPath: catalog });
    const cold = await startHarness({ catalogPath: catalog });
    const missing = await startHarness();
    try {
      assert.equal(await warmed.server.warm(), true);
      assert.equal(await missing.server.warm(), false, 'no catalog, nothing to open');
      for (const q of QUESTIONS) assert.deepEqual(stable(await warmed.call('find_relevant_tables', q)), stable(await cold.call('find_relevant_tables', q)));
    } finally {
      await warmed.close();
      await cold.close();
      await missing.close();
    }
    // What warm-up opens reads no relation: the search frame alone.
    const store = await CatalogStore.open(catalog);
    let reads = 0;
    const load = store.loadTable.bind(store);
    store.loadTable = (sourceId, schema, name) => {
      reads++;
      return load(sourceId, schema, name);
    };
    const { view } = CatalogView.open(store);
    const derived = new DerivedData(createPiiGate(DEFAULT_POLICY));
    assert.equal(derived.warm(view), true);
    assert.equal(reads, 0);
    // The question put while idle reads what its hits name, once per process; the answers stay those of a cold index.
    assert.equal(derived.probe(view), true);
    assert.ok(reads > 0, 'the warm-up question read the relations of its hits');
    assert.equal(derived.probe(view), false, 'put once');
    const fresh = new DerivedData(createPiiGate(DEFAULT_POLICY));
    for (const q of ['supplier payments', 'which customers placed orders', 'order status']) {
      assert.deepEqual(derived.searchIndex(view).search(q, { limit: 10, withJoinTree: true }), fresh.searchIndex(view).search(q, { limit: 10, withJoinTree: true }));
    }
    // A call that asks first warms the code itself: no question is put after it.
    const asked = new DerivedData(createPiiGate(DEFAULT_POLICY));
    asked.warm(view);
    asked.searchIndex(view);
    assert.equal(asked.probe(view), false);
    // Without warm(), the question opens the index itself.
    assert.equal(new DerivedData(createPiiGate(DEFAULT_POLICY)).probe(view), true);
  });

  it('warms the ranking once the server has been idle after the handshake, and gives the same answers', async () => {
    const logged: string[] = [];
    const logger = { ...silentLogger, debug: (m: string) => logged.push(m) };
    const warmed = await startHarness({ catalogPath: catalog, deps: { logger } });
    const busy = await startHarness({ catalogPath: catalog, deps: { logger: { ...silentLogger, debug: (m: string) => logged.push(`busy: ${m}`) } } });
    const cold = await startHarness({ catalogPath: catalog });
    // A catalog too small for a persisted index: the index is built while idle.
    const small = path.join(dir, 'small.sqlite');
    await indexInto(small, CHINOOK_SQLITE, 'chinook');
    const built = await startHarness({ catalogPath: small, deps: { logger: { ...silentLogger, debug: (m: string) => logged.push(`small: ${m}`) } } });
    const smallCold = await startHarness({ catalogPath: small });
    try {
      assert.equal(await warmed.server.warm(), true);
      assert.equal(await built.server.warm(), false, 'nothing persisted to open');
      // A call that comes before the idle delay warms the code itself: that server puts no question of its own.
      assert.equal(await busy.server.warm(), true);
      await busy.call('find_relevant_tables', QUESTIONS[0]!);
      await new Promise((r) => setTimeout(r, 900)); // past the idle delay
      // Both servers of the large catalog opened its persisted index; the small one had none to open.
      assert.deepEqual(logged.sort(), [
        'busy: search index opened from the catalog file',
        'search index opened from the catalog file',
        'search warm-up: one question put while idle',
        'small: search warm-up: one question put while idle',
      ]);
      for (const q of QUESTIONS.slice(0, 4)) assert.deepEqual(stable(await warmed.call('find_relevant_tables', q)), stable(await cold.call('find_relevant_tables', q)));
      for (const q of ['customer invoices', 'which artists have the most tracks']) assert.deepEqual(stable(await built.call('find_relevant_tables', { query: q })), stable(await smallCold.call('find_relevant_tables', { query: q })));
    } finally {
      await warmed.close();
      await busy.close();
      await cold.close();
      await built.close();
      await smallCold.close();
    }
  });

  it('the bundles (their own sql.js build) write and read the persisted index as the source tree does', async () => {
    ensureBuilt();
    const source = path.join(dir, 'wide.sqlite');
    const bundled = path.join(dir, 'bundled.sqlite');
    const run = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', source, '--name', 'wide', '--catalog', bundled, '--json'], { encoding: 'utf8', env: { ...process.env, SCHEMABRAIN_HOME: dir }, timeout: 120_000 });
    assert.equal(run.status, 0, run.stderr);
    // The same artifact, byte for byte, whichever wrote it; and the source tree opens the bundle's.
    const [mine, theirs] = [await CatalogStore.open(catalog), await CatalogStore.open(bundled)];
    try {
      const bytes = theirs.getArtifact(SEARCH_INDEX_ARTIFACT);
      assert.ok(bytes !== null && bytes.length > 10_000);
      assert.deepEqual(Buffer.from(bytes), Buffer.from(mine.getArtifact(SEARCH_INDEX_ARTIFACT)!));
    } finally {
      mine.close();
      theirs.close();
    }
    const SQL = await loadSqlJs();
    const db = new SQL.Database(fs.readFileSync(bundled));
    assert.deepEqual(db.exec(`SELECT typeof(value) FROM artifacts WHERE key = '${SEARCH_INDEX_ARTIFACT}'`)[0]?.values, [['blob']]);
    db.close();
    // The bundled server opens it from the file (its log says so) and answers as the source tree does.
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [DIST_SERVER, '--catalog', bundled, '--no-audit'],
      env: { ...(process.env as Record<string, string>), SCHEMABRAIN_HOME: dir, SCHEMABRAIN_LOG_LEVEL: 'debug' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'bundle-check', version: '1' });
    await client.connect(transport);
    const cold = await startHarness({ catalogPath: catalog });
    try {
      for (const q of QUESTIONS) {
        const res = await client.callTool({ name: 'find_relevant_tables', arguments: q });
        assert.deepEqual(stable(res.structuredContent as Record<string, unknown>), stable(await cold.call('find_relevant_tables', q)), JSON.stringify(q));
      }
      assert.match(stderr, /search index opened from the catalog file/);
    } finally {
      await client.close();
      await cold.close();
    }
  });

  it('answers find_relevant_tables and describe_table exactly as the catalog read whole does', async () => {
    const probe = await CatalogStore.open(catalog);
    const eagerView = CatalogView.fromStore(probe);
    probe.close();
    // Tables with incoming and outgoing foreign keys, a lookup, a PII-heavy one.
    const describe = [eagerView.entries[1]!.qualifiedName, eagerView.entries[7]!.qualifiedName, eagerView.entries[45]!.qualifiedName, eagerView.entries[900]!.qualifiedName];
    const provider = new CatalogProvider(catalog);
    const lazy = await startHarness({ catalogPath: catalog, deps: { catalog: provider } });
    const eager = await startHarness({ catalogPath: catalog, deps: { catalog: new EagerProvider(catalog) } });
    try {
      const state = await provider.get();
      assert.ok(state.state === 'ready' && state.view.readsOnDemand, 'the server opened the catalog on demand');
      const a = await answers(lazy, describe);
      const b = await answers(eager, describe);
      assert.equal(a.length, b.length);
      for (let i = 0; i < a.length; i++) assert.deepEqual(a[i], b[i], `answer ${i} differs`);
      const statuses = a.map((x) => (x as { status: string }).status);
      assert.ok(statuses.filter((st) => st === 'success').length >= QUESTIONS.length, statuses.join());
      assert.ok(statuses.includes('error'), 'the unknown table is an error in both');
    } finally {
      await lazy.close();
      await eager.close();
    }
  });

  it('gives the same answers with two sources, in the same order, with and without a source filter', async () => {
    const two = path.join(dir, 'two.sqlite');
    fs.copyFileSync(catalog, two);
    await indexInto(two, CHINOOK_SQLITE, 'chinook');
    const provider = new CatalogProvider(two);
    const lazy = await startHarness({ catalogPath: two, deps: { catalog: provider } });
    const eager = await startHarness({ catalogPath: two, deps: { catalog: new EagerProvider(two) } });
    try {
      const state = await provider.get();
      assert.ok(state.state === 'ready' && state.view.readsOnDemand && state.view.sources.length === 2);
      const calls: Array<[string, Record<string, unknown>]> = [
        ['find_relevant_tables', { query: 'customer invoices' }],
        ['find_relevant_tables', { query: 'customer invoices', source: 'chinook', with_join_tree: true }],
        ['find_relevant_tables', { query: 'supplier payments', source: 'wide', response_format: 'detailed' }],
        ['describe_table', { qualified_name: 'main.Invoice', source: 'chinook' }],
        ['describe_table', { qualified_name: 'main.Invoice' }],
      ];
      for (const [tool, args] of calls) assert.deepEqual(stable(await lazy.call(tool, args)), stable(await eager.call(tool, args)), `${tool} ${JSON.stringify(args)}`);
      const hits = (await lazy.call('find_relevant_tables', { query: 'customer invoices' })) as { data: { tables: Array<{ source?: string }> } };
      assert.ok(hits.data.tables.length > 0 && hits.data.tables.every((t) => t.source === 'chinook' || t.source === 'wide'), 'hits name their source');
    } finally {
      await lazy.close();
      await eager.close();
    }
  });

  it('reads a catalog whose frames belong to another generation or an older format whole, with the same answers', async () => {
    const base = await startHarness({ catalogPath: catalog });
    const expected = [];
    for (const q of QUESTIONS.slice(0, 4)) expected.push(stable(await base.call('find_relevant_tables', q)));
    await base.close();

    // Saved again by another writer: the generation moves on, the frames no longer describe the file.
    const stale = path.join(dir, 'stale.sqlite');
    const s1 = await CatalogStore.open(catalog);
    s1.save(stale);
    s1.close();
    // Written by an older SchemaBrain: the search index only in the previous format, no view frame.
    const older = path.join(dir, 'older.sqlite');
    const s2 = await CatalogStore.open(catalog);
    const bytes = s2.getArtifact(SEARCH_INDEX_ARTIFACT)!;
    s2.deleteArtifact(SEARCH_INDEX_ARTIFACT);
    s2.deleteArtifact(VIEW_FRAME_ARTIFACT);
    s2.setArtifact('search-index/v4', bytes);
    s2.save(older);
    s2.close();

    for (const file of [stale, older]) {
      const store = await CatalogStore.open(file);
      const { view, owned } = CatalogView.open(store);
      if (!owned) store.close();
      assert.equal(owned, false, `${path.basename(file)} is read whole`);
      assert.equal(view.readsOnDemand, false);
      const h = await startHarness({ catalogPath: file });
      try {
        const got = [];
        for (const q of QUESTIONS.slice(0, 4)) got.push(stable(await h.call('find_relevant_tables', q)));
        assert.deepEqual(got, expected, path.basename(file));
      } finally {
        await h.close();
      }
    }
  });

  it('reads a catalog whole when its view frame is damaged or names a source the file does not hold', async () => {
    const variants: Array<[string, (frame: Record<string, unknown>) => string]> = [
      ['unknown-source', (frame) => JSON.stringify({ ...frame, sources: ['no-such-source'] })],
      ['short-lists', (frame) => JSON.stringify({ ...frame, qualified: (frame.qualified as string[]).slice(1) })],
      ['not-json', () => '{"format":1,'],
    ];
    for (const [label, damage] of variants) {
      const file = path.join(dir, `${label}.sqlite`);
      const s = await CatalogStore.open(catalog);
      const frame = JSON.parse(s.getArtifactText(VIEW_FRAME_ARTIFACT)!) as Record<string, unknown>;
      // The generation save() is about to write, so only the damage tells the frame apart from a good one.
      s.setArtifact(VIEW_FRAME_ARTIFACT, Buffer.from(damage({ ...frame, generation: s.generation + 1 })), { text: true });
      s.save(file);
      s.close();
      const store = await CatalogStore.open(file);
      const { view, owned } = CatalogView.open(store);
      if (!owned) store.close();
      assert.equal(owned, false, label);
      assert.equal(view.entries.length, PERSIST_SEARCH_MIN_TABLES, label);
      const r = view.resolveTable(view.entries[3]!.qualifiedName);
      assert.ok(r.ok && r.value.table.columns.length > 0, label);
    }
  });

  it('refuses the persisted search frame under another PII policy, and a re-index drops older formats', async () => {
    const store = await CatalogStore.open(catalog);
    const { view, owned } = CatalogView.open(store);
    assert.ok(owned);
    const strict = (): boolean => true;
    assert.equal(openPersistedIndex(view.searchIndexBytes!, { generation: view.generation, tables: view.entries, isBlocked: strict, table: (d) => view.entries[d]!.table }), null, 'stricter policy');
    assert.equal(openPersistedIndex(view.searchIndexBytes!, { generation: view.generation + 1, tables: view.entries, isBlocked: () => false, table: (d) => view.entries[d]!.table }), null, 'other generation');
    assert.equal(openPersistedIndex(view.searchIndexBytes!, { generation: view.generation, tables: view.entries.slice(1), isBlocked: () => false, table: (d) => view.entries[d]!.table }), null, 'other tables');

    const copy = path.join(dir, 'reindexed.sqlite');
    const s = await CatalogStore.open(catalog);
    s.setArtifact('search-index/v4', new Uint8Array([1, 2, 3]));
    s.save(copy);
    s.close();
    const source = path.join(dir, 'wide.sqlite');
    await runIndex({ spec: parseSourceSpec(source, { name: 'wide' }), sourceInput: source, catalogPath: copy, full: true, deps: { createIntrospector, classifyColumn } });
    const after = await CatalogStore.open(copy);
    assert.equal(after.getArtifact('search-index/v4'), null);
    assert.ok(after.getArtifactText(SEARCH_INDEX_ARTIFACT));
    const reopened = CatalogView.open(after);
    if (!reopened.owned) after.close();
    assert.equal(reopened.owned, true);
    if (!owned) store.close();
  });
});
