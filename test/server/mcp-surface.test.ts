import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadSqlJs } from '../../src/core/catalog/sqljs';
import { createPolicy } from '../../src/core/pii';
import { silentLogger } from '../../src/core/util/logger';
import { ClientLogBus, teeLogger } from '../../src/server/logging/client-log';
import { createPiiGate } from '../../src/server/pii-gate';
import { RESOURCE_PAGE_SIZE } from '../../src/server/resources/catalog-resources';
import { parseResourceUri, tableUri } from '../../src/server/resources/uri';
import { SemanticModels } from '../../src/server/semantic-model';
import { getTestPostgres, postgresServerAnswers } from '../support/pg';
import { CHINOOK_SQLITE, indexInto, REPO_ROOT, startHarness, tempDir } from '../support/server-harness';
import type { Harness } from '../support/server-harness';

/**
 * The MCP surface beyond tools, through the SDK's real Client: resources (list, pages, read, templates, subscribe),
 * prompts, completion, logging, list_changed after a re-index, and progress plus cancellation on PostgreSQL.
 */

const PACK = path.join(REPO_ROOT, 'test', 'fixtures', 'semantic', 'chinook');

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('MCP resources, prompts, completion and logging (Chinook SQLite)', function () {
  let catalogPath: string;
  const open: Harness[] = [];

  before(async () => {
    catalogPath = path.join(tempDir('sb-mcp-'), 'catalog.sqlite');
    await indexInto(catalogPath, CHINOOK_SQLITE, 'chinook');
  });

  after(async () => {
    for (const h of open) await h.close();
  });

  async function harness(deps: NonNullable<Parameters<typeof startHarness>[0]>['deps'] = {}, catalog = catalogPath): Promise<Harness> {
    const h = await startHarness({ catalogPath: catalog, deps });
    open.push(h);
    return h;
  }

  /** A private copy of Chinook, indexed, and a server on its catalog: for checks that change the database. */
  async function changingChinook(prefix: string, deps: NonNullable<Parameters<typeof startHarness>[0]>['deps'] = {}) {
    const dir = tempDir(prefix);
    const file = path.join(dir, 'chinook.sqlite');
    fs.copyFileSync(CHINOOK_SQLITE, file);
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, file, 'chinook');
    const h = await harness(deps, catalog);
    /** Runs the statements on the database file (not yet re-indexed). */
    const alter = async (...statements: string[]): Promise<void> => {
      const SQL = await loadSqlJs();
      const db = new SQL.Database(fs.readFileSync(file));
      for (const st of statements) db.run(st);
      fs.writeFileSync(file, db.export());
      db.close();
    };
    return { h, alter, reindex: () => indexInto(catalog, file, 'chinook') };
  }

  it('lists every source and table as a resource with URI, title, description, MIME type and the size of its text', async () => {
    const h = await harness();
    const { resources, nextCursor } = await h.client.listResources();
    assert.equal(nextCursor, undefined);
    assert.equal(resources.length, 1 + 11, 'one overview plus the 11 Chinook tables');
    const album = resources.find((r) => r.uri === 'schemabrain://chinook/main/Album');
    assert.ok(album, JSON.stringify(resources.map((r) => r.uri)));
    assert.equal(album.mimeType, 'text/markdown');
    assert.equal(album.title, 'main.Album (chinook)');
    assert.match(album.description ?? '', /3 columns/);
    const read = await h.client.readResource({ uri: album.uri });
    const text = (read.contents[0] as { text: string }).text;
    assert.equal(album.size, Buffer.byteLength(text));
    assert.match(text, /^# main\.Album/);
    assert.match(text, /- AlbumId: INTEGER · PK · not null/);
    assert.match(text, /main\.Album\(ArtistId\) → main\.Artist\(ArtistId\)/, 'outgoing join');
    assert.match(text, /main\.Track\(AlbumId\) → main\.Album\(AlbumId\)/, 'incoming join');
    const overview = await h.client.readResource({ uri: 'schemabrain://chinook' });
    assert.match((overview.contents[0] as { text: string }).text, /- main: 11 tables/);
    await assert.rejects(h.client.readResource({ uri: 'schemabrain://chinook/main/NoSuchTable' }), /-32002|not found/i);
    await assert.rejects(h.client.readResource({ uri: 'file:///etc/passwd' }), /not found/i);
  });

  it('redacts PII-blocked columns in resources exactly as describe_table does, and never completes their names', async () => {
    const h = await harness({ pii: createPiiGate(createPolicy({ block: ['contact'] })) });
    const text = ((await h.client.readResource({ uri: 'schemabrain://chinook/main/Customer' })).contents[0] as { text: string }).text;
    assert.doesNotMatch(text, /Email|FirstName|Phone/);
    assert.match(text, /<redacted_contact_column_\d+>: .*redacted by PII policy \(contact\)/);
    const tool = await h.call('describe_table', { qualified_name: 'main.Customer' });
    const names = (tool.data as { columns: Array<{ name: string }> }).columns.map((c) => c.name);
    for (const n of names) assert.ok(text.includes(`- ${n}:`), `${n} appears as in describe_table`);
    const done = await h.client.complete({ ref: { type: 'ref/resource', uri: 'schemabrain://{source}/{schema}/{table}/{column}' }, argument: { name: 'column', value: '' }, context: { arguments: { source: 'chinook', schema: 'main', table: 'Customer' } } });
    assert.ok(done.completion.values.includes('CustomerId'));
    assert.ok(!done.completion.values.some((v) => /Email|Name|Phone|Address/.test(v)), done.completion.values.join());
  });

  it('pages a catalog of 1,100 tables with cursors and rejects a forged cursor', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    for (let i = 0; i < 1100; i++) db.run(`CREATE TABLE t${String(i).padStart(4, '0')} (id INTEGER PRIMARY KEY, v TEXT)`);
    const dir = tempDir('sb-mcp-many-');
    fs.writeFileSync(path.join(dir, 'many.sqlite'), db.export());
    db.close();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, path.join(dir, 'many.sqlite'), 'many');
    const h = await harness({}, catalog);
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await h.client.listResources(cursor ? { cursor } : {});
      assert.ok(page.resources.length <= RESOURCE_PAGE_SIZE);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(uris.length, 1101);
    assert.equal(new Set(uris).size, 1101, 'no resource twice');
    await assert.rejects(h.client.listResources({ cursor: 'not-a-cursor' }), /Invalid cursor/);
  });

  it('serves templates, and metrics and entities of the semantic layer with their compiled SQL', async () => {
    const ws = tempDir('sb-mcp-ws-');
    fs.mkdirSync(path.join(ws, '.schemabrain'));
    for (const f of fs.readdirSync(PACK)) if (f.endsWith('.yaml')) fs.copyFileSync(path.join(PACK, f), path.join(ws, '.schemabrain', f));
    const h = await harness({ workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger) });
    const templates = (await h.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.deepEqual(templates, ['schemabrain://{source}/{schema}/{table}', 'schemabrain://{source}/{schema}/{table}/{column}', 'schemabrain://{source}/metrics/{metric}', 'schemabrain://{source}/entities/{entity}']);
    const { resources } = await h.client.listResources();
    const metric = resources.find((r) => r.uri.startsWith('schemabrain://chinook/metrics/'));
    const entity = resources.find((r) => r.uri.startsWith('schemabrain://chinook/entities/'));
    assert.ok(metric && entity, JSON.stringify(resources.map((r) => r.uri)));
    const mtext = ((await h.client.readResource({ uri: metric.uri })).contents[0] as { text: string }).text;
    assert.match(mtext, /^# Metric /);
    assert.match(mtext, /```sql\nSELECT/i, 'compiled SQL');
    const etext = ((await h.client.readResource({ uri: entity.uri })).contents[0] as { text: string }).text;
    assert.ok(Array.isArray((JSON.parse(etext) as { columns: unknown[] }).columns));
    const col = await h.client.readResource({ uri: 'schemabrain://chinook/main/Track/Milliseconds' });
    assert.equal((JSON.parse((col.contents[0] as { text: string }).text) as { type: string }).type, 'INTEGER');
    const metricName = parseResourceUri(metric.uri)!;
    const done = await h.client.complete({ ref: { type: 'ref/prompt', name: 'explain_metric' }, argument: { name: 'metric', value: (metricName as { name: string }).name.slice(0, 3) } });
    assert.ok(done.completion.values.includes((metricName as { name: string }).name));
    const prompt = await h.client.getPrompt({ name: 'explain_metric', arguments: { metric: (metricName as { name: string }).name } });
    assert.ok(prompt.messages.some((m) => m.content.type === 'resource' && m.content.resource.uri === metric.uri));
  });

  it('a definition bound to a source this catalog does not hold leaves the list whole: tables and the other metrics stay, the orphan is left out', async () => {
    const ws = tempDir('sb-mcp-orphan-');
    fs.mkdirSync(path.join(ws, '.schemabrain'));
    // One file, three shapes that once made resources/list answer with an error for the whole catalog: an entity and
    // a metric on a source that was never indexed here, and a metric on a column that does not exist.
    fs.writeFileSync(path.join(ws, '.schemabrain', 'mixed.yaml'), [
      'version: 1',
      'entities:',
      '  - { name: album, table: main.Album, identity: AlbumId, source: chinook }',
      '  - { name: elsewhere_album, table: main.Album, identity: AlbumId, source: not_indexed_here }',
      'metrics:',
      '  - { name: album_count, entity: album, measure: { agg: count } }',
      '  - { name: elsewhere_count, entity: elsewhere_album, measure: { agg: count } }',
      '  - { name: broken_sum, entity: album, measure: { agg: sum, column: NoSuchColumn } }',
      '',
    ].join('\n'));
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => void warnings.push(m) };
    const h = await harness({ workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger), logger });
    const { resources } = await h.client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.equal(uris.filter((u) => /^schemabrain:\/\/chinook\/main\/\w+$/.test(u)).length, 11, uris.join());
    assert.ok(uris.includes('schemabrain://chinook/metrics/album_count'), uris.join());
    assert.ok(uris.includes('schemabrain://chinook/entities/album'), uris.join());
    assert.ok(!uris.some((u) => u.includes('not_indexed_here') || u.includes('elsewhere_')), uris.join());
    // Every listed resource has its size: each text rendered.
    for (const r of resources) assert.equal(typeof r.size, 'number', r.uri);
    // Reading the orphan by its would-be address is a typed not-found, not a crash.
    await assert.rejects(h.client.readResource({ uri: 'schemabrain://not_indexed_here/metrics/elsewhere_count' }), /-32002|not found/i);
    assert.deepEqual(warnings.filter((w) => /could not be rendered/.test(w)), []);
    // The prompt for the orphan metric says what is wrong instead of failing on its missing resource.
    await assert.rejects(h.client.getPrompt({ name: 'explain_metric', arguments: { metric: 'elsewhere_count' } }), /source 'not_indexed_here'.*not indexed/);
    const ok = await h.client.getPrompt({ name: 'explain_metric', arguments: { metric: 'album_count' } });
    assert.ok(ok.messages.some((m) => m.content.type === 'resource' && m.content.resource.uri === 'schemabrain://chinook/metrics/album_count'));
  });

  it('completes sources, schemas, tables (ranked by the table search) and columns', async () => {
    const h = await harness();
    const complete = (name: string, value: string, ref: Parameters<Harness['client']['complete']>[0]['ref'], args?: Record<string, string>) =>
      h.client.complete({ ref, argument: { name, value }, ...(args ? { context: { arguments: args } } : {}) }).then((r) => r.completion.values);
    const prompt = { type: 'ref/prompt' as const, name: 'review_table_quality' };
    const template = { type: 'ref/resource' as const, uri: 'schemabrain://{source}/{schema}/{table}' };
    assert.deepEqual(await complete('source', 'ch', { type: 'ref/prompt', name: 'explore_database' }), ['chinook']);
    assert.deepEqual(await complete('schema', 'm', template, { source: 'chinook' }), ['main']);
    // Nothing typed: every table, most foreign-key links first (the order find_relevant_tables gives '*').
    const all = await complete('table', '', prompt);
    assert.equal(all.length, 11);
    assert.equal(all[0], 'main.Track');
    // Prefix matches first (in the search's order), then tables the search finds for the same text.
    assert.deepEqual((await complete('table', 'Inv', prompt)).slice(0, 2), ['main.Invoice', 'main.InvoiceLine']);
    assert.deepEqual((await complete('table', 'main.Pl', prompt)).slice(0, 2).sort(), ['main.Playlist', 'main.PlaylistTrack']);
    const art = await complete('table', 'Art', template, { source: 'chinook', schema: 'main' });
    assert.equal(art[0], 'Artist', 'the prefix match first, bare names for the template');
    assert.equal(new Set(art).size, art.length);
    // A word that is no table's prefix still finds tables through the search ("song" → Track).
    assert.ok((await complete('table', 'song', prompt)).includes('main.Track'));
    // Text no table answers to completes to nothing: the central tables a search offers then are a map, not matches.
    assert.deepEqual(await complete('table', 'zzqx', prompt), []);
    assert.deepEqual(await complete('table', 'the', prompt), []);
    assert.deepEqual(await complete('column', 'Unit', { type: 'ref/resource', uri: 'schemabrain://{source}/{schema}/{table}/{column}' }, { source: 'chinook', schema: 'main', table: 'Track' }), ['UnitPrice']);
    assert.deepEqual(await complete('question', 'how', { type: 'ref/prompt', name: 'answer_with_sql' }), []);
  });

  it('lists four prompts and returns messages that embed the relevant resources', async () => {
    const h = await harness();
    const { prompts } = await h.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['explore_database', 'answer_with_sql', 'explain_metric', 'review_table_quality']);
    for (const p of prompts) assert.ok(p.description && p.arguments?.length);
    const ans = await h.client.getPrompt({ name: 'answer_with_sql', arguments: { question: 'which albums have the most tracks' } });
    const text = (ans.messages[0]!.content as { text: string }).text;
    for (const step of ['find_relevant_tables', 'describe_table', 'suggest_joins', 'run_query']) assert.ok(text.includes(step), step);
    assert.ok(text.indexOf('find_relevant_tables') < text.indexOf('describe_table') && text.indexOf('suggest_joins') < text.indexOf('run_query'), 'steps in order');
    const embedded = ans.messages.filter((m) => m.content.type === 'resource').map((m) => (m.content as { resource: { uri: string } }).resource.uri);
    assert.ok(embedded.includes('schemabrain://chinook/main/Album') && embedded.includes('schemabrain://chinook/main/Track'), embedded.join());
    const review = await h.client.getPrompt({ name: 'review_table_quality', arguments: { table: 'main.Invoice' } });
    assert.ok(review.messages.some((m) => m.content.type === 'resource' && m.content.resource.uri === 'schemabrain://chinook/main/Invoice'));
    const explore = await h.client.getPrompt({ name: 'explore_database', arguments: { source: 'chinook' } });
    assert.equal((explore.messages[1]!.content as { resource: { uri: string } }).resource.uri, 'schemabrain://chinook');
    await assert.rejects(h.client.getPrompt({ name: 'review_table_quality', arguments: { table: 'main.Nope' } }), /not found/);
    await assert.rejects(h.client.getPrompt({ name: 'answer_with_sql', arguments: {} }), /needs argument 'question'/);
    // Arguments are bounded as the tools' are: a word of 200,000 characters is refused at once, never searched.
    await assert.rejects(h.client.getPrompt({ name: 'answer_with_sql', arguments: { question: 'x'.repeat(200_000) } }), /200000 characters long; it takes at most 1000/);
    await assert.rejects(h.client.getPrompt({ name: 'review_table_quality', arguments: { table: `main.${'x'.repeat(100_000)}` } }), /takes at most 512/);
    for (const ref of [{ type: 'ref/prompt', name: 'review_table_quality' }, { type: 'ref/resource', uri: 'schemabrain://{source}/{schema}/{table}' }] as const) {
      const long = await h.client.complete({ ref, argument: { name: 'table', value: 'x'.repeat(1_000_000) }, context: { arguments: { source: 'chinook', schema: 'main' } } });
      assert.deepEqual(long.completion.values, []);
    }
    // The prompt still answers, and a completion of a long-but-possible name is still put to the table search.
    assert.ok((await h.client.complete({ ref: { type: 'ref/prompt', name: 'review_table_quality' }, argument: { name: 'table', value: 'Invoice' } })).completion.values.includes('main.Invoice'));
  });

  it('forwards server warnings to the client as log messages, scrubbed, filtered by logging/setLevel', async () => {
    const bus = new ClientLogBus();
    const h = await harness({ clientLog: bus });
    const got: Array<{ level: string; data: unknown }> = [];
    h.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void got.push(n.params));
    bus.emit('warning', "source pg unreachable: connect postgres://app:hunter2@db.internal/x failed near 'Jane Doe' password=hunter2");
    const msg = await until('the warning', () => got.find((m) => /unreachable/.test(String(m.data))));
    assert.equal(msg.level, 'warning');
    assert.doesNotMatch(String(msg.data), /hunter2|Jane Doe/);
    await h.client.setLoggingLevel('error');
    bus.emit('warning', 'below the threshold');
    bus.emit('error', 'definition files under .schemabrain/ failed to load');
    await until('the error', () => got.find((m) => /failed to load/.test(String(m.data))));
    assert.ok(!got.some((m) => /below the threshold/.test(String(m.data))), 'a warning is filtered at level error');
  });

  it('tells the client when a definition file fails to load (file, line and code; no file contents)', async () => {
    const ws = tempDir('sb-mcp-badws-');
    fs.mkdirSync(path.join(ws, '.schemabrain'));
    fs.writeFileSync(path.join(ws, '.schemabrain', 'broken.yaml'), 'entities:\n  - name: secret_sauce_entity\n    table: main.NoSuchTable\n    bogus: [\n');
    const bus = new ClientLogBus();
    const h = await harness({ workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger), logger: teeLogger(silentLogger, bus), clientLog: bus });
    const got: string[] = [];
    h.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void got.push(String(n.params.data)));
    const msg = await until('the definition warning', () => got.find((m) => /definition files under \.schemabrain\/ failed to load/.test(m)));
    assert.match(msg, /broken\.yaml:\d+/);
    assert.doesNotMatch(msg, /secret_sauce_entity|NoSuchTable/);
  });

  it('a re-index that adds a table sends list_changed, and a changed table sends updated to its subscribers', async function () {
    const { h, alter, reindex } = await changingChinook('sb-mcp-reindex-');
    let listChanged = 0;
    const updated: string[] = [];
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    const album = tableUri('chinook', 'main', 'Album');
    await h.client.subscribeResource({ uri: album });
    await h.client.listResources();
    await new Promise((r) => setTimeout(r, 1200)); // the watcher has seen generation 1
    await alter('ALTER TABLE Album ADD COLUMN ReleaseYear INTEGER', 'CREATE TABLE Label (LabelId INTEGER PRIMARY KEY, Name TEXT)');
    await reindex();
    await until('list_changed', () => (listChanged > 0 ? true : undefined));
    await until('updated for Album', () => (updated.includes(album) ? true : undefined));
    assert.ok(!updated.includes(tableUri('chinook', 'main', 'Artist')), 'an unchanged table is not reported');
    const { resources } = await h.client.listResources();
    assert.ok(resources.some((r) => r.uri === tableUri('chinook', 'main', 'Label')));
    assert.match(((await h.client.readResource({ uri: album })).contents[0] as { text: string }).text, /ReleaseYear/);
  });

  it('an update that follows a read closely is sent again once a client read cache would have expired', async function () {
    const WINDOW = 5000;
    const { h, alter, reindex } = await changingChinook('sb-mcp-reread-', { clientReadCacheMs: WINDOW });
    const updated: Array<{ uri: string; at: number }> = [];
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push({ uri: n.params.uri, at: Date.now() }));
    const album = tableUri('chinook', 'main', 'Album');
    const artist = tableUri('chinook', 'main', 'Artist');
    await h.client.subscribeResource({ uri: album });
    await h.client.subscribeResource({ uri: artist });
    await new Promise((r) => setTimeout(r, 1200)); // the watcher has seen generation 1
    await alter('ALTER TABLE Album ADD COLUMN ReleaseYear INTEGER', 'ALTER TABLE Artist ADD COLUMN Country TEXT');
    const readAt = Date.now();
    await h.client.readResource({ uri: album }); // read just before the change: a caching client keeps this copy
    await reindex();
    const first = await until('the first update of Album', () => updated.find((u) => u.uri === album));
    assert.ok(first.at - readAt < WINDOW, `the change was seen ${first.at - readAt} ms after the read: too slow to check the repeat`);
    const second = await until('the repeated update of Album', () => updated.filter((u) => u.uri === album)[1], WINDOW + 3000);
    assert.ok(second.at - readAt >= WINDOW - 50, `repeated ${second.at - readAt} ms after the read`);
    // Artist changed too but was not read: one update, no repeat.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(updated.filter((u) => u.uri === artist).length, 1, JSON.stringify(updated));
    assert.equal(updated.filter((u) => u.uri === album).length, 2, JSON.stringify(updated));
  });

  it('a subscribe that arrives after the re-index still hears that the copy the client read is out of date', async function () {
    const { h, alter, reindex } = await changingChinook('sb-mcp-late-sub-');
    let listChanged = 0;
    const updated: string[] = [];
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    const album = tableUri('chinook', 'main', 'Album');
    const artist = tableUri('chinook', 'main', 'Artist');
    await h.client.readResource({ uri: album });
    await h.client.readResource({ uri: artist });
    await new Promise((r) => setTimeout(r, 1200)); // the watcher has seen generation 1
    await alter('ALTER TABLE Album ADD COLUMN ReleaseYear INTEGER', 'CREATE TABLE Label (LabelId INTEGER PRIMARY KEY, Name TEXT)');
    await reindex();
    await until('list_changed', () => (listChanged > 0 ? true : undefined)); // the watcher has moved on
    await h.client.subscribeResource({ uri: artist });
    await h.client.subscribeResource({ uri: album });
    await until('updated for Album', () => (updated.includes(album) ? true : undefined));
    await h.client.listResources(); // a round trip after both subscribes
    assert.ok(!updated.includes(artist), 'a table that reads the same is not reported');
  });
});

describe('progress and cancellation of a slow tool on PostgreSQL', function () {
  const DB = 'sb_mcp_cancel';
  let pgUrl: string;
  let h: Harness | undefined;
  let pg: Awaited<ReturnType<typeof getTestPostgres>> | undefined;

  before(async function () {
    if (!(await postgresServerAnswers())) {
      this.skip(); // cancellation is checked in pg_stat_activity of a real server; the embedded engine has none
    }
    pg = await getTestPostgres();
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    pgUrl = pg.urlFor(DB);
    const c = new PgClient({ connectionString: pgUrl });
    await c.connect();
    await c.query('CREATE TABLE slow_rows AS SELECT g AS id, md5(g::text) AS code FROM generate_series(1, 2000) g');
    await c.end();
    const catalog = path.join(tempDir('sb-mcp-pg-'), 'catalog.sqlite');
    await indexInto(catalog, pgUrl, 'slowdb');
    h = await startHarness({ catalogPath: catalog });
  });

  after(async () => {
    await h?.close();
    await pg?.stop();
  });

  async function activeSlowQueries(): Promise<number> {
    const c = new PgClient({ connectionString: pgUrl });
    await c.connect();
    try {
      const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query ILIKE '%slow_rows%' AND pid <> pg_backend_pid()", [DB]);
      return (r.rows[0] as { n: number }).n;
    } finally {
      await c.end();
    }
  }

  it('profile_table sends progress while it runs; a cancel stops the backend query and the audit records the call as cancelled', async () => {
    // Another session holds the table's lock, so the profile's query waits in the backend as a long scan would.
    const locker = new PgClient({ connectionString: pgUrl });
    await locker.connect();
    await locker.query('BEGIN; LOCK TABLE slow_rows IN ACCESS EXCLUSIVE MODE');
    after(() => locker.end().catch(() => undefined));
    const ac = new AbortController();
    const progress: Array<{ progress: number; message?: string }> = [];
    const call = h!.client.callTool({ name: 'profile_table', arguments: { qualified_name: 'public.slow_rows', sample_rows: 5000 } }, undefined, {
      signal: ac.signal,
      onprogress: (p) => void progress.push(p),
      timeout: 120_000,
    });
    call.catch(() => undefined);
    await until('the query running in PostgreSQL', async () => ((await activeSlowQueries()) > 0 ? true : undefined), 15_000);
    await until('two progress notifications', () => (progress.length >= 2 ? true : undefined), 5000);
    assert.match(progress[0]!.message ?? '', /profile_table started/);
    assert.ok(progress[1]!.progress > progress[0]!.progress, 'progress increases');
    ac.abort('user pressed Stop');
    await assert.rejects(call, /user pressed Stop|abort|cancel/i);
    await until('the backend query gone from pg_stat_activity', async () => ((await activeSlowQueries()) === 0 ? true : undefined), 5000);
    await locker.query('ROLLBACK');
    const row = await until('the audit row', () => {
      const lines = fs.existsSync(h!.auditPath) ? fs.readFileSync(h!.auditPath, 'utf8').trim().split('\n').filter(Boolean) : [];
      return lines.map((l) => JSON.parse(l) as { tool: string; status: string; error_kind: string | null }).find((r) => r.tool === 'profile_table');
    });
    assert.equal(row.status, 'error');
    assert.equal(row.error_kind, 'cancelled');
  });
});
