import assert from 'node:assert/strict';
import { buildIndexData } from '../../../src/core/search/build';
import { buildSearchIndex } from '../../../src/core/search/index';
import { correctQuestion, correctSpelling } from '../../../src/core/search/spelling';
import { catalogBuilders, fk, names, src, withRanking } from './builders';

const { table } = catalogBuilders((name) => (/id$|_id$|qty|year/.test(name) ? 'integer' : 'text'));

const catalog = () =>
  src([
    table('customer', ['customer_id', 'name', 'address_id'], [fk(['address_id'], 'address')]),
    table('address', ['address_id', 'line1', 'city', 'postal_code']),
    table('product', ['product_id', 'name', 'colour', 'list_price']),
    table('sales_order', ['order_id', 'customer_id', 'order_date'], [fk(['customer_id'], 'customer')]),
    table('order_line', ['order_id', 'product_id', 'qty'], [fk(['order_id'], 'sales_order'), fk(['product_id'], 'product')]),
    table('release', ['release_id', 'name', 'barcode']),
  ]);

describe('search: misspelt words', () => {
  const vocab = buildIndexData({ tables: catalog() }).vocab;

  it('reads a word one slip away from one of the catalog words as that word', () => {
    assert.equal(correctSpelling('prodcuts', vocab), 'products'); // two letters swapped
    assert.equal(correctSpelling('custmers', vocab), 'customers'); // a letter left out
    assert.equal(correctSpelling('producct', vocab), 'product'); // one too many
    assert.equal(correctSpelling('relases', vocab), 'releases');
    assert.equal(correctSpelling('prodact', vocab), 'product'); // one wrong
  });

  it("reads a slip of a column's name of one word as that name", () => {
    const events = buildIndexData({ tables: src([table('event', ['id', 'name', 'setlist', 'begin_date_year']), table('series', ['id', 'name'])]) });
    assert.equal(correctSpelling('setlsts', events.vocab), 'setlists');
    // Persisted and opened again, the frame knows the same names.
    const index = buildSearchIndex({ tables: src([table('event', ['id', 'name', 'setlist', 'begin_date_year']), table('series', ['id', 'name'])]) });
    assert.equal(index.search('tour setlsts 1989', { limit: 1 }).hits[0]?.qualifiedName, 'public.event');
  });

  it('reads no run of letters longer than a word as a slip (a pasted key, "aaaa…"): its edits grow with the square of its length', () => {
    // A catalog word of 41 letters, one slip away: read as itself up to 40 letters, not beyond.
    const long = 'abcdefghijklmnopqrstuvwxyzabcdefghijklmno';
    const longVocab = buildIndexData({ tables: src([table(long, ['id', 'name'])]) }).vocab;
    assert.equal(correctSpelling(long.slice(0, 20) + long.slice(21), longVocab), long);
    assert.equal(correctSpelling(`${long.slice(0, 20)}x${long.slice(20)}`, longVocab), null);
    assert.equal(correctSpelling('a'.repeat(1000), vocab), null);
  });

  it('reads a slip of a function word as that word, so it counts for nothing', () => {
    assert.equal(correctSpelling('evry', vocab), 'every');
    assert.equal(correctSpelling('thier', vocab), 'their');
    assert.equal(correctSpelling('whcih', vocab), 'which');
    // Two function words one slip away: no reading.
    assert.equal(correctSpelling('ther', vocab), null); // there, their
    assert.equal(correctQuestion('the price of evry product', vocab, () => false), 'the price of every product');
  });

  it('leaves known words, inflections, short words and slips that are not the catalog words alone', () => {
    for (const w of ['largest', 'heroes', 'incredibly', 'versus', 'uploaded', 'along', 'colours', 'qty', 'prod', 'metalica']) assert.equal(correctSpelling(w, vocab), null, w);
    // A capitalised word is a name, not a slip.
    assert.equal(correctSpelling('Prodcuts', vocab), null);
  });

  it('leaves a word the catalog stores as a value', () => {
    assert.equal(correctQuestion('custmers in the prodcuts region', vocab, (w) => w === 'prodcuts'), 'customers in the prodcuts region');
    assert.equal(correctQuestion("custmers' adress", vocab, () => false), "customers' address");
  });

  it('finds the tables a misspelt question names', () => {
    const index = buildSearchIndex({ tables: catalog() });
    const hits = index.search('adress of custmers who bought prodcuts', { limit: 5 }).hits;
    const top = names(hits);
    for (const t of ['address', 'customer', 'product']) assert.ok(top.includes(t), top.join(', '));
    assert.ok(hits.find((h) => h.qualifiedName === 'public.product')!.why.some((w) => w.includes("name matches 'products'")), hits.map((h) => h.why.join('; ')).join('\n'));
  });
});

describe('search: a table name is no slip', () => {
  it('leaves a word that names a table, or its plural, as written', () => {
    const vocab = buildIndexData({ tables: src([table('superhero', ['id', 'superhero_name']), table('hero_power', ['hero_id', 'power_id'])]) }).vocab;
    assert.equal(correctSpelling('superhero', vocab), null);
    assert.equal(correctSpelling('superheros', vocab), null);
  });
});

describe('search: a slip of a synonym, where nothing else is reached', () => {
  const films = () =>
    src([
      table('film', ['film_id', 'title', 'length', 'rental_rate']),
      table('actor', ['actor_id', 'first_name', 'last_name']),
      table('film_actor', ['actor_id', 'film_id'], [fk(['actor_id'], 'actor'), fk(['film_id'], 'film')]),
      table('payment', ['payment_id', 'amount', 'payment_date']),
    ]);

  it('reads a slip of a thesaurus synonym of a catalog word ("moveis": movies, the catalog\'s film) only when the question reaches no table', () => {
    const index = buildSearchIndex({ tables: films() });
    const hits = (on: number, q: string) => withRanking('synonymSlips', on, () => index.search(q, { limit: 3 }).hits);
    // Without it every word misses and the answer is the catalog's most joined tables.
    const off = hits(0, 'longest moveis');
    assert.ok(off.every((h) => h.why.some((w) => w.startsWith('no word of the question'))), off.map((h) => h.why.join('; ')).join(' / '));
    const on = hits(1, 'longest moveis');
    assert.equal(on[0]?.qualifiedName, 'public.film');
    assert.ok(on[0]!.why.some((w) => w.includes('movie→film')), on[0]!.why.join('; '));
    // A question that reaches a table as written keeps its words: the slip is not read as a synonym there.
    const reached = hits(1, 'actors in the longest moveis');
    assert.ok(!reached.some((h) => h.why.some((w) => w.includes('movie'))), reached.map((h) => h.why.join('; ')).join(' / '));
    // The plain correction towards the catalog's own words is unchanged.
    assert.equal(correctSpelling('moveis', buildIndexData({ tables: films() }).vocab), null);
    assert.equal(correctSpelling('moveis', buildIndexData({ tables: films() }).vocab, true), 'movies');
  });
});
