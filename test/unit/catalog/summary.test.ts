import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { CatalogError, catalogSummaryPath, CatalogStore, decodeTableBody, encodeTableBody, MAX_BODY_BYTES, readCatalogSummary } from '../../../src/core/catalog/store';
import type { TableInfo } from '../../../src/core/catalog/model';
import { loadSqlJs } from '../../../src/core/catalog/sqljs';
import { runIndex } from '../../../src/core/indexing/run-index';
import { indexDigest } from '../../../src/core/indexing/unchanged';
import { INDEX_FORMAT } from '../../../src/core/search/format';
import { createIntrospector } from '../../../src/core/sources';
import { parseSourceSpec } from '../../../src/core/sources/locator';

const CHINOOK = path.resolve(__dirname, '../../../samples/chinook.sqlite');

describe('catalog summary and compact relation bodies', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-summary-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const catalogPath = path.join(tmp, 'catalog.sqlite');
  const index = () => runIndex({ spec: parseSourceSpec(CHINOOK, { name: 'chinook', env: {} }), catalogPath, deps: { createIntrospector }, sampleRows: 20 });

  it('a save writes the summary; an unchanged re-index answers from it with the same generation', async () => {
    const first = await index();
    assert.equal(first.mode, 'full');
    const summary = readCatalogSummary(catalogPath);
    assert.ok(summary, 'summary matches the file just saved');
    assert.equal(summary.generation, first.generation);
    assert.equal(summary.sources[0]?.info.name, 'chinook');
    const again = await index();
    assert.equal(again.mode, 'unchanged');
    assert.equal(again.generation, first.generation);
    assert.deepEqual(again.source, first.source);
  });

  it('ignores a summary once the catalog file is written by anything else', async () => {
    const before = fs.readFileSync(catalogPath);
    fs.writeFileSync(catalogPath, before); // same bytes, rewritten in place: new mtime and ctime
    assert.equal(readCatalogSummary(catalogPath), null);
    const again = await index(); // through the catalog itself: still unchanged, nothing written
    assert.equal(again.mode, 'unchanged');
    fs.writeFileSync(catalogSummaryPath(catalogPath), '{"stamp":1}');
    assert.equal(readCatalogSummary(catalogPath), null);
  });

  it('re-reads a source once when the catalog was indexed with another search index format', async () => {
    const spec = parseSourceSpec(CHINOOK, { name: 'chinook', env: {} });
    const sourceDigest = await createIntrospector(spec).structureDigest({ sampleRows: 20 });
    const before = await index();
    // What an earlier version recorded: the source's digest alone (or under another format).
    const store = await CatalogStore.open(catalogPath);
    try {
      const prior = store.getSourceByName('chinook')!;
      assert.equal(prior.structureDigest, indexDigest(sourceDigest));
      assert.ok(prior.structureDigest!.endsWith(`:search-v${INDEX_FORMAT}`));
      store.writeSource({ info: prior.info, structureDigest: sourceDigest, schemas: store.loadSchemas(prior.info.id), enums: store.loadEnums(prior.info.id), changed: [], removed: [] });
      store.save();
    } finally {
      store.close();
    }
    const rewritten = await index();
    assert.equal(rewritten.generation, before.generation + 2, 'the run wrote the catalog (after the simulated old save)');
    assert.equal(rewritten.tablesChanged, 0, 'no table changed: only the index was rewritten');
    const again = await index();
    assert.equal(again.mode, 'unchanged');
    assert.equal(again.generation, rewritten.generation, 'and the next run writes nothing');
  });

  it('stores columns without their default fields and reads them back whole, in one field order', async () => {
    const store = await CatalogStore.open(catalogPath);
    try {
      const tables = store.loadAllTables().map((r) => r.table);
      assert.ok(tables.length >= 11);
      for (const t of tables) {
        const body = encodeTableBody(t);
        const text = typeof body === 'string' ? body : zlib.inflateRawSync(body).toString('utf8');
        assert.ok(!text.includes('"isGenerated":false'), 'default fields are left out');
        // Long bodies are deflated, short ones stay text.
        assert.equal(typeof body === 'string', text.length < 512, `${t.name}: ${text.length} bytes stored as ${typeof body}`);
        const back = decodeTableBody(body);
        assert.deepEqual(back, t);
        // A code list's labels, where a column has them, come last.
        for (const c of back.columns) assert.deepEqual(Object.keys(c), ['name', 'ordinal', 'dataType', 'isNullable', 'defaultExpr', 'isGenerated', 'isIdentity', 'comment', 'enumLabels', 'stats', 'pii', ...(c.codeValues !== undefined ? ['codeValues'] : [])]);
      }
      assert.ok(tables.some((t) => t.columns.some((c) => c.codeValues !== undefined)), 'small tables keep their labels');
      assert.ok(tables.some((t) => typeof encodeTableBody(t) !== 'string'), 'Chinook has bodies long enough to deflate');
      // A body written in full (older catalogs) reads the same.
      const t = tables[0]!;
      const tiny: TableInfo = { ...t, comment: null, columns: [], foreignKeys: [] };
      assert.equal(typeof encodeTableBody(tiny), 'string', 'a short body stays text');
      assert.deepEqual(decodeTableBody(encodeTableBody(tiny)), tiny);
      assert.deepEqual(decodeTableBody(JSON.stringify(t)), t);
      // Damaged deflated bytes are a typed error, not a crash.
      assert.throws(() => decodeTableBody(new Uint8Array([1, 2, 3, 4, 5])), (e: unknown) => e instanceof CatalogError && e.code === 'corrupt');
      assert.throws(() => decodeTableBody('{"schema": "main", "na'), (e: unknown) => e instanceof CatalogError && e.code === 'corrupt');
      // A body that would inflate past MAX_BODY_BYTES (a few KiB of deflated zeros) is refused the same way.
      const bomb = zlib.deflateRawSync(Buffer.alloc(MAX_BODY_BYTES + 1024));
      assert.ok(bomb.length < 200_000);
      assert.throws(() => decodeTableBody(bomb), (e: unknown) => e instanceof CatalogError && e.code === 'corrupt' && /inflated/.test(e.message));
    } finally {
      store.close();
    }
  });
  it('reads a catalog of schema v1, whose bodies are all JSON text, the same; refuses a newer schema as too new', async () => {
    const store = await CatalogStore.open(catalogPath);
    const tables = store.loadAllTables();
    store.close();
    const SQL = await loadSqlJs();
    const db = new SQL.Database(fs.readFileSync(catalogPath));
    const deflated = Number(db.exec(`SELECT count(*) FROM relations WHERE typeof(body) = 'blob'`)[0]!.values[0]![0]);
    assert.ok(deflated > 0, 'this version deflates long bodies');
    // The same catalog as a v1 writer left it: every body its JSON text.
    for (const { sourceId, table } of tables) {
      const body = encodeTableBody(table);
      db.run(`UPDATE relations SET body = ? WHERE source_id = ? AND schema = ? AND name = ?`, [typeof body === 'string' ? body : zlib.inflateRawSync(body).toString('utf8'), sourceId, table.schema, table.name]);
    }
    db.run(`UPDATE meta SET value = '1' WHERE key = 'schema_version'`);
    const v1 = path.join(tmp, 'v1.sqlite');
    fs.writeFileSync(v1, db.export());
    db.run(`UPDATE meta SET value = '3' WHERE key = 'schema_version'`);
    const v3 = path.join(tmp, 'v3.sqlite');
    fs.writeFileSync(v3, db.export());
    db.close();
    const old = await CatalogStore.open(v1);
    try {
      assert.deepEqual(old.loadAllTables(), tables);
      assert.deepEqual(old.loadTable(tables[0]!.sourceId, tables[0]!.table.schema, tables[0]!.table.name), tables[0]!.table);
    } finally {
      old.close();
    }
    await assert.rejects(CatalogStore.open(v3), (e: unknown) => e instanceof CatalogError && e.code === 'too_new' && /schema v3/.test(e.message));
  });
});
