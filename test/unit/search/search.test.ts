import assert from 'node:assert/strict';
import type { ColumnInfo, ForeignKeyInfo, TableInfo } from '../../../src/core/catalog/model';
import { buildSearchIndex, identifierTerms, loadLexicon, parseQuery, segmentWord, stem, type SearchTableInput } from '../../../src/core/search/index';
import { withCatalogWords } from '../../../src/core/search/build';
import { lemmaCandidates } from '../../../src/core/search/lexicon';
import { catalogBuilders, fk, src, withRanking } from './builders';

const builders = catalogBuilders(() => 'text');
const { column } = builders;
const table = (name: string, columns: Array<string | ColumnInfo>, opts: { comment?: string; fks?: ForeignKeyInfo[] } = {}): TableInfo => ({
  ...builders.table(name, columns, opts.fks),
  comment: opts.comment ?? null,
});

/** A small media-store + DVD-rental catalog. */
function catalog(): SearchTableInput[] {
  return src([
    table('artist', ['id', 'name']),
    table('album', ['id', 'title', 'artist_id'], { fks: [fk(['artist_id'], 'artist')] }),
    table('track', ['id', 'name', 'album_id', 'milliseconds', 'unit_price'], { fks: [fk(['album_id'], 'album')] }),
    table('customer', ['id', 'first_name', 'last_name', 'email', column('region', { stats: { nullFraction: 0, distinctEstimate: 4, mostCommonValues: ['LATAM', 'EMEA', 'APAC', 'NA'], mostCommonFreqs: null, minValue: null, maxValue: null, avgWidth: null, origin: 'pg_stats' } })]),
    table('invoice', ['id', 'customer_id', 'total', 'invoice_date'], { fks: [fk(['customer_id'], 'customer')] }),
    table('film', ['film_id', 'title', 'description', 'release_year', column('rating', { enumLabels: ['G', 'PG', 'PG-13', 'R', 'NC-17'] })]),
    table('actor', ['actor_id', 'first_name', 'last_name']),
    table('film_actor', ['actor_id', 'film_id', 'last_update'], { fks: [fk(['actor_id'], 'actor', ['actor_id']), fk(['film_id'], 'film', ['film_id'])] }),
    table('salesorderheader', ['salesorderid', 'orderdate', 'customerid', 'totaldue'], { comment: 'General sales order information.' }),
  ]);
}

const names = (hits: ReadonlyArray<{ qualifiedName: string }>): string[] => hits.map((h) => h.qualifiedName);

describe('search: tokeniser', () => {
  const lexicon = loadLexicon();

  it('splits snake_case, camelCase, acronyms and digits into lower-case words', () => {
    const terms = (s: string): string[] => identifierTerms(s, lexicon).map((t) => t.surface);
    assert.deepEqual(terms('customer_id'), ['customer', 'id']);
    assert.deepEqual(terms('SalesOrderID'), ['sales', 'order', 'id']);
    assert.deepEqual(terms('HTTPRequestLog'), ['http', 'request', 'log']);
    assert.deepEqual(terms('address2'), ['address']);
  });

  it('splits run-together names against the vocabulary and leaves real words alone', () => {
    assert.deepEqual(segmentWord('salesorderheader', lexicon), ['sales', 'order', 'header']);
    assert.deepEqual(segmentWord('businessentityid', lexicon), ['business', 'entity', 'id']);
    assert.equal(segmentWord('password', lexicon), null);
    assert.equal(segmentWord('isrc', lexicon), null);
    // A word the dictionary knows is not a function word run into another (`for` + `mat`); a compound it knows still splits.
    const comments = withCatalogWords(lexicon, new Set(['for', 'mat', 'sales', 'person']));
    assert.equal(segmentWord('format', comments), null);
    assert.deepEqual(segmentWord('salesperson', comments), ['sales', 'person']);
  });

  it('reads the name of a colour as a value of a colour column', () => {
    const index = buildSearchIndex({
      tables: src([
        table('product', ['productid', 'name', 'color', 'listprice']),
        table('illustration', ['illustrationid', 'diagram'], { comment: 'Bicycle assembly diagrams.' }),
        table('shift', ['shiftid', 'name', 'starttime']),
      ]),
    });
    for (const q of ['red mountain bikes under 1000 bucks', 'black helmets', 'anything in navy?']) {
      const hits = index.search(q, { limit: 3 }).hits;
      assert.equal(hits[0]?.qualifiedName, 'public.product', q);
      assert.ok(hits[0]!.why.some((w) => /related word \w+→color in color/.test(w)), hits[0]!.why.join(' | '));
    }
  });

  it('splits a run-together name into the words the catalog writes when two splits are as short', () => {
    // `rate changed ate` and `rate change date` are both three dictionary words; the catalog writes `date`.
    assert.deepEqual(segmentWord('ratechangedate', withCatalogWords(lexicon, new Set(['date', 'employee']))), ['rate', 'change', 'date']);
    assert.deepEqual(segmentWord('hiredate', withCatalogWords(lexicon, new Set(['date']))), ['hire', 'date']);
    // A table's name counts too (`address` is no piece of a longer name when a table is called that).
    assert.deepEqual(segmentWord('shiptoaddressid', withCatalogWords(lexicon, new Set(['ship']), ['address', 'salesorderheader'])), ['ship', 'to', 'address', 'id']);
    // Another table's `start_date` makes `date` a word of the catalog, so the pay history's column matches "date".
    const index = buildSearchIndex({ tables: src([table('employeepayhistory', ['businessentityid', 'ratechangedate', 'rate']), table('shift', ['shift_id', 'start_date'])]) });
    const why = index.search('pay history by date', { limit: 3 }).hits.find((h) => h.qualifiedName === 'public.employeepayhistory')?.why ?? [];
    assert.ok(why.includes("column ratechangedate matches 'date'"), why.join(' | '));
  });

  it('reads a camel-case word of a comment as an identifier, so it does not become one word that splits names wrongly', () => {
    // AdventureWorks: "W = WorkOrder, S = SalesOrder, P = PurchaseOrder". Taken whole, `salesorder` was a catalog word
    // and `salesorderheader` split into `salesorder` + `header`, with no `order` in its name.
    const tables = src([
      table('salesorderheader', ['salesorderid', 'orderdate', 'totaldue']),
      table('transactionhistory', ['transactionid', column('transactiontype', { comment: 'W = WorkOrder, S = SalesOrder, P = PurchaseOrder' })]),
    ]);
    const hit = buildSearchIndex({ tables }).search('orders placed last week', { limit: 3 }).hits.find((h) => h.qualifiedName === 'public.salesorderheader');
    assert.ok(hit?.why.includes("name matches 'orders'"), JSON.stringify(hit));
  });

  it('undoes a doubled consonant of an -ing or -ed form only where the consonant is doubled', () => {
    assert.ok(lemmaCandidates('running').includes('run'));
    assert.ok(lemmaCandidates('stopped').includes('stop'));
    // `pending` is not `pen` (which WordNet relates to `write`), `needed` is not `nee`.
    assert.ok(!lemmaCandidates('pending').includes('pen'), lemmaCandidates('pending').join(' '));
    assert.ok(!lemmaCandidates('needed').includes('nee'), lemmaCandidates('needed').join(' '));
    assert.ok(lemmaCandidates('pending').includes('pend'));
    // The other way round: a one-syllable verb that would have doubled its consonant did not (`rated` is `rate`, not
    // `rat`; `hoping` is `hope`), while a longer one never doubles (`edited` is `edit`, `opened` is `open`).
    for (const [word, wrong, right] of [['rated', 'rat', 'rate'], ['rating', 'rat', 'rate'], ['hoping', 'hop', 'hope'], ['taped', 'tap', 'tape']]) {
      assert.ok(!lemmaCandidates(word!).includes(wrong!) && lemmaCandidates(word!).includes(right!), `${word}: ${lemmaCandidates(word!).join(' ')}`);
    }
    assert.ok(lemmaCandidates('edited').includes('edit') && lemmaCandidates('opened').includes('open') && lemmaCandidates('listed').includes('list'));
  });

  it('gives a word in use only as an adjective none of its unattested noun senses, but keeps a spelling variant', () => {
    // `quick` as a noun is the flesh under a nail, a kind of body region: "a quick one" related to `countryregion`.
    const region = new Set(lexicon.concepts('region'));
    assert.ok(!lexicon.concepts('quick').some((c) => region.has(c)), lexicon.concepts('quick').join(' '));
    assert.deepEqual(lexicon.concepts('daily'), []);
    // `colour` is tagged only as an adjective, but its noun synset is in use under `color`: it keeps its senses.
    assert.ok(lexicon.concepts('colour').length > 0);
    // A noun in use keeps its senses.
    assert.ok(lexicon.concepts('invoice').length > 0);
  });

  it('expands common abbreviations', () => {
    const terms = identifierTerms('order_qty', lexicon).map((t) => t.term);
    assert.ok(terms.includes(stem('quantity')));
    assert.ok(identifierTerms('cust_addr', lexicon).some((t) => t.term === stem('address')));
  });

  it('reads a standard identifier by the words its name spells out: "recording code" reaches `isrc`', () => {
    assert.ok(identifierTerms('isrc', lexicon).some((t) => t.term === stem('recording')));
    assert.ok(identifierTerms('isbn', lexicon).some((t) => t.term === stem('book')));
    const index = buildSearchIndex({
      tables: src([
        table('recording', ['id', 'name', 'length']),
        table('isrc', ['recording', 'isrc'], { fks: [fk(['recording'], 'recording')] }),
        table('track', ['id', 'recording', 'position'], { fks: [fk(['recording'], 'recording')] }),
        table('work', ['id', 'name']),
        table('label', ['id', 'name', 'label_code']),
      ]),
    });
    const top = names(index.search('which recordings share one recording code', { limit: 3 }).hits);
    assert.equal(top[0], 'public.isrc', top.join(', '));
    assert.ok(top.includes('public.recording') && !top.includes('public.label'), top.join(', '));
    // The spelled-out words name the code itself: the acronym is a word of the question.
    const lexicon2 = loadLexicon();
    const terms = parseQuery('lengths and recording codes of the recordings', lexicon2, lexicon2).terms;
    assert.ok(terms.some((t) => t.surface === 'isrc' && t.phrasal === true), terms.map((t) => t.surface).join(' '));
    assert.ok(!parseQuery('the codes of the recordings', lexicon2, lexicon2).terms.some((t) => t.surface === 'isrc'));
    const codes = names(index.search('lengths and recording codes of the recordings', { limit: 10 }).hits);
    assert.ok(codes.indexOf('public.isrc') >= 0 && codes.indexOf('public.isrc') < 2, codes.join(', '));
  });

  it('stems singular, plural and simple verb forms to one term', () => {
    assert.equal(stem('orders'), stem('order'));
    assert.equal(stem('ordered'), stem('order'));
    assert.equal(stem('countries'), stem('country'));
    assert.equal(stem('rating'), stem('rate'));
    assert.equal(stem('people'), stem('person'));
    // An -f noun's -ves plural meets its singular ("on the shelves": a `shelf` column); a verb's -s form keeps its own.
    assert.equal(stem('shelves'), stem('shelf'));
    assert.equal(stem('knives'), stem('knife'));
    assert.equal(stem('leaves'), stem('leave'));
    assert.notEqual(stem('film'), stem('filling'));
    // A singular that ends in s, and its -es plural.
    assert.equal(stem('aliases'), stem('alias'));
    assert.equal(stem('biases'), stem('bias'));
    assert.equal(stem('areas'), stem('area'));
  });

  it('drops stop words and keeps quoted phrases as value probes', () => {
    const q = parseQuery('Which customers are in "Latin America"?', lexicon);
    assert.deepEqual(q.terms.map((t) => t.surface), ['customers', 'latin', 'america']);
    assert.deepEqual(q.quoted, ['latin america']);
    assert.ok(q.valueProbes.includes('latin america'));
  });
});

describe('search: ranking', () => {
  const index = buildSearchIndex({ tables: catalog() });

  it('ranks the table whose name matches above tables that only mention the word in a column', () => {
    const r = index.search('album titles');
    assert.equal(r.hits[0]?.qualifiedName, 'public.album');
    assert.ok(names(r.hits).includes('public.track'), 'track links to album and should still appear');
  });

  it('weights a name match over a column match (BM25F fields)', () => {
    const r = index.search('invoice');
    assert.equal(r.hits[0]?.qualifiedName, 'public.invoice');
  });

  it('reads a word the catalog does not write in its rarer senses too: "flicks" are films', () => {
    const lexicon = loadLexicon();
    // WordNet's first senses of "flick" are a flicker and a flip; its third is a movie, which is what "film" means first.
    const filmSenses = new Set(lexicon.concepts('film'));
    assert.ok(!lexicon.concepts('flicks').some((c) => filmSenses.has(c)), 'the usual senses do not reach film');
    assert.ok(lexicon.laterConcepts('flicks').some((c) => filmSenses.has(c)), 'a later sense does');
    const r = index.search('longest flicks');
    const film = r.hits.findIndex((h) => h.qualifiedName === 'public.film');
    assert.ok(film >= 0 && film <= 1, r.hits.map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join('\n'));
    assert.ok(r.hits[film]!.why.some((w) => w.includes('flick→film')), r.hits[film]!.why.join('; '));
    // A word the catalog writes keeps its usual senses: a table named for it is not read as anything rarer.
    const own = buildSearchIndex({ tables: src([table('flick', ['id', 'wrist_speed']), table('film', ['id', 'title'])]) });
    assert.deepEqual(names(own.search('flicks').hits), ['public.flick']);
  });

  it('finds tables through synonyms: song→track and singer→artist', () => {
    const songs = index.search('songs');
    assert.equal(songs.hits[0]?.qualifiedName, 'public.track');
    assert.ok(songs.hits[0]!.why.some((w) => w.includes('song→track')), songs.hits[0]!.why.join('; '));
    const singers = index.search('singer');
    assert.equal(singers.hits[0]?.qualifiedName, 'public.artist');
  });

  it('finds tables through a value of a low-cardinality column', () => {
    const r = index.search("customers in 'LATAM'");
    assert.equal(r.hits[0]?.qualifiedName, 'public.customer');
    assert.ok(r.hits[0]!.why.some((w) => w === "value 'LATAM' in region"), r.hits[0]!.why.join('; '));
    assert.ok(r.hits[0]!.matchedColumns.includes('region'));
    const rated = index.search('films rated PG-13');
    assert.equal(rated.hits[0]?.qualifiedName, 'public.film');
    assert.ok(rated.hits[0]!.why.some((w) => w.startsWith("value 'PG-13'")));
  });

  it('matches a value only in the form it is written, up to a plural', () => {
    const notes = buildSearchIndex({
      tables: src([
        table('edit', ['id', 'editor', 'status', 'open_time']),
        table('edit_note', ['id', 'edit', 'text'], { fks: [fk(['edit'], 'edit')] }),
        table('edit_note_change', ['id', 'edit_note', column('status', { enumLabels: ['deleted', 'edited'] }), 'old_note'], { fks: [fk(['edit_note'], 'edit_note')] }),
        table('rental', ['id', column('state', { enumLabels: ['canceled', 'returned'] })]),
      ]),
    });
    const valueHit = (q: string, on: number): boolean => withRanking('valueForms', on, () => notes.search(q, { limit: 5 }).hits.some((h) => h.why.some((w) => w.startsWith('value '))));
    // "edits" are the things, not the state 'edited' of a note.
    assert.equal(valueHit('how many edits did each editor open', 1), false);
    assert.equal(valueHit('how many edits did each editor open', 0), true);
    assert.equal(valueHit('edited notes', 1), true);
    // The same form of another word: a state as the value writes it.
    assert.equal(valueHit('returned rentals', 1), true);
  });

  it('completes the join set with the bridge table between two matched tables', () => {
    const r = index.search('which actors appear in each film', { limit: 3, withJoinTree: true });
    assert.deepEqual([...names(r.hits)].sort(), ['public.actor', 'public.film', 'public.film_actor']);
    const bridge = r.hits.find((h) => h.qualifiedName === 'public.film_actor')!;
    assert.ok(bridge.why.some((w) => w.startsWith('bridge between') || w.startsWith('joins')), bridge.why.join('; '));
    assert.equal(r.joinTree?.length, 2);
    assert.ok(r.joinTree!.every((e) => e.from === 'public.film_actor'));
  });

  it('matches run-together table names and table comments', () => {
    const r = index.search('sales orders');
    assert.equal(r.hits[0]?.qualifiedName, 'public.salesorderheader');
  });

  it('explains every hit with at least one non-empty reason and scores within 0..1', () => {
    for (const q of ['album titles', 'songs', 'customers in LATAM', 'actors in films', 'total due of orders']) {
      const r = index.search(q);
      assert.ok(r.hits.length > 0, q);
      for (const h of r.hits) {
        assert.ok(h.why.length > 0 && h.why.every((w) => w.length > 0), `${q}: ${h.qualifiedName}`);
        assert.ok(h.score > 0 && h.score <= 1, `${q}: ${h.qualifiedName} ${h.score}`);
      }
      assert.equal(r.hits[0]!.score, Math.max(...r.hits.map((h) => h.score)));
    }
  });

  it('is deterministic: the same query on an index built from shuffled input gives the same ranking', () => {
    const a = index.search('name of the customer', { limit: 20 });
    const shuffled = buildSearchIndex({ tables: [...catalog()].reverse() });
    const b = shuffled.search('name of the customer', { limit: 20 });
    assert.deepEqual(names(a.hits), names(b.hits));
    assert.deepEqual(a.hits.map((h) => h.score), b.hits.map((h) => h.score));
  });

  it("lists every table for '*', nothing for a blank query, and the map of the catalog for a question with no word to search for", () => {
    const all = index.search('*', { limit: 100 });
    assert.equal(all.hits.length, 9);
    assert.equal(all.totalMatches, 9);
    assert.equal(index.search('*', { limit: 3 }).hits.length, 3);
    assert.equal(index.search('*', { limit: 3 }).totalMatches, 9);
    assert.equal(index.search('').hits.length, 0);
    assert.equal(index.search('   ').hits.length, 0);
    // Only words that ask: no dead end, but no claim of a match either.
    for (const q of ['what is the', 'show me everything', 'list all', '?']) {
      const res = index.search(q, { limit: 4 });
      assert.equal(res.fallback?.reason, 'no_words', q);
      assert.equal(res.totalMatches, 0, q);
      assert.equal(res.hits.length, 4, q);
      assert.ok(res.fallback!.areas.length > 0, q);
      assert.ok(res.hits.every((h) => h.score < 0.5 && h.why[0]!.startsWith('the question has no word to search for')), JSON.stringify(res.hits));
    }
  });

  it('filters by source and schema', () => {
    const two = buildSearchIndex({ tables: [...catalog(), ...src([table('track', ['id', 'title'])], 'other')] });
    const r = two.search('track', { source: 'other' });
    assert.deepEqual(r.hits.map((h) => h.sourceName), ['other']);
    assert.equal(two.search('track', { schema: 'nope' }).hits.length, 0);
  });

  it('uses entity and metric names and descriptions', () => {
    const withSemantic = buildSearchIndex({
      tables: catalog(),
      entities: [{ name: 'Purchase', description: 'A bill sent to a shopper', table: 'public.invoice' }],
      metrics: [{ name: 'gross_revenue', description: 'Sum of invoice totals', entity: 'Purchase' }],
    });
    const r = withSemantic.search('gross revenue');
    assert.equal(r.hits[0]?.qualifiedName, 'public.invoice');
    assert.ok(r.hits[0]!.why.some((w) => w.includes("metric 'gross_revenue'")), r.hits[0]!.why.join('; '));
  });
});

describe('search: latency smoke', () => {
  it('builds and queries a synthetic 2,000-table index within generous bounds', function () {
    this.timeout(60000);
    const words = 'account order customer invoice payment product item stock warehouse region country city store staff employee department project task ticket event session user role audit log metric report campaign lead contact vendor supplier shipment'.split(' ');
    const tables: TableInfo[] = [];
    for (let t = 0; t < 2000; t++) {
      const w = (k: number): string => words[(t * 7 + k * 13) % words.length]!;
      tables.push(table(`${w(1)}_${w(2)}_${t}`, ['id', ...Array.from({ length: 12 }, (_, c) => `${w(c + 3)}_${w(c + 5)}_${c}`)], t > 0 ? { fks: [fk([`${w(4)}_${w(6)}_0`], tables[(t * 31) % t]!.name)] } : {}));
    }
    const t0 = performance.now();
    const index = buildSearchIndex({ tables: src(tables) });
    const buildMs = performance.now() - t0;
    assert.ok(buildMs < 15000, `build took ${buildMs} ms`);
    const lat: number[] = [];
    for (let r = 0; r < 3; r++) {
      for (const q of ['customer orders by region', 'stock per warehouse', 'employee department', 'vendor shipment', 'songs']) {
        const s0 = performance.now();
        index.search(q, { limit: 10, withJoinTree: true });
        lat.push(performance.now() - s0);
      }
    }
    lat.sort((a, b) => a - b);
    assert.ok(lat[Math.floor(lat.length / 2)]! < 250, `median ${lat[Math.floor(lat.length / 2)]} ms`);
  });
});
