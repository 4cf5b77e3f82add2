import assert from 'node:assert/strict';
import type { TableInfo } from '../../../src/core/catalog/model';
import { buildSearchIndex, loadLexicon, parseQuery } from '../../../src/core/search/index';
import { RANKING } from '../../../src/core/search/rank';
import { properWords } from '../../../src/core/search/query';
import { catalogBuilders, fk, names, reasons, src, whyOf, withRanking } from './builders';

const { table } = catalogBuilders((name) => (/id$|_id$|year/.test(name) ? 'integer' : 'text'));

/** A small music catalog: releases with three code lists, media with a format, and tables that share their words. */
const music = (): TableInfo[] => [
  table('artist', ['id', 'name', 'sort_name', 'begin_date_year', 'area_id'], [fk(['area_id'], 'area')]),
  table('area', ['id', 'name', 'iso_code']),
  table('artist_credit', ['id', 'name', 'artist_count']),
  table('artist_credit_name', ['artist_credit_id', 'artist_id', 'position', 'join_phrase'], [fk(['artist_credit_id'], 'artist_credit'), fk(['artist_id'], 'artist')]),
  table('release_status', ['id', 'name', 'description']),
  table('release_packaging', ['id', 'name', 'description']),
  table('language', ['id', 'name', 'iso_code_3']),
  table('release', ['id', 'name', 'barcode', 'comment', 'status', 'packaging', 'language', 'artist_credit'], [
    fk(['status'], 'release_status'),
    fk(['packaging'], 'release_packaging'),
    fk(['language'], 'language'),
    fk(['artist_credit'], 'artist_credit'),
  ]),
  table('release_country', ['release', 'country', 'date_year', 'date_month'], [fk(['release'], 'release'), fk(['country'], 'area')]),
  table('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release'), fk(['tag'], 'tag')]),
  table('tag', ['id', 'name', 'ref_count']),
  table('medium_format', ['id', 'name', 'year', 'has_discids']),
  table('medium', ['id', 'release', 'position', 'format', 'name', 'track_count'], [fk(['release'], 'release'), fk(['format'], 'medium_format')]),
  table('track', ['id', 'medium', 'position', 'name', 'length'], [fk(['medium'], 'medium')]),
  table('editor_collection_release', ['collection', 'release'], [fk(['release'], 'release')]),
];


/**
 * Asserts that with ranking constant `name` moved from `values[0]` to `values[1]`, `table` is in the top ten at index
 * `atMost` or better, and higher than before (or absent before).
 */
function assertRisesTo(index: ReturnType<typeof buildSearchIndex>, q: string, table: string, name: Parameters<typeof withRanking>[0], values: readonly [number, number], atMost: number): void {
  const rank = (value: number): number => withRanking(name, value, () => names(index.search(q, { limit: 10 }).hits).indexOf(table));
  const before = rank(values[0]);
  const after = rank(values[1]);
  assert.ok(after >= 0 && after <= atMost && (before < 0 || before > after), `${before} → ${after}: ${reasons(index.search(q, { limit: 10 }).hits)}`);
}
describe('search: value words before a noun', () => {
  it('brings the code lists of the table a noun names when a word the catalog does not hold qualifies it', () => {
    const index = buildSearchIndex({ tables: src(music()) });
    const res = index.search('promotional albums', { limit: 10 });
    const top = names(res.hits);
    // `album` names `release` through the thesaurus; "promotional" is a value of one of its code lists.
    const r = top.indexOf('release');
    assert.ok(r >= 0 && r <= 1, top.join(', '));
    for (const list of ['release_status', 'release_packaging']) {
      assert.ok(top.indexOf(list) >= 0 && top.indexOf(list) <= 5, `${list}: ${top.join(', ')}`);
      const hit = res.hits.find((h) => h.qualifiedName === `public.${list}`)!;
      assert.ok(hit.why.some((w) => w.includes("'promotional albums'")), hit.why.join(' | '));
    }
    // The same words with the value after the noun: only the weaker value-lookup signal, not the modifier's.
    const after = index.search('albums that are promotional', { limit: 10 }).hits;
    assert.ok(!after.some((h) => h.why.some((w) => w.includes("'promotional albums'"))), reasons(after));
  });

  it('puts a list of kinds before the other code lists of the table a value word qualifies', () => {
    // "live" is in none of the names: it may be a status, a packaging, a language or a kind of release; a word that
    // sorts rows into kinds is most often a kind.
    const release = table('release', ['id', 'name', 'status', 'packaging', 'type'], [fk(['status'], 'release_status'), fk(['packaging'], 'release_packaging'), fk(['type'], 'release_type')]);
    const tables = [...music().filter((t) => t.name !== 'release'), release, table('release_type', ['id', 'name', 'description'])];
    const res = buildSearchIndex({ tables: src(tables) }).search('live albums', { limit: 10 });
    const score = (n: string): number => res.hits.find((h) => h.qualifiedName === `public.${n}`)?.score ?? 0;
    assert.ok(score('release_type') > score('release_packaging') && score('release_type') > score('release_status') && score('release_packaging') > 0, reasons(res.hits));
  });

  it('keeps the code lists with their table when other words rank other tables first and the table rises later', () => {
    // Many tables match "from the 70s" (dates, years) before `release` does; `release` rises later as a junction and a
    // join path. Its code lists go up with it.
    const dated = ['recording', 'release_group', 'event', 'label', 'place'].flatMap((e) => [
      table(`${e}_first_release_date`, [e, 'year', 'month', 'day'], [fk([e], e)]),
      table(e, ['id', 'name', 'begin_date_year', 'end_date_year']),
    ]);
    const tables = [...music(), table('release_first_release_date', ['release', 'year', 'month', 'day'], [fk(['release'], 'release')]), ...dated];
    const res = buildSearchIndex({ tables: src(tables) }).search('bootleg albums from the 70s', { limit: 20 });
    const top = names(res.hits);
    assert.ok(top.includes('release') && top.includes('release_status'), top.join(', '));
    const score = (n: string): number => res.hits.find((h) => h.qualifiedName === `public.${n}`)!.score;
    assert.ok(score('release_status') >= 0.9 * score('release'), `${score('release_status')} vs ${score('release')}`);
  });

  it('offers the wider kind list above a kind list for a value word: the value may be a category or a subcategory', () => {
    const index = buildSearchIndex({
      tables: src([
        table('product_category', ['product_category_id', 'name']),
        table('product_subcategory', ['product_subcategory_id', 'product_category_id', 'name'], [fk(['product_category_id'], 'product_category')]),
        table('unit_measure', ['unit_measure_code', 'name']),
        table('product', ['product_id', 'name', 'weight', 'weight_unit_measure_code', 'product_subcategory_id'], [fk(['product_subcategory_id'], 'product_subcategory'), fk(['weight_unit_measure_code'], 'unit_measure')]),
        table('vendor', ['vendor_id', 'name', 'credit_rating']),
        table('product_vendor', ['product_id', 'vendor_id', 'standard_price'], [fk(['product_id'], 'product'), fk(['vendor_id'], 'vendor')]),
        table('sales_order_detail', ['sales_order_id', 'product_id', 'order_qty'], [fk(['product_id'], 'product')]),
        table('product_review', ['product_review_id', 'product_id', 'rating', 'comments'], [fk(['product_id'], 'product')]),
      ]),
    });
    const res = index.search('Accessories products whose weight is recorded in pounds', { limit: 5 });
    const category = res.hits.find((h) => h.qualifiedName === 'public.product_category');
    assert.ok(category?.why.some((w) => w.startsWith('wider kind of product')), names(res.hits).join(', '));
    assert.ok(names(res.hits).includes('product_subcategory'), names(res.hits).join(', '));
  });

  it('prefers the code list the question names, and ignores counting words and verb forms', () => {
    const index = buildSearchIndex({
      tables: src([
        table('superhero', ['id', 'superhero_name', 'full_name', 'gender_id', 'race_id', 'publisher_id', 'height_cm'], [fk(['gender_id'], 'gender'), fk(['race_id'], 'race'), fk(['publisher_id'], 'publisher')]),
        table('gender', ['id', 'gender']),
        table('race', ['id', 'race']),
        table('publisher', ['id', 'publisher_name']),
        table('superpower', ['id', 'power_name']),
        table('hero_power', ['hero_id', 'power_id'], [fk(['hero_id'], 'superhero'), fk(['power_id'], 'superpower')]),
      ]),
    });
    const named = index.search('how many vampire superheroes are there by race', { limit: 10 });
    const top = names(named.hits);
    assert.ok(top.indexOf('race') >= 0 && top.indexOf('race') < top.indexOf('gender'), top.join(', '));
    assert.ok(!named.hits.find((h) => h.qualifiedName === 'public.gender')?.why.some((w) => w.includes('vampire superheroes')), 'gender is not offered for the value');
    for (const q of ['count distinct superheroes', 'list rented superheroes']) {
      const hits = index.search(q, { limit: 10 }).hits;
      assert.ok(!hits.some((h) => h.why.some((w) => w.startsWith('code list of'))), `${q}: ${hits.map((h) => h.why.join('/')).join(' | ')}`);
    }
  });
});

describe('search: value words end at punctuation', () => {
  it('does not read a word before a comma as a value of the next noun', () => {
    const lexicon = loadLexicon();
    const at = (q: string, w: string): number => parseQuery(q, lexicon).terms.find((t) => t.surface === w)!.position!;
    assert.equal(at('bootleg albums', 'albums') - at('bootleg albums', 'bootleg'), 1);
    assert.equal(at('bootleg, albums', 'albums') - at('bootleg, albums', 'bootleg'), 2);
    assert.equal(at('all of it — bootlegs (albums too)', 'albums') - at('all of it — bootlegs (albums too)', 'bootlegs'), 2);
    const index = buildSearchIndex({ tables: src(music()) });
    // "bootleg albums": the code lists of `release` may hold the value; "bootlegs, albums": two things, no modifier.
    const offered = (q: string): boolean => index.search(q, { limit: 10 }).hits.some((h) => h.why.some((w) => w.startsWith('code list of release')));
    assert.ok(offered('every bootleg albums'));
    assert.ok(!offered('everything — the bootlegs, albums, whatever'));
  });
});

describe('search: query words', () => {
  it('reads an acronym plural as one word and finds the words of proper names', () => {
    const lexicon = loadLexicon();
    const terms = parseQuery('vinyl LPs and CDs released in Germany', lexicon).terms.map((t) => t.surface);
    assert.ok(terms.includes('lps') && terms.includes('cds'), terms.join(' '));
    assert.ok(!terms.includes('l') && !terms.includes('ps'), terms.join(' '));
    assert.deepEqual([...properWords('Who played bass on Abbey Road? Which albums')].sort(), ['abbey', 'road']);
    assert.deepEqual(
      parseQuery('bootleg albums on vinyl', lexicon).terms.filter((t) => t.surface === 'albums' || t.surface === 'vinyl').map((t) => t.position),
      [1, 3],
    );
  });

  it('reads "who" after a kind of person as a relative clause, not a question for people', () => {
    const lexicon = loadLexicon();
    const asks = (q: string): boolean => parseQuery(q, lexicon).asksPerson;
    for (const q of ['who sold the most bikes?', 'Tell me who wrote Yesterday', 'whose albums sold best', 'the store whoever placed order 42 shops at']) assert.equal(asks(q), true, q);
    for (const q of ['customers who paid with a card', 'employees whose pay rose', 'artists who were members of bands']) assert.equal(asks(q), false, q);
    // After a thing, too: the clause is about that thing's rows. A comma ends the noun's phrase: "who" asks again.
    for (const q of ['List products whose weight is measured in grams', 'store contacts whose role is Purchasing Manager']) assert.equal(asks(q), false, q);
    for (const q of ['Which documents are pending approval, who owns them?', "For the stores that bought last year, who's the owner?"]) assert.equal(asks(q), true, q);
  });

  it('reads a year or a decade as a question about dates', () => {
    const lexicon = loadLexicon();
    const implied = (q: string): string[] => parseQuery(q, lexicon).terms.filter((t) => t.weight < 1).map((t) => t.surface);
    for (const q of ['vinyl LPs released in Germany in 1985', 'bootleg albums from the 70s', "hits of the '90s", 'singles of the 1960s']) {
      assert.deepEqual(implied(q), ['year', 'date'], q);
    }
    for (const q of ['tunes longer than 5 minutes', 'top 10 labels', 'order SO43659', 'catalog number 724384260927']) assert.deepEqual(implied(q), [], q);
    // A question that already says "year" keeps its own word at full weight.
    assert.deepEqual(implied('releases per year since 1990'), ['date']);
    // So does a period a question groups or compares by.
    for (const q of ['average recording length decade by decade', 'sales year over year', 'new artists each year']) assert.ok(implied(q).includes('date'), q);
    assert.deepEqual(implied('a year-end report'), [], 'a year that is no period of grouping');
    const index = buildSearchIndex({ tables: src(music()) });
    const dated = names(index.search('albums from 1985', { limit: 10 }).hits);
    const plain = names(index.search('albums', { limit: 10 }).hits);
    const rank = (list: string[]): number => (list.includes('release_country') ? list.indexOf('release_country') : Infinity);
    assert.ok(rank(dated) <= 3 && rank(dated) < rank(plain), `${dated.join(', ')} vs ${plain.join(', ')}`);
  });

  it('reads the verb of a trend question as a measure over time, not as a word of the catalog', () => {
    const lexicon = loadLexicon();
    const surfaces = (q: string): string[] => parseQuery(q, lexicon).terms.map((t) => t.surface);
    assert.ok(!surfaces('How has the average recording length changed decade by decade?').includes('changed'));
    assert.ok(!surfaces('How have sales shifted since 2010?').includes('shifted'));
    // Elsewhere the verb keeps its meaning: people who changed departments, notes someone changed.
    assert.ok(surfaces('Which employees changed departments last year?').includes('changed'));
    assert.ok(surfaces('how many notes were changed last week').includes('changed'));
  });

  it('keeps names whole and reads a possessive name as someone', () => {
    const lexicon = loadLexicon();
    const surfaces = (q: string): string[] => parseQuery(q, lexicon).terms.map((t) => t.surface);
    assert.deepEqual(surfaces('Dolly Parton tunes'), ['dolly', 'parton', 'tunes']);
    assert.ok(!surfaces('editions of Radiohead albums').includes('radio'), surfaces('editions of Radiohead albums').join(' '));
    // A run-together identifier in lower case is still split.
    assert.ok(surfaces('rows of salesorderheader').includes('header'), surfaces('rows of salesorderheader').join(' '));
    assert.deepEqual(parseQuery("editions of Radiohead's albums", lexicon).mentions, [{ kind: 'person', text: 'Radiohead' }]);
    assert.deepEqual(parseQuery("What's the average length?", lexicon).mentions, []);
  });
});

describe('search: auxiliary tables in the join graph', () => {
  it('keeps the discount of a raw-import junction when it joins two matched tables, unless the question asks for it', () => {
    const tables = src([
      table('artist', ['id', 'name', 'sort_name', 'begin_date_year']),
      table('editor', ['id', 'name', 'email', 'member_since']),
      table('recording', ['id', 'name', 'length', 'artist_credit'], [fk(['artist_credit'], 'artist_credit')]),
      table('artist_credit', ['id', 'name', 'artist_count']),
      table('artist_credit_name', ['artist_credit', 'artist', 'position'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
      table('artist_rating_raw', ['artist', 'editor', 'rating'], [fk(['artist'], 'artist'), fk(['editor'], 'editor')]),
      table('editor_subscribe_artist', ['id', 'editor', 'artist', 'last_edit_sent'], [fk(['editor'], 'editor'), fk(['artist'], 'artist')]),
      table('tag', ['id', 'name']),
      table('artist_tag', ['artist', 'tag', 'count'], [fk(['artist'], 'artist'), fk(['tag'], 'tag')]),
      table('artist_tag_raw', ['artist', 'editor', 'tag'], [fk(['artist'], 'artist'), fk(['editor'], 'editor'), fk(['tag'], 'tag')]),
    ]);
    const index = buildSearchIndex({ tables });
    const plain = names(index.search('artists and editors', { limit: 10 }).hits);
    // The raw-import junctions join the same two tables as `editor_subscribe_artist`; their bridge boost keeps the
    // discount, so they stay below the entity the question names.
    for (const raw of ['artist_rating_raw', 'artist_tag_raw']) {
      assert.ok(plain.indexOf(raw) > plain.indexOf('artist'), `${raw}: ${plain.join(', ')}`);
    }
    const asked = names(index.search('raw artist ratings by editors', { limit: 10 }).hits);
    assert.ok(asked.indexOf('artist_rating_raw') >= 0 && asked.indexOf('artist_rating_raw') < 2, asked.join(', '));
  });
});

describe('search: guessed labels do not crowd the answer', () => {
  /** Releases with code lists of their own and behind junctions (genre, mood, tag); "live" is in none of the names. */
  const listed = (): TableInfo[] => [
    ...music(),
    table('genre', ['id', 'name', 'comment']),
    table('mood', ['id', 'name', 'comment']),
    table('l_genre_release', ['id', 'entity0', 'entity1'], [fk(['entity0'], 'genre'), fk(['entity1'], 'release')]),
    table('l_mood_release', ['id', 'entity0', 'entity1'], [fk(['entity0'], 'mood'), fk(['entity1'], 'release')]),
  ];
  const top10 = (index: ReturnType<typeof buildSearchIndex>, q: string, keep?: number): string[] => {
    const constants = RANKING as unknown as Record<string, number>;
    const saved = constants.guessKeep!;
    if (keep !== undefined) constants.guessKeep = keep;
    try {
      return names(index.search(q, { limit: 10 }).hits);
    } finally {
      constants.guessKeep = saved;
    }
  };

  it('puts the code lists a guessed label reached through other tables after the tables the other words found', () => {
    const index = buildSearchIndex({ tables: src(listed()) });
    for (const [q, needed] of [
      ['how many live albums did the Beatles put out', ['artist', 'artist_credit_name']],
      ['which tracks are on live albums', ['medium']],
    ] as const) {
      const uncapped = top10(index, q, 99);
      const capped = top10(index, q);
      // The control: with no cap the lists behind junctions fill the answer and leave out a table the question needs.
      assert.ok(['genre', 'mood'].every((t) => uncapped.includes(t)), `${q}: ${uncapped.join(', ')}`);
      assert.ok(needed.some((t) => !uncapped.includes(t)), `${q}: ${uncapped.join(', ')}`);
      for (const t of needed) assert.ok(capped.includes(t), `${q}: ${t} in ${capped.join(', ')}`);
      assert.ok(!capped.includes('genre') && !capped.includes('mood'), `${q}: ${capped.join(', ')}`);
      // The noun's own code lists stay: the word qualifies the albums first.
      for (const t of ['release', 'release_status', 'release_packaging', 'language']) assert.ok(capped.includes(t), `${q}: ${t} in ${capped.join(', ')}`);
    }
  });
});

describe('search: verb forms and the rows asked for', () => {
  /** AdventureWorks-shaped sales: a customer is a table of keys (a person or a store, in a territory). */
  const sales = (): TableInfo[] => [
    table('person', ['businessentityid', 'firstname', 'lastname', 'emailpromotion']),
    table('store', ['businessentityid', 'name', 'demographics']),
    table('salesterritory', ['territoryid', 'name', 'countryregioncode', 'salesytd']),
    table('customer', ['customerid', 'personid', 'storeid', 'territoryid'], [fk(['personid'], 'person', ['businessentityid']), fk(['storeid'], 'store', ['businessentityid']), fk(['territoryid'], 'salesterritory', ['territoryid'])]),
    table('productcategory', ['productcategoryid', 'name']),
    table('productsubcategory', ['productsubcategoryid', 'productcategoryid', 'name'], [fk(['productcategoryid'], 'productcategory', ['productcategoryid'])]),
    table('product', ['productid', 'name', 'listprice', 'productsubcategoryid'], [fk(['productsubcategoryid'], 'productsubcategory', ['productsubcategoryid'])]),
    table('specialoffer', ['specialofferid', 'description', 'discountpct', 'category']),
    table('salesorderheader', ['salesorderid', 'customerid', 'territoryid', 'orderdate', 'totaldue'], [fk(['customerid'], 'customer', ['customerid']), fk(['territoryid'], 'salesterritory', ['territoryid'])]),
    table('salesorderdetail', ['salesorderid', 'salesorderdetailid', 'productid', 'specialofferid', 'orderqty'], [fk(['salesorderid'], 'salesorderheader', ['salesorderid']), fk(['productid'], 'product', ['productid']), fk(['specialofferid'], 'specialoffer', ['specialofferid'])]),
    table('specialofferproduct', ['specialofferid', 'productid'], [fk(['specialofferid'], 'specialoffer', ['specialofferid']), fk(['productid'], 'product', ['productid'])]),
    table('productreview', ['productreviewid', 'productid', 'reviewername', 'rating', 'comments'], [fk(['productid'], 'product', ['productid'])]),
  ];

  it('reads an irregular past form before a noun as what happened to the rows, not as a label of their code lists', () => {
    const index = buildSearchIndex({ tables: src(sales()) });
    const guesses = (q: string): string[] => index.search(q, { limit: 10 }).hits.flatMap((h) => h.why).filter((w) => w.includes('may hold'));
    assert.ok(!guesses('customers who bought products on special offer').some((w) => w.includes("'bought products'")), guesses('customers who bought products on special offer').join('; '));
    // The control: an adjective the catalog does not hold is still offered to the product's kind lists.
    assert.ok(guesses('vintage products sold last year').some((w) => w.includes("'vintage products'")), guesses('vintage products sold last year').join('; '));
  });

  it('counts a table of keys whose whole name is the noun asked for as the rows asked for', () => {
    const index = buildSearchIndex({ tables: src(sales()) });
    const q = 'Which customers bought products under a special offer, and which offer was applied?';
    assertRisesTo(index, q, 'customer', 'focusBridges', [0, 1], 2);
  });
});

describe('search: an attribute of the rows kept in a table of their own', () => {
  const recordings = (): TableInfo[] => [
    ...music(),
    table('recording', ['id', 'name', 'artist_credit', 'length', 'comment'], [fk(['artist_credit'], 'artist_credit')]),
    table('recording_first_release_date', ['recording', 'year', 'month', 'day'], [fk(['recording'], 'recording')]),
    table('recording_tag', ['recording', 'tag', 'count'], [fk(['recording'], 'recording'), fk(['tag'], 'tag')]),
    table('event', ['id', 'name', 'begin_date_year', 'end_date_year', 'time']),
    table('series', ['id', 'name', 'type', 'comment']),
  ];

  it("raises the table that holds a word the leading table lacks, when it points at it and its name starts with the leader's", () => {
    const index = buildSearchIndex({ tables: src(recordings()) });
    const q = 'average length of songs per year';
    assertRisesTo(index, q, 'recording_first_release_date', 'attributeHome', [0, 0.9], 1);
    assert.ok(whyOf(index.search(q, { limit: 10 }).hits, 'recording_first_release_date').some((w) => w === "holds the 'year' of recording"), reasons(index.search(q, { limit: 10 }).hits));
    // A word the leading table holds itself ("length") raises no table of its own.
    assert.ok(!index.search(q, { limit: 10 }).hits.some((h) => h.why.some((w) => w.startsWith("holds the 'length'"))));
  });

  it('reads a column named by a thesaurus synonym of the word asked for, but not a key or the table repeating its own name', () => {
    const tables = [
      ...recordings(),
      table('release_meta', ['id', 'rating', 'rating_count', 'cover_art_presence'], [fk(['id'], 'release')]),
      table('recording_attribute_type', ['id', 'name', 'comment']),
      table('recording_attribute', ['id', 'recording', 'recording_attribute_type', 'recording_attribute_text'], [fk(['recording'], 'recording'), fk(['recording_attribute_type'], 'recording_attribute_type')]),
    ];
    const index = buildSearchIndex({ tables: src(tables) });
    const q = 'fan scores for albums';
    const why = (synonyms: number, text: string): string[] => withRanking('attributeSynonyms', synonyms, () => index.search(text, { limit: 10 }).hits.flatMap((h) => h.why).filter((w) => w.startsWith('holds the')));
    assert.deepEqual(why(0, q), []);
    assert.deepEqual(why(1, q), ["holds the 'scores' of release"], reasons(index.search(q, { limit: 10 }).hits));
    // `recording_attribute.recording` is a key and `recording_attribute_text` repeats the table's name: no song there.
    assert.deepEqual(why(1, 'the longest songs'), []);
  });
});

describe('search: the way from a row to a named place', () => {
  /** Releases whose countries sit in a table of their own, and typed relationships of areas to releases and their groups. */
  const catalog = (): TableInfo[] => [
    table('area_type', ['id', 'name']),
    table('area', ['id', 'name', 'type', 'begin_date_year'], [fk(['type'], 'area_type')]),
    table('release_group', ['id', 'name', 'type', 'comment']),
    table('script', ['id', 'name', 'iso_code']),
    table('release', ['id', 'name', 'release_group', 'script', 'barcode'], [fk(['release_group'], 'release_group'), fk(['script'], 'script')]),
    table('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release'), fk(['country'], 'area')]),
    table('link_type', ['id', 'name', 'entity_type0', 'entity_type1']),
    table('link', ['id', 'link_type', 'attribute_count'], [fk(['link_type'], 'link_type')]),
    ...['artist', 'label', 'recording', 'work', 'place'].map((e) => table(e, ['id', 'name', 'comment'])),
    ...[
      ['area', 'release_group'],
      ['area', 'release'],
      ['artist', 'release'],
      ['label', 'release'],
      ['recording', 'work'],
      ['artist', 'work'],
      ['place', 'recording'],
    ].map(([a, b]) => table(`l_${a}_${b}`, ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], a!), fk(['entity1'], b!)])),
  ];

  it("leaves a row through a table of its own as readily as through its own keys ('albums issued in Japan': release_country)", () => {
    const index = buildSearchIndex({ tables: src(catalog()) });
    const q = 'What share of albums issued in Japan use Latin script?';
    const rank = (own: number): string[] => withRanking('ownTables', own, () => names(index.search(q, { limit: 10 }).hits));
    const before = rank(0);
    const after = rank(1);
    // Without: the first step must be one of the release's own keys, so the way runs through its group's typed relationship.
    assert.ok(before.indexOf('l_area_release_group') < before.indexOf('release_country'), before.join(', '));
    assert.ok(after.indexOf('release_country') >= 0 && after.indexOf('release_country') < after.indexOf('l_area_release_group'), after.join(', '));
    assert.ok(whyOf(index.search(q, { limit: 10 }).hits, 'release_country').includes("leads from release to area, which holds places, for 'Japan'"), reasons(index.search(q, { limit: 10 }).hits));
  });
});

describe('search: a plural noun the catalog does not write', () => {
  /** AdventureWorks-shaped products: two code lists, one of them a list of kinds. */
  const products = (): TableInfo[] => [
    table('unitmeasure', ['unitmeasurecode', 'name']),
    table('productcategory', ['productcategoryid', 'name']),
    table('productsubcategory', ['productsubcategoryid', 'productcategoryid', 'name'], [fk(['productcategoryid'], 'productcategory', ['productcategoryid'])]),
    table('product', ['productid', 'name', 'color', 'size', 'sizeunitmeasurecode', 'weightunitmeasurecode', 'safetystocklevel', 'productsubcategoryid'], [
      fk(['sizeunitmeasurecode'], 'unitmeasure', ['unitmeasurecode']),
      fk(['weightunitmeasurecode'], 'unitmeasure', ['unitmeasurecode']),
      fk(['productsubcategoryid'], 'productsubcategory', ['productsubcategoryid']),
    ]),
    table('location', ['locationid', 'name', 'costrate']),
    table('productinventory', ['productid', 'locationid', 'shelf', 'bin', 'quantity'], [fk(['productid'], 'product', ['productid']), fk(['locationid'], 'location', ['locationid'])]),
    table('productphoto', ['productphotoid', 'thumbnailphoto', 'largephoto']),
    table('productproductphoto', ['productid', 'productphotoid'], [fk(['productid'], 'product', ['productid']), fk(['productphotoid'], 'productphoto', ['productphotoid'])]),
    table('store', ['businessentityid', 'name', 'demographics']),
  ];

  it('offers it to the kind list of the rows before their other code lists', () => {
    const index = buildSearchIndex({ tables: src(products()) });
    // The rule for one unexplained word in a catalog of kinds within kinds (RANKING.taxonomy) is left out: it raises the same list.
    const scores = (q: string, kind: number): Map<string, number> => withRanking('taxonomy', 0, () => withRanking('valueKind', kind, () => new Map(index.search(q, { limit: 10 }).hits.map((h) => [h.qualifiedName.replace(/^public\./, ''), h.score]))));
    const q = 'large jerseys in stock';
    const [before, after] = [scores(q, 0), scores(q, 0.7)];
    const show = `${[...before].join(' ')}\n${[...after].join(' ')}`;
    // Without: the kind list is offered what every code list is (0.4 of the product); with: 0.7 of it.
    assert.ok(after.get('productsubcategory')! > 1.5 * before.get('productsubcategory')!, show);
    assert.ok(after.get('productsubcategory')! >= 0.6 * after.get('product')!, show);
    assert.equal(after.get('unitmeasure'), before.get('unitmeasure'), show);
    // A singular word is offered to every code list alike ("large jersey": a size, a colour, a kind).
    const one = 'large jersey in stock';
    assert.ok(index.search(one, { limit: 10 }).hits.some((h) => h.why.some((w) => w.includes("may hold 'jersey'"))), reasons(index.search(one, { limit: 10 }).hits));
    assert.deepEqual(scores(one, 0.7), scores(one, 0));
  });
});

describe('search: places within a named place', () => {
  const places = (): TableInfo[] => [
    table('area_type', ['id', 'name']),
    table('area', ['id', 'name', 'type', 'begin_date_year'], [fk(['type'], 'area_type')]),
    table('area_containment', ['descendant', 'parent', 'depth'], [fk(['descendant'], 'area'), fk(['parent'], 'area')]),
    table('link_type', ['id', 'name']),
    table('link', ['id', 'link_type'], [fk(['link_type'], 'link_type')]),
    table('l_area_area', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'area'), fk(['entity1'], 'area')]),
    table('place_type', ['id', 'name']),
    table('place', ['id', 'name', 'address', 'type', 'area'], [fk(['type'], 'place_type'), fk(['area'], 'area')]),
    table('label', ['id', 'name', 'area'], [fk(['area'], 'area')]),
  ];

  it('raises the junction of places within places for a level of places within a named place, not a typed relationship', () => {
    const index = buildSearchIndex({ tables: src(places()) });
    const within = (q: string, share: number): string[] => withRanking('containment', share, () => index.search(q, { limit: 10 }).hits.filter((h) => h.why.some((w) => w.startsWith('places within places'))).map((h) => h.qualifiedName.replace(/^public\./, '')));
    const q = 'Which German cities have the most venues listed?';
    assert.deepEqual(within(q, 0), []);
    assert.deepEqual(within(q, 0.9), ['area_containment'], reasons(index.search(q, { limit: 10 }).hits));
    // Premises are no level of places, and cities near a city are not within it.
    assert.deepEqual(within('which studios in Nashville have the most recordings', 0.9), []);
    assert.deepEqual(within('venues in cities near Chicago', 0.9), []);
  });
});

/** Releases with two code lists, their group and their credit, and two tables that only share the name `release`. */
const releases = (): TableInfo[] => [
  table('artist_credit', ['id', 'name', 'artist_count']),
  table('release_status', ['id', 'name', 'description']),
  table('release_packaging', ['id', 'name', 'description']),
  table('release_group', ['id', 'name', 'artist_credit'], [fk(['artist_credit'], 'artist_credit')]),
  table('release', ['id', 'name', 'barcode', 'status', 'packaging', 'release_group', 'artist_credit'], [
    fk(['status'], 'release_status'),
    fk(['packaging'], 'release_packaging'),
    fk(['release_group'], 'release_group'),
    fk(['artist_credit'], 'artist_credit'),
  ]),
  table('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release')]),
  table('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release')]),
];

describe('search: a code list that may hold an unknown word', () => {
  it('keeps the evidence of its own name and adds the guess, so it passes the siblings that only share the name', () => {
    const tables = [
      ...releases(),
      table('release_label', ['release', 'label', 'catalog_number'], [fk(['release'], 'release')]),
      table('release_meta', ['id', 'date_added', 'amazon_asin'], [fk(['id'], 'release')]),
    ];
    const index = buildSearchIndex({ tables: src(tables) });
    // With the code lists of the rows asked for (valueFocus) off: they would raise `release_packaging` on their own.
    const top = (on: number): string[] => names(withRanking('valueFocus', 0, () => withRanking('valueStack', on, () => index.search('list every release that came in a digifile', { limit: 10 }))).hits);
    // Before: the name match alone was already above the guess's share, so the guess added nothing.
    assert.ok(top(0).indexOf('release_packaging') > top(0).indexOf('release_meta'), top(0).join(', '));
    // After: both code lists of `release` come before the tables that only share its name.
    const after = top(RANKING.valueStack);
    for (const list of ['release_packaging', 'release_status']) assert.ok(after.indexOf(list) >= 0 && after.indexOf(list) < after.indexOf('release_tag'), after.join(', '));
  });
});

describe('search: an unknown word in a question about the rows asked for', () => {
  it('raises the code lists of those rows, not only of the best hits', () => {
    const tables = [
      table('artist', ['id', 'name', 'sort_name', 'begin_date_year']),
      table('artist_credit_name', ['artist_credit', 'artist', 'position', 'join_phrase'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
      ...releases(),
      table('artist_release', ['artist', 'release', 'is_track_artist'], [fk(['artist'], 'artist'), fk(['release'], 'release')]),
      table('l_artist_release', ['id', 'entity0', 'entity1'], [fk(['entity0'], 'artist'), fk(['entity1'], 'release')]),
    ];
    const index = buildSearchIndex({ tables: src(tables) });
    const q = 'Which Aphex Twin releases came in a digifile?';
    const top = (on: number): string[] => names(withRanking('valueFocus', on, () => index.search(q, { limit: 10 })).hits);
    // Before: the artist's tables led, and the code lists of `release` came only after its group.
    assert.ok(top(0).indexOf('release_packaging') > top(0).indexOf('release_group'), top(0).join(', '));
    // After: "digifile" may be a label of a code list of the releases asked for; "came" (a verb's form) is none.
    const after = top(RANKING.valueFocus);
    assert.ok(after.indexOf('release_packaging') >= 0 && after.indexOf('release_packaging') < after.indexOf('release_group'), after.join(', '));
    const why = index.search(q, { limit: 10 }).hits.find((h) => h.qualifiedName === 'public.release_packaging')!.why;
    assert.ok(why.includes("lookup of release, may hold 'digifile'"), why.join(' | '));
    // A word of time is no label of the releases' code lists.
    const now = index.search('Which Aphex Twin releases are there now?', { limit: 10 }).hits;
    assert.ok(!now.some((h) => h.why.some((w) => w.startsWith('lookup of release, may hold'))), reasons(now));
  });
});
