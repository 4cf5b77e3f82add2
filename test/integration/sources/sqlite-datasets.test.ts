import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createIntrospector, parseSourceSpec, type IntrospectResult } from '../../../src/core/sources';
import { skipWithoutData, sqliteDatasets } from '../../support/datasets';

const fkCount = (r: IntrospectResult): number => r.snapshot.tables.reduce((n, t) => n + t.foreignKeys.length, 0);
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('SQLite sample databases', () => {
  it('reads Chinook: 11 tables with exact row counts, 11 FKs (unnamed in the DDL, so named table_columns_fkey), and never writes the file', async () => {
    const file = sqliteDatasets.chinook();
    const before = sha(file);
    const r = await createIntrospector(parseSourceSpec(file)).introspect({ sampleRows: 5 });
    assert.equal(r.snapshot.tables.length, 11);
    assert.equal(fkCount(r), 11);
    const counts = Object.fromEntries(r.snapshot.tables.map((t) => [t.name, t.rowEstimate]));
    assert.deepEqual(counts, {
      Album: 347, Artist: 275, Customer: 59, Employee: 8, Genre: 25, Invoice: 412,
      InvoiceLine: 2240, MediaType: 5, Playlist: 18, PlaylistTrack: 8715, Track: 3503,
    });
    const album = r.snapshot.tables.find((t) => t.name === 'Album');
    assert.deepEqual(album?.primaryKey, { name: 'PK_Album', columns: ['AlbumId'] });
    assert.deepEqual(album?.foreignKeys.map((f) => [f.name, f.targetTable]), [['Album_ArtistId_fkey', 'Artist']]);
    assert.deepEqual(r.snapshot.tables.find((t) => t.name === 'PlaylistTrack')?.primaryKey?.columns, ['PlaylistId', 'TrackId']);
    assert.equal(r.samples.get('main.Artist')?.get('Name')?.length, 5);
    assert.equal(sha(file), before, 'the source file is unchanged');
  });

  it('reads Sakila: 16 tables, 7 views (one listed without columns), 22 FK columns and sampled statistics', async function () {
    skipWithoutData(this, 'sakila-sqlite/sakila.db');
    const r = await createIntrospector(parseSourceSpec(sqliteDatasets.sakila())).introspect({});
    assert.equal(r.snapshot.tables.filter((t) => t.kind === 'table').length, 16);
    assert.equal(r.snapshot.tables.filter((t) => t.kind === 'view').length, 7);
    assert.equal(r.snapshot.tables.reduce((n, t) => n + t.foreignKeys.reduce((m, f) => m + f.columns.length, 0), 0), 22);
    assert.ok(r.warnings?.some((w) => w.includes('nicer_but_slower_film_list')), 'a view using a MySQL-only function is reported');
    const payment = r.snapshot.tables.find((t) => t.name === 'payment');
    assert.equal(payment?.rowEstimate, 16049);
    const film = r.snapshot.tables.find((t) => t.name === 'film');
    const rating = film?.columns.find((c) => c.name === 'rating');
    assert.equal(rating?.dataType, 'ENUM');
    assert.equal(rating?.stats?.origin, 'sample');
    assert.deepEqual([...(rating?.stats?.mostCommonValues ?? [])].sort(), ['G', 'NC-17', 'PG', 'PG-13', 'R']);
    // payment has 16,049 rows and statistics come from a 2,000-row sample: the distinct estimate extrapolates.
    const amount = payment?.columns.find((c) => c.name === 'payment_id');
    assert.ok((amount?.stats?.distinctEstimate ?? 0) > 10_000, `distinct estimate ${amount?.stats?.distinctEstimate}`);
  });

  it('estimates instead of counting tables above the exact-count cap', async function () {
    skipWithoutData(this, 'sakila-sqlite/sakila.db');
    const r = await createIntrospector(parseSourceSpec(sqliteDatasets.sakila()), {}, { sqlite: { exactCountCap: 1000 } }).introspect({ sampleRows: 0 });
    const rental = r.snapshot.tables.find((t) => t.name === 'rental');
    assert.ok(rental?.rowEstimate !== null && (rental?.rowEstimate ?? 0) > 1000, `estimate ${rental?.rowEstimate}`);
    assert.equal(r.samples.size, 0);
  });
});
