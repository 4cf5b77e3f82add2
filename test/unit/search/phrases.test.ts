import assert from 'node:assert/strict';
import type { TableInfo } from '../../../src/core/catalog/model';
import { buildSearchIndex, loadLexicon, parseQuery } from '../../../src/core/search/index';
import { identifierTerms, stem } from '../../../src/core/search/tokenize';
import { knownWord } from '../../../src/core/search/spelling';
import { catalogBuilders, fk, names, reasons, src, whyOf } from './builders';

const { table } = catalogBuilders((name) => (/id$|_id$/.test(name) ? 'integer' : /date/.test(name) ? 'timestamp' : 'text'));

/** A lending library: loans with a return date, items with a list price, members with a display name. */
const library = (): TableInfo[] => [
  table('member', ['id', 'display_name', 'joined_on']),
  table('item', ['id', 'title', 'list_price', 'shelf_mark']),
  table('loan', ['id', 'item_id', 'member_id', 'loan_date', 'return_date'], [fk(['item_id'], 'item'), fk(['member_id'], 'member')]),
  table('branch', ['id', 'name', 'city']),
  table('opening_hours', ['branch_id', 'weekday', 'opens', 'closes'], [fk(['branch_id'], 'branch')]),
];

describe('search: negated words', () => {
  it('looks up a negated word the catalog does not hold as the word it negates', () => {
    const tables = [
      table('customer', ['id', 'first_name', 'last_name', 'active', 'store_id'], [fk(['store_id'], 'store')]),
      table('store', ['id', 'address']),
      table('staff', ['id', 'username', 'store_id'], [fk(['store_id'], 'store')]),
      table('invoice', ['id', 'customer_id', 'total', 'paid'], [fk(['customer_id'], 'customer')]),
    ];
    const index = buildSearchIndex({ tables: src(tables) });
    const r = index.search('count of inactive shoppers per store', { limit: 4 });
    const hit = r.hits.find((h) => h.qualifiedName === 'public.customer');
    assert.ok(hit?.why.includes("column active matches 'inactive'"), reasons(r.hits));
    assert.equal(names(index.search('unpaid invoices', { limit: 1 }).hits)[0], 'invoice');
    // Only a quality or a state is negated: "discounts" are not "counts", "disorders" not "orders".
    const plain = buildSearchIndex({ tables: src([table('stock_take', ['id', 'item_count', 'taken_on']), table('purchase', ['id', 'order_date', 'total'])]) });
    for (const q of ['discounts per item', 'disorders by date']) {
      const hits = plain.search(q, { limit: 2 }).hits;
      assert.ok(!hits.some((h) => h.why.some((w) => /'dis(?:counts|orders)'/.test(w))), `${q}: ${hits.map((h) => h.why.join('; ')).join(' | ')}`);
    }
    // A word the catalog holds is itself, not a negation.
    const held = buildSearchIndex({ tables: src([table('sale', ['id', 'discount', 'item_count'])]) });
    assert.ok(held.search('discounts', { limit: 1 }).hits[0]!.why.includes("column discount matches 'discounts'"));
  });
});

describe('search: phrasal verbs, irregular verbs and instruction words', () => {
  const lexicon = loadLexicon();

  it('indexes instruction verbs inside identifiers: return_date, list_price, display_name', () => {
    assert.deepEqual(identifierTerms('return_date', lexicon).map((t) => t.surface), ['return', 'date']);
    assert.deepEqual(identifierTerms('list_price', lexicon).map((t) => t.surface), ['list', 'price']);
    assert.deepEqual(identifierTerms('display_name', lexicon).map((t) => t.surface), ['display', 'name']);
    // "like" is a function word in a question, a content word in a name.
    assert.deepEqual(identifierTerms('like_count', lexicon).map((t) => t.surface), ['like', 'count']);
    assert.deepEqual(parseQuery('fictional characters credited as artists, like Gorillaz', lexicon).terms.map((t) => t.surface).filter((w) => w === 'like'), []);
  });

  it('drops the conjunctions and greetings of a question, keeps them inside a name', () => {
    const surfaces = (q: string): string[] => parseQuery(q, lexicon).terms.map((t) => t.surface);
    assert.deepEqual(surfaces('hi, artists active since 1990, whether solo or not, thanks').filter((w) => !/^(year|date)$/.test(w)), ['artists', 'active', 'solo']);
    assert.deepEqual(identifierTerms('member_since', lexicon).map((t) => t.surface), ['member', 'since']);
    assert.ok(knownWord('whether', lexicon) && knownWord('although', lexicon));
  });

  it('reads a number with a magnitude or an ordinal ending as a number, not a word ("$1M", "5k", "1st")', () => {
    const surfaces = (q: string): string[] => parseQuery(q, lexicon).terms.map((t) => t.surface);
    assert.deepEqual(surfaces('stores with annual sales over $1M'), ['stores', 'annual', 'sales']);
    assert.deepEqual(surfaces('orders over 5k on the 1st track'), ['orders', 'track']);
    assert.ok(surfaces('3D films').includes('films'));
  });

  it('reads a period counted from now as a date filter, not as words of the catalog ("last month", "two weeks ago")', () => {
    const surfaces = (q: string): string[] => parseQuery(q, lexicon).terms.map((t) => t.surface);
    assert.deepEqual(surfaces('stock movements last month'), ['stock', 'movements', 'month']);
    assert.deepEqual(surfaces('revenue by category for the past three years'), ['revenue', 'category', 'years']);
    assert.deepEqual(surfaces('loans returned 6 weeks ago'), ['loans', 'returned', 'weeks']);
    assert.deepEqual(surfaces('members who joined in the next two quarters'), ['members', 'joined', 'quarters']);
    // Every cardinal written as a word counts, as do 'a few' and 'several'.
    assert.deepEqual(surfaces('album sales over the past forty years'), ['album', 'sales', 'years']);
    assert.deepEqual(surfaces('tickets closed a few weeks ago'), ['tickets', 'closed', 'weeks']);
    // The same words name things when no period follows them.
    assert.deepEqual(surfaces('customers by last name'), ['customers', 'last', 'name']);
    assert.deepEqual(surfaces('the last loan of each member'), ['last', 'loan', 'member']);
    assert.deepEqual(surfaces('three branches'), ['three', 'branches']);
    // A catalog whose columns start with the word no longer answers the period with them.
    const tables = [
      table('person', ['id', 'first_name', 'last_name']),
      table('vendor', ['id', 'name', 'last_receipt_cost', 'last_receipt_date']),
      table('stock_transaction', ['id', 'product_id', 'quantity', 'transaction_date'], [fk(['product_id'], 'product')]),
      table('product', ['id', 'name', 'list_price']),
    ];
    const index = buildSearchIndex({ tables: src(tables) });
    const hits = index.search('stock transactions last month', { limit: 4 }).hits;
    assert.equal(hits[0]?.qualifiedName, 'public.stock_transaction', reasons(hits));
    assert.ok(!hits.some((h) => h.why.some((w) => w.includes("'last'"))), reasons(hits));
  });

  it('drops an instruction verb that gives an instruction, keeps one inside a noun phrase', () => {
    const surfaces = (q: string): string[] => parseQuery(q, lexicon).terms.map((t) => t.surface);
    assert.ok(!surfaces('List the items of each branch').includes('list'));
    assert.ok(!surfaces('Could you show me the members').includes('show'));
    assert.ok(!surfaces('Return the titles, please').includes('return'));
    assert.ok(surfaces('items whose list price is above 20').includes('list'));
    assert.ok(surfaces('loans with no return date').includes('return'));
    // At the end of its phrase, an instruction verb has no object: a noun.
    assert.ok(surfaces('days between loan and return, by branch').includes('return'));
    assert.ok(surfaces('average time from checkout to return').includes('return') === false, 'after "to" it is a verb');
    assert.ok(!surfaces('Which members should we show?').includes('show'));
    // "get" before a verb form gives no instruction and names nothing either.
    assert.ok(!surfaces('Do longer books get borrowed more often?').includes('get'));
  });

  it('reads contractions as their function words, not as words of their own', () => {
    const surfaces = (q: string): string[] => parseQuery(q, lexicon).terms.map((t) => t.surface);
    assert.deepEqual(surfaces("payments where the amount doesn't match the rate"), ['payments', 'amount', 'match', 'rate']);
    assert.deepEqual(surfaces("films they're renting that we can't find and won't stock"), ['films', 'renting', 'stock']);
    assert.deepEqual(surfaces("I'd like the loans we've lost"), ['loans', 'lost']);
    // A name with an apostrophe is not a contraction.
    assert.ok(surfaces("loans of O'Donnell").length > 1);
  });

  it('reads irregular past forms as their verb', () => {
    assert.equal(stem('brought'), stem('bring'));
    assert.equal(stem('caught'), stem('catch'));
    assert.equal(lexicon.lemma('withdrew'), 'withdraw');
  });

  it('adds a phrasal verb as one more word, counted only where related catalog words match it', () => {
    const terms = parseQuery('how many books have not been brought back yet', lexicon).terms;
    const phrase = terms.find((t) => t.phrasal);
    assert.equal(phrase?.surface, 'bring_back');
    assert.ok(lexicon.concepts('bring_back').some((c) => lexicon.concepts('return').includes(c)), '"bring back" shares a sense with "return"');
    assert.equal(lexicon.phrase?.('looked', 'up'), 'look_up');
    assert.equal(lexicon.phrase?.('books', 'back'), null);
  });

  it('finds the loans for a question that says "brought back" and never "return"', () => {
    const index = buildSearchIndex({ tables: src(library()) });
    const res = index.search('which books were never brought back', { limit: 5 });
    assert.equal(names(res.hits)[0], 'loan', JSON.stringify(res.hits.map((h) => [h.qualifiedName, h.why])));
    assert.ok(res.hits[0]!.why.some((w) => /return/.test(w)), JSON.stringify(res.hits[0]!.why));
  });
});

describe('search: abbreviations and names keep their dictionary senses to themselves', () => {
  it('reads no word of a name as a schema abbreviation', () => {
    const lexicon = loadLexicon();
    const terms = (q: string): string[] => parseQuery(q, lexicon, lexicon).terms.map((t) => t.term);
    assert.ok(!terms('Someone merged two Cat Stevens entries').includes(stem('category')), terms('Someone merged two Cat Stevens entries').join(' '));
    assert.ok(!terms('albums by Max Richter').includes(stem('maximum')), terms('albums by Max Richter').join(' '));
    // The abbreviation itself still reads as the word it stands for.
    assert.ok(terms('sales by product cat').includes(stem('category')), terms('sales by product cat').join(' '));
    // An acronym's plural is the acronym's: "open POs" are purchase orders, and "LPs" keep their plural for a kind of rows.
    assert.ok(['purchase', 'order'].every((w) => terms('open POs for Morgan Bike Accessories').includes(stem(w))), terms('open POs for Morgan Bike Accessories').join(' '));
    const lps = parseQuery('vinyl LPs from 1985', lexicon, lexicon).terms.find((t) => t.term === 'lp');
    assert.equal(lps?.surface, 'lps');
  });

  const lexicon = loadLexicon();

  it('a two-letter abbreviation has no hypernym relatives: "California" is not related to the id of a key column', () => {
    const shared = lexicon.concepts('california').filter((c) => lexicon.concepts('id').includes(c));
    assert.deepEqual(shared, []);
    assert.ok(lexicon.concepts('california').some((c) => lexicon.concepts('texas').includes(c)), 'long names keep their relatives');
  });

  it('a capitalised word inside a sentence is part of a name: it reaches no table through a related word', () => {
    const tables = [
      table('genre', ['id', 'name']),
      table('album', ['id', 'title', 'label_id', 'catalog_number'], [fk(['label_id'], 'label')]),
      table('label', ['id', 'name']),
    ];
    const index = buildSearchIndex({ tables: src(tables) });
    const named = index.search('catalog number of Kind of Blue', { limit: 5 });
    assert.ok(!names(named.hits).slice(0, 2).includes('genre'), JSON.stringify(named.hits.map((h) => [h.qualifiedName, h.why])));
    // Written as an ordinary word, "kind" still reaches its relative `genre`.
    const plain = index.search('which kind of music', { limit: 5 });
    assert.equal(names(plain.hits)[0], 'genre', JSON.stringify(plain.hits.map((h) => [h.qualifiedName, h.why])));
  });

  it('a gerund the thesaurus knows takes none of its verb\'s dictionary senses: "history" is no relative of `recording`', () => {
    assert.deepEqual(lexicon.concepts('recording').filter((c) => lexicon.concepts('history').includes(c)), []);
    assert.ok(lexicon.concepts('record').some((c) => lexicon.concepts('history').includes(c)), 'the verb\'s noun keeps the sense');
    const tables = [
      table('artist', ['id', 'name']),
      table('recording', ['id', 'name', 'artist_id'], [fk(['artist_id'], 'artist')]),
      table('edit', ['id', 'editor', 'status', 'open_time']),
      table('edit_artist', ['edit', 'artist'], [fk(['edit'], 'edit'), fk(['artist'], 'artist')]),
      table('edit_recording', ['edit', 'recording'], [fk(['edit'], 'edit'), fk(['recording'], 'recording')]),
    ];
    const hits = buildSearchIndex({ tables: src(tables) }).search('edit history Talking Heads', { limit: 5 }).hits;
    assert.ok(names(hits).indexOf('edit_artist') >= 0 && names(hits).indexOf('edit_artist') < names(hits).indexOf('edit_recording'), JSON.stringify(hits.map((h) => [h.qualifiedName, h.why])));
  });
});

/** One test per question: the catalog's first hit is the expected table. */
function reachesFirst(catalog: () => TableInfo[], cases: ReadonlyArray<readonly [string, string]>): void {
  for (const [question, expected] of cases) {
    it(`reaches ${expected} for "${question}"`, () => {
      const hits = buildSearchIndex({ tables: src(catalog()) }).search(question, { limit: 5 }).hits;
      assert.equal(names(hits)[0], expected, reasons(hits));
    });
  }
}

describe('search: everyday words for events, performers, editions and venues', () => {
  /** A concert archive in the words of its designers: events at places, performers credited on releases. */
  const archive = (): TableInfo[] => [
    table('performer', ['id', 'name', 'formed_on']),
    table('event', ['id', 'name', 'starts_on', 'place_id'], [fk(['place_id'], 'place')]),
    table('place', ['id', 'name', 'city']),
    table('release', ['id', 'title', 'released_on']),
    table('invoice', ['id', 'total', 'issued_on']),
  ];

  reachesFirst(archive, [
    ['gigs in 2019', 'event'],
    ['festivals with the most acts', 'event'],
    ['choirs formed before 1900', 'performer'],
    ['how many reissues and pressings are there', 'release'],
    ['the biggest venues', 'place'],
  ]);
});

describe('search: everyday words for shops, stock and renters', () => {
  /** A retailer in its designers' words: stores, the inventory they keep, and the customers who rent from them. */
  const retail = (): TableInfo[] => [
    table('store', ['id', 'name', 'opened_on']),
    table('inventory', ['id', 'store_id', 'quantity', 'counted_on'], [fk(['store_id'], 'store')]),
    table('customer', ['id', 'name', 'joined_on']),
    table('rental', ['id', 'customer_id', 'rented_on'], [fk(['customer_id'], 'customer')]),
    table('invoice', ['id', 'total', 'issued_on']),
  ];

  reachesFirst(retail, [
    ['outlets opened since 2020', 'store'],
    ['what is in the warehouse', 'inventory'],
    ['tenants who joined this year', 'customer'],
  ]);
});

describe('search: quoted text', () => {
  // A music catalog where "reissue" is a thesaurus synonym of `release`.
  const tables = (): TableInfo[] => [
    table('label', ['id', 'name', 'label_code', 'type_id', 'area_id'], [fk(['type_id'], 'label_type'), fk(['area_id'], 'area')]),
    table('label_type', ['id', 'name', 'description']),
    table('area', ['id', 'name']),
    table('release', ['id', 'name', 'barcode', 'status']),
    table('release_label', ['release_id', 'label_id', 'catalog_number'], [fk(['release_id'], 'release'), fk(['label_id'], 'label')]),
  ];

  it('finds the words of a quoted phrase as written, not through their synonyms', () => {
    const q = "Which labels have the label type 'reissue production'?";
    const hits = buildSearchIndex({ tables: src(tables()) }).search(q, { limit: 5 }).hits;
    const order = names(hits);
    assert.equal(order[0], 'label_type', reasons(hits));
    assert.ok(order.includes('label') && (!order.includes('release') || order.indexOf('release') > order.indexOf('label')), reasons(hits));
    assert.ok(!hits.some((h) => h.why.some((w) => w.includes('reissue→'))), reasons(hits));
    // Unquoted, the same word is vocabulary: a reissue is a release.
    const plain = buildSearchIndex({ tables: src(tables()) }).search('Which labels put out the reissue?', { limit: 5 }).hits;
    assert.ok(plain.some((h) => h.qualifiedName === 'public.release' && h.why.some((w) => w.includes('reissue→release'))), reasons(plain));
  });
});

describe('search: hyphenated words', () => {
  const surfaces = (q: string): string[] => parseQuery(q, loadLexicon()).terms.map((t) => t.surface);

  it('reads a lower-case hyphenated word the dictionary knows written solid as that word', () => {
    assert.deepEqual(surfaces('what e-mail address do we have'), ['email', 'address']);
    assert.ok(surfaces('the check-out date').includes('checkout'));
    // Pieces that make no word together stay pieces; a capitalised name or value stays as written.
    assert.deepEqual(surfaces('T-shirt sizes').slice(-2), ['shirt', 'sizes']);
    assert.ok(surfaces('Demi-God heroes').includes('demi'));
  });

  it('joins a hyphenated word that the catalog writes solid, in the singular too', () => {
    const tables = [table('editor', ['id', 'name']), table('autoeditor_election', ['id', 'candidate', 'proposer', 'status'], [fk(['candidate'], 'editor')])];
    const res = buildSearchIndex({ tables: src(tables) }).search('who were elected auto-editors', { limit: 2 });
    assert.ok(res.terms.includes('autoeditor'), res.terms.join(' '));
    assert.ok(whyOf(res.hits, 'autoeditor_election').includes("name matches 'autoeditors'"), reasons(res.hits));
  });

  it('ranks the e-mail table, not the postal one, for an e-mail address', () => {
    const tables = [
      table('person', ['id', 'first_name', 'last_name']),
      table('address', ['id', 'person_id', 'line1', 'city', 'postal_code'], [fk(['person_id'], 'person')]),
      table('emailaddress', ['id', 'person_id', 'emailaddress'], [fk(['person_id'], 'person')]),
    ];
    const hits = buildSearchIndex({ tables: src(tables) }).search('what e-mail address do we have for Margaret Smith', { limit: 3 }).hits;
    const order = names(hits);
    assert.ok(order.indexOf('emailaddress') >= 0 && (order.indexOf('address') < 0 || order.indexOf('emailaddress') < order.indexOf('address')), reasons(hits));
  });
});

describe('search: titles of wholes', () => {
  const wholes = (q: string): readonly string[] => parseQuery(q, loadLexicon()).wholes;

  it('marks a title written after "on", "of", "from" or "off" as what something is part of', () => {
    assert.deepEqual(wholes('every song on Thriller'), ['Thriller']);
    // A possessive name may stand between.
    assert.deepEqual(wholes("the tracks on Massive Attack's Mezzanine"), ['Mezzanine']);
    assert.deepEqual(wholes("the 2011 remastered CD of Joni Mitchell's Blue"), ['Blue']);
    // A title named for itself is none.
    assert.deepEqual(wholes("who wrote the song 'Yesterday'"), []);
  });
});

describe('search: names inside a quoted title', () => {
  it('reads no place or person in the words of a quoted title, and keeps the title whole', () => {
    const parsed = parseQuery("Who arranged the strings on Dusty Springfield's 'Dusty in Memphis'?", loadLexicon());
    assert.deepEqual(parsed.mentions.map((m) => `${m.kind}:${m.text}`), ['person:Dusty Springfield']);
    assert.deepEqual(parsed.titles, ['Dusty in Memphis']);
    // Outside quotes the same words still name a place.
    const plain = parseQuery('Which studios in Memphis did Dusty Springfield record at?', loadLexicon());
    assert.ok(plain.mentions.some((m) => m.kind === 'place' && m.text === 'Memphis'), JSON.stringify(plain.mentions));
  });

  it('reads the title a possessive name owns whole, quoted or not, with no place inside it', () => {
    const lexicon = loadLexicon();
    const parsed = parseQuery("who sang backup on Dusty Springfield's Dusty in Memphis?", lexicon, lexicon);
    assert.deepEqual(parsed.mentions.map((m) => `${m.kind}:${m.text}`), ['person:Dusty Springfield']);
    assert.deepEqual(parsed.titles, ['Dusty in Memphis']);
    assert.deepEqual(parseQuery("Stevie Wonder's Songs in the Key of Life tracks", lexicon, lexicon).titles, ['Songs in the Key of Life']);
    // A place after a lower-case noun is no part of a title: "Radiohead's gigs in London".
    const gigs = parseQuery("Radiohead's gigs in London", lexicon, lexicon);
    assert.ok(gigs.mentions.some((m) => m.kind === 'place' && m.text === 'London'), JSON.stringify(gigs.mentions));
    assert.deepEqual(gigs.titles, []);
    // The title ends with its sentence; an initial or a short abbreviation inside it does not end it.
    const two = parseQuery("Who produced Aretha Franklin's I Never Loved a Man the Way I Love You. Who's credited?", lexicon, lexicon);
    assert.deepEqual(two.titles, ['I Never Loved a Man the Way I Love You']);
    assert.deepEqual(parseQuery("the drummer on J. J. Cale's Naturally in St. Louis sessions", lexicon, lexicon).titles.filter((t) => t.startsWith('Naturally')), ['Naturally in St. Louis']);
  });
});
