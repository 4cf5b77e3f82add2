import assert from 'node:assert/strict';
import { buildSearchIndex } from '../../../src/core/search/index';
import { catalogBuilders, fk, names, src } from './builders';

const { table } = catalogBuilders((name) => (/id$|_id$|year|count/.test(name) ? 'integer' : 'text'));

describe('search: the rows asked for by a synonym', () => {
  it('raises the table a thesaurus synonym of the asked-for noun names, and then its kind list', () => {
    const tables = src([
      table('area', ['id', 'name', 'type', 'begin_date_year'], [fk(['type'], 'area_type')]),
      table('area_type', ['id', 'name', 'description']),
      table('place', ['id', 'name', 'address', 'area', 'coordinates'], [fk(['area'], 'area')]),
      table('country_area', ['area'], [fk(['area'], 'area')]),
      table('editor', ['id', 'name', 'email', 'area', 'birth_date'], [fk(['area'], 'area')]),
      table('artist', ['id', 'name', 'sort_name', 'type', 'begin_date_year'], [fk(['type'], 'artist_type')]),
      table('artist_type', ['id', 'name', 'description']),
      table('artist_area', ['artist', 'area', 'country_code'], [fk(['artist'], 'artist'), fk(['area'], 'area')]),
      table('release', ['id', 'name', 'barcode']),
      table('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release'), fk(['country'], 'country_area')]),
    ]);
    const index = buildSearchIndex({ tables });
    const hits = index.search('Which choirs are from Norway?', { limit: 6 }).hits;
    const show = hits.map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join('\n');
    const rank = hits.findIndex((h) => h.qualifiedName === 'public.artist');
    assert.ok(rank >= 0 && rank < 3, show);
    assert.ok(hits[rank]!.why.includes("the rows asked for ('choirs', as artist)"), show);
    assert.ok(names(hits).includes('artist_type'), show);
    // Without the question word the synonym asks for nothing.
    const plain = index.search('choirs are from Norway', { limit: 6 }).hits;
    assert.ok(!plain.some((h) => h.why.some((w) => w.startsWith('the rows asked for'))), plain.map((h) => h.qualifiedName).join(', '));
  });
});

describe('search: words that frame a request', () => {
  it('matches "help" or "trying" only by their letters, not through related words', () => {
    const tables = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('work', ['id', 'name', 'iswc']),
      table('effort', ['id', 'name', 'hours']),
    ]);
    const index = buildSearchIndex({ tables });
    const hits = index.search("Hey, I'm trying to figure out which artists exist - can you help?", { limit: 5 }).hits;
    const why = hits.flatMap((h) => h.why);
    assert.ok(names(hits).includes('artist'), names(hits).join(', '));
    assert.ok(!why.some((w) => /related word (help|trying|try|figure)→/.test(w)), why.join('; '));
    // Spelt out in the catalog, the word still matches.
    const help = buildSearchIndex({ tables: src([table('help_topic', ['id', 'name', 'description']), table('artist', ['id', 'name'])]) });
    assert.equal(help.search('can you help me with the topics', { limit: 3 }).hits[0]?.qualifiedName, 'public.help_topic');
  });
});

describe('search: words that measure the rows', () => {
  it('does not take a superlative or a quantifier for a label a code list may hold', () => {
    const tables = src([
      table('vendor', ['id', 'name', 'credit_rating']),
      table('unit_measure', ['id', 'code', 'name']),
      table('product_vendor', ['product_id', 'vendor_id', 'average_lead_time', 'unit_measure_code'], [fk(['vendor_id'], 'vendor'), fk(['unit_measure_code'], 'unit_measure')]),
    ]);
    const index = buildSearchIndex({ tables });
    for (const q of ['vendor with the longest average lead time', 'the busiest vendor by average lead time', 'the biggest vendor by average lead time']) {
      const why = index.search(q, { limit: 5 }).hits.flatMap((h) => h.why);
      assert.ok(!why.some((w) => /may hold '(longest|busiest|biggest)'/.test(w)), `${q}: ${why.join('; ')}`);
    }
    // A word that is no measure may still be a label.
    const why = index.search('vendor with the dozen average lead time', { limit: 5 }).hits.flatMap((h) => h.why);
    assert.ok(why.some((w) => w.includes("may hold 'dozen'")), why.join('; '));
  });
});
