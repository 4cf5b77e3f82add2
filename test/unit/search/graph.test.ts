import assert from 'node:assert/strict';
import type { TableInfo } from '../../../src/core/catalog/model';
import { buildSearchIndex, findMentions, isThesaurusConcept, loadLexicon, openPersistedIndex, parseQuery, serializeIndex, type SearchTableInput } from '../../../src/core/search/index';
import { RANKING } from '../../../src/core/search/rank';
import { catalogBuilders, fk, keyed, names, reasons, src, whyOf, withRanking } from './builders';

const { table } = catalogBuilders((name) => (/id$|_id$|position|count|year|order|pending|qty/.test(name) ? 'integer' : /updated|date/.test(name) ? 'timestamp' : 'text'));

/** Relationship tables in the style of a music catalog: each junction row points at a shared `link` with a type. */
function junction(a: string, b: string): TableInfo {
  return table(`l_${a}_${b}`, ['id', 'link', 'entity0', 'entity1', 'edits_pending', 'last_updated', 'link_order'], [fk(['link'], 'link'), fk(['entity0'], a), fk(['entity1'], b)]);
}

describe('search: completing the join set', () => {
  const music = (): SearchTableInput[] =>
    src([
      table('artist', ['id', 'name', 'sort_name', 'begin_year']),
      table('recording', ['id', 'name', 'length', 'comment']),
      table('work', ['id', 'name', 'iswc']),
      table('label', ['id', 'name', 'label_code']),
      table('link_type', ['id', 'name', 'description', 'link_phrase']),
      table('link', ['id', 'link_type', 'begin_date', 'end_date', 'ended'], [fk(['link_type'], 'link_type')]),
      junction('artist', 'recording'),
      junction('artist', 'work'),
      junction('recording', 'work'),
      junction('label', 'recording'),
    ]);

  it('with no word matched, does not take the record that types the relationships for the centre of the catalog', () => {
    const index = buildSearchIndex({ tables: music() });
    const first = (on: number): string => names(withRanking('centralThings', on, () => index.search('zzqx', { limit: 3 })).hits)[0]!;
    // Before: `link`, which every relationship row points at, had the most links.
    assert.equal(first(0), 'link');
    // After: those rows do not count for it; the most joined table of things comes first.
    assert.equal(first(1), 'recording');
  });

  it('does not take the record that types a relationship for one of the two things it bridges', () => {
    const index = buildSearchIndex({ tables: music() });
    const run = (on: number): ReturnType<typeof index.search> => withRanking('bridgeRecords', on, () => index.search('the link of each label', { limit: 10 }));
    const viaLink = (r: ReturnType<typeof index.search>): string[] => r.hits.flatMap((h) => h.why.filter((w) => /^bridge between (link and \w+|\w+ and link)$/.test(w)));
    // Before: every junction of `label` read as a bridge between `label` and `link`, which types its rows.
    assert.ok(viaLink(run(0)).length > 0, reasons(run(0).hits));
    assert.deepEqual(viaLink(run(1)), [], reasons(run(1).hits));
  });

  it('treats a table of two ends plus bookkeeping columns as a junction, and brings the relationship record and its type with it', () => {
    const res = buildSearchIndex({ tables: music() }).search('which artists performed on which recordings', { limit: 8 });
    const top = names(res.hits);
    const j = top.indexOf('l_artist_recording');
    assert.ok(j >= 0 && j < 4, top.join(', '));
    assert.ok(top.includes('link') && top.includes('link_type'), top.join(', '));
    assert.ok(top.indexOf('link') > j, top.join(', '));
    assert.ok(res.hits.find((h) => h.qualifiedName === 'public.link')!.why.some((w) => w.includes('qualifies l_artist_recording')));
  });

  it('does not take an entity at the far end of a junction for its qualifier', () => {
    const res = buildSearchIndex({ tables: music() }).search('artists and their works', { limit: 10 });
    const work = res.hits.find((h) => h.qualifiedName === 'public.recording');
    assert.ok(work === undefined || !work.why.some((w) => w.startsWith('qualifies')), work?.why.join('; '));
  });

  it('completes the join to a table the question reaches only weakly, through a column', () => {
    const { table: t } = catalogBuilders((name) => (/id$|_id$|days/.test(name) ? 'integer' : /date|_at$/.test(name) ? 'timestamp' : /fee|amount|price/.test(name) ? 'numeric' : 'text'));
    const index = buildSearchIndex({
      tables: src([
        t('member', ['member_id', 'first_name', 'last_name', 'email', 'phone', 'joined_date']),
        t('title', ['title_id', 'name', 'author', 'isbn', 'loan_days', 'late_fee_per_day', 'replacement_price']),
        t('copy', ['copy_id', 'title_id', 'branch_id', 'shelf_code'], [fk(['title_id'], 'title'), fk(['branch_id'], 'branch')]),
        t('branch', ['branch_id', 'name', 'street', 'city']),
        t('loan', ['loan_id', 'copy_id', 'member_id', 'loaned_at', 'returned_at'], [fk(['copy_id'], 'copy'), fk(['member_id'], 'member')]),
        t('fine', ['fine_id', 'member_id', 'loan_id', 'amount', 'paid_date'], [fk(['member_id'], 'member'), fk(['loan_id'], 'loan')]),
        t('author_note', ['note_id', 'name', 'first_name', 'last_name', 'bio']),
      ]),
    });
    // `title` scores about a quarter of `fine` (only its loan_days column matches "loans"): the copy between them is
    // still part of the join.
    const res = index.search('A member named Jane Doe just phoned about her fines: pull up her recent fines and which loans they were for', { limit: 6 });
    const top = names(res.hits);
    const unrelated = top.indexOf('author_note');
    assert.ok(top.indexOf('copy') >= 0 && (unrelated < 0 || top.indexOf('copy') < unrelated), reasons(res.hits));
    assert.ok(res.hits.find((h) => h.qualifiedName === 'public.copy')!.why.some((w) => /^joins (fine|member|loan) and title$/.test(w)), reasons(res.hits));
  });

  it('gives the one table between two found ones a share that leans a little on the stronger of them', () => {
    const music = src([
      table('release', ['id', 'name', 'barcode', 'status'], [fk(['status'], 'release_status')]),
      table('release_status', ['id', 'name']),
      table('medium', ['id', 'release', 'position', 'format'], [fk(['release'], 'release')]),
      table('track', ['id', 'medium', 'position', 'name', 'length'], [fk(['medium'], 'medium')]),
      table('editor', ['id', 'name', 'email']),
    ]);
    const index = buildSearchIndex({ tables: music });
    const q = 'average track length of each release';
    const share = (): number => {
      const hits = index.search(q, { limit: 5 }).hits;
      const mid = hits.find((h) => h.qualifiedName === 'public.medium');
      assert.ok(mid !== undefined && mid.why.some((w) => /^joins (track and release|release and track)$/.test(w)), reasons(hits));
      const ends = hits.filter((h) => h.qualifiedName === 'public.track' || h.qualifiedName === 'public.release').map((h) => h.score);
      assert.equal(ends.length, 2, reasons(hits));
      return mid.score / Math.min(...ends);
    };
    const lowerEnd = withRanking('pathMean', 0, share);
    const leaning = share();
    // Off, the share follows the weaker end alone (0.85 of it); on, the stronger end lifts it, never past the stronger.
    assert.ok(Math.abs(lowerEnd - RANKING.pathFill) < 0.02, `${lowerEnd}`);
    assert.ok(leaning > lowerEnd, `${leaning} vs ${lowerEnd}`);
  });

  it('follows a key of several columns through the junction it points at, and keeps that way when persisted', () => {
    // AdventureWorks' shape: an order line points at (offer, product) pairs, not at the product itself.
    const { table: t } = catalogBuilders((name) => (/id$/.test(name) ? 'integer' : 'text'));
    const tables = src([
      t('creditcard', ['creditcardid', 'cardtype', 'cardnumber', 'expyear']),
      t('customer', ['customerid', 'accountnumber']),
      t('salesorderheader', ['salesorderid', 'orderdate', 'customerid', 'creditcardid', 'totaldue'], [fk(['customerid'], 'customer', ['customerid']), fk(['creditcardid'], 'creditcard', ['creditcardid'])]),
      t('specialoffer', ['specialofferid', 'description', 'discountpct', 'type']),
      t('product', ['productid', 'name', 'color', 'listprice']),
      t('specialofferproduct', ['specialofferid', 'productid'], [fk(['specialofferid'], 'specialoffer', ['specialofferid']), fk(['productid'], 'product', ['productid'])]),
      t('salesorderdetail', ['salesorderid', 'salesorderdetailid', 'orderqty', 'specialofferid', 'productid', 'unitprice'], [fk(['salesorderid'], 'salesorderheader', ['salesorderid']), fk(['specialofferid', 'productid'], 'specialofferproduct', ['specialofferid', 'productid'])]),
      t('productreview', ['productreviewid', 'productid', 'rating', 'comments'], [fk(['productid'], 'product', ['productid'])]),
    ]);
    const built = buildSearchIndex({ tables });
    const q = 'which products did customers buy with a Vista card';
    const res = built.search(q, { limit: 6, withJoinTree: true });
    const line = res.hits.find((h) => h.qualifiedName === 'public.salesorderdetail');
    assert.ok(line?.why.includes('bridge between salesorderheader and product'), reasons(res.hits));
    const implied = res.joinTree?.find((e) => e.from === 'public.salesorderdetail' && e.to === 'public.product');
    assert.deepEqual(implied && { from: implied.fromColumns, to: implied.toColumns }, { from: ['productid'], to: ['productid'] }, JSON.stringify(res.joinTree));
    assert.equal(implied!.constraint, 'specialofferid_productid_specialofferproduct_fkey (through productid_product_fkey)');
    // A persisted frame keeps the implied way: the same answer, join tree included, with no table read up front.
    const bytes = serializeIndex(built, { generation: 7, tags: [] });
    const opened = openPersistedIndex(bytes, { generation: 7, tables: tables.map((x) => ({ source: { name: x.sourceName }, qualifiedName: `${x.table.schema}.${x.table.name}` })), isBlocked: () => false, table: (d) => tables[d]!.table });
    assert.ok(opened !== null);
    assert.deepEqual(opened.search(q, { limit: 6, withJoinTree: true }), res);
  });

  it('brings the header of a line table, even when both names are run together', () => {
    const index = buildSearchIndex({
      tables: src([
        table('product', ['id', 'name', 'color', 'list_price']),
        table('customer', ['id', 'account_number']),
        table('salesorderheader', ['id', 'order_date', 'ship_date', 'customer_id', 'total_due'], [fk(['customer_id'], 'customer')]),
        table('salesorderdetail', ['id', 'salesorder_id', 'product_id', 'order_qty', 'unit_price', 'line_total'], [fk(['salesorder_id'], 'salesorderheader'), fk(['product_id'], 'product')]),
        table('vendor', ['id', 'name', 'credit_rating']),
        table('productvendor', ['product_id', 'vendor_id', 'standard_price'], [fk(['product_id'], 'product'), fk(['vendor_id'], 'vendor')]),
      ]),
    });
    const res = index.search('line total per product', { limit: 4 });
    const top = names(res.hits);
    assert.ok(top.includes('salesorderdetail') && top.includes('salesorderheader'), top.join(', '));
    assert.ok(res.hits.find((h) => h.qualifiedName === 'public.salesorderheader')!.why.some((w) => w.includes('belongs to')));
  });

  describe('collective wholes', () => {
    // Each release is one edition of a release group; other tables compete for the question's words so that the
    // group is not reached by a word of its own.
    const tables = (groupName: string): TableInfo[] => [
      table(groupName, ['id', 'name', 'comment', 'artist_credit'], [fk(['artist_credit'], 'artist_credit')]),
      table('artist_credit', ['id', 'name', 'artist_count']),
      table('release', ['id', 'name', 'barcode', 'release_group', 'status'], [fk(['release_group'], groupName), fk(['status'], 'release_status')]),
      table('release_status', ['id', 'name', 'description']),
      table('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
      table('label', ['id', 'name', 'label_code']),
      table('medium', ['id', 'release', 'position', 'name'], [fk(['release'], 'release')]),
      table('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release'), fk(['tag'], 'tag')]),
      table('tag', ['id', 'name', 'ref_count']),
    ];
    const search = (groupName: string) => buildSearchIndex({ tables: src(tables(groupName)) }).search('releases with the most barcodes', { limit: 4 });

    it('brings the group a table of members points at, named like the members and a collective word', () => {
      const res = search('release_group');
      const top = names(res.hits);
      assert.equal(top[0], 'release', top.join(', '));
      assert.ok(top.includes('release_group'), top.join(', '));
      assert.ok(res.hits.find((h) => h.qualifiedName === 'public.release_group')!.why.some((w) => w.includes('that release belongs to')));
    });

    it('does not take a table named with another last word for the whole', () => {
      const hit = search('release_extra').hits.find((h) => h.qualifiedName === 'public.release_extra');
      assert.ok(hit === undefined || !hit.why.some((w) => w.includes('belongs to')), hit?.why.join(' | '));
    });
  });

  it('counts a run-together name the question names in full as covered', () => {
    const index = buildSearchIndex({
      tables: src([
        table('product', ['id', 'name', 'color', 'subcategory_id'], [fk(['subcategory_id'], 'productsubcategory')]),
        table('productsubcategory', ['id', 'name', 'category_id'], [fk(['category_id'], 'productcategory')]),
        table('productcategory', ['id', 'name']),
        table('productreview', ['id', 'product_id', 'rating', 'comments'], [fk(['product_id'], 'product')]),
        table('category_budget', ['id', 'category', 'amount']),
      ]),
    });
    const hits = index.search('product categories', { limit: 5 }).hits;
    const top = names(hits);
    assert.equal(top[0], 'productcategory', top.join(', '));
    // Well ahead of the tables that share only one of its words.
    assert.ok(hits[1]!.score < 0.75, hits.map((h) => `${h.qualifiedName} ${h.score.toFixed(3)}`).join(', '));
  });

  describe('subset tables', () => {
    const withKey = (t: TableInfo, columns: string[]): TableInfo => ({ ...t, primaryKey: { name: `${t.name}_pkey`, columns } });
    // Countries are the areas listed in `country_area`; releases are issued in countries. Other tables compete for
    // the same words so that `area` is not reached by any word of the question.
    const tables = (): TableInfo[] => [
      table('area', ['id', 'name', 'type', 'begin_date_year']),
      withKey(table('country_area', ['area'], [fk(['area'], 'area')]), ['area']),
      table('release', ['id', 'name', 'barcode', 'status'], [fk(['status'], 'release_status')]),
      table('release_status', ['id', 'name', 'description']),
      table('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release'), fk(['country'], 'country_area', ['area'])]),
      table('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
      table('label', ['id', 'name', 'label_code', 'area'], [fk(['area'], 'area')]),
      table('medium', ['id', 'release', 'position', 'name'], [fk(['release'], 'release')]),
      table('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release'), fk(['tag'], 'tag')]),
      table('tag', ['id', 'name', 'ref_count']),
      table('editor', ['id', 'name', 'email', 'area'], [fk(['area'], 'area')]),
    ];

    it('brings the table that names the rows of a subset table the answer points at', () => {
      const res = buildSearchIndex({ tables: src(tables()) }).search('countries with the most official releases', { limit: 6 });
      const top = names(res.hits);
      assert.ok(top.includes('release_country') && top.includes('area'), top.join(', '));
      assert.ok(res.hits.find((h) => h.qualifiedName === 'public.area')!.why.some((w) => w.startsWith('names the rows of')), top.join(', '));
    });

    it('does not take a table with text of its own, or one whose target has no name, for a subset', () => {
      const wordy = tables().map((t) => (t.name === 'country_area' ? withKey(table('country_area', ['area', 'note'], [fk(['area'], 'area')]), ['area']) : t));
      const hit = buildSearchIndex({ tables: src(wordy) }).search('countries with the most official releases', { limit: 10 }).hits.find((h) => h.qualifiedName === 'public.area');
      assert.ok(hit === undefined || !hit.why.some((w) => w.startsWith('names the rows of')), hit?.why.join(' | '));
      const nameless = tables().map((t) => (t.name === 'area' ? table('area', ['id', 'type', 'begin_date_year']) : t));
      const hit2 = buildSearchIndex({ tables: src(nameless) }).search('countries with the most official releases', { limit: 10 }).hits.find((h) => h.qualifiedName === 'public.area');
      assert.ok(hit2 === undefined || !hit2.why.some((w) => w.startsWith('names the rows of')), hit2?.why.join(' | '));
    });
  });
});

describe('search: subtypes of one table', () => {
  // People, vendors and stores are business entities: each row's key is the key of a row of `businessentity`, which
  // has no name of its own. The people who work for a vendor are its contacts.
  const tables = (): TableInfo[] => [
    keyed(table('businessentity', ['businessentityid', 'rowguid', 'modifieddate']), ['businessentityid']),
    keyed(table('person', ['businessentityid', 'persontype', 'firstname', 'lastname'], [fk(['businessentityid'], 'businessentity', ['businessentityid'])]), ['businessentityid']),
    keyed(table('vendor', ['businessentityid', 'accountnumber', 'name', 'creditrating'], [fk(['businessentityid'], 'businessentity', ['businessentityid'])]), ['businessentityid']),
    keyed(table('store', ['businessentityid', 'name', 'demographics'], [fk(['businessentityid'], 'businessentity', ['businessentityid'])]), ['businessentityid']),
    keyed(table('contacttype', ['contacttypeid', 'name']), ['contacttypeid']),
    keyed(
      table('businessentitycontact', ['businessentityid', 'personid', 'contacttypeid', 'modifieddate'], [
        fk(['businessentityid'], 'businessentity', ['businessentityid']),
        fk(['personid'], 'person', ['businessentityid']),
        fk(['contacttypeid'], 'contacttype', ['contacttypeid']),
      ]),
      ['businessentityid', 'personid', 'contacttypeid'],
    ),
    keyed(table('purchaseorderheader', ['purchaseorderid', 'vendorid', 'orderdate', 'subtotal'], [fk(['vendorid'], 'vendor', ['businessentityid'])]), ['purchaseorderid']),
  ];

  it('joins no two subtypes of a table with no name of its own through it', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const run = (on: number): ReturnType<typeof index.search> => withRanking('subtypeSiblings', on, () => index.search('people at each vendor and their purchase orders', { limit: 8 }));
    // Before: person → businessentity ← vendor, as if a vendor were related to the people it is not.
    const between = (r: ReturnType<typeof index.search>, t: string): boolean => whyOf(r.hits, t).some((w) => /^joins \w+ and \w+$/.test(w) && w.includes('person'));
    assert.ok(between(run(0), 'businessentity') && !between(run(0), 'businessentitycontact'), reasons(run(0).hits));
    // After: the way between them passes the table of a vendor's contacts.
    assert.ok(between(run(1), 'businessentitycontact'), reasons(run(1).hits));
    // The bare table of keys is no table between them: its subtypes and the contacts join on the same key directly.
    const path = (w: string): boolean => /^joins \w+ and \w+$/.test(w);
    assert.ok(!whyOf(run(1).hits, 'businessentity').some(path), reasons(run(1).hits));
    // Nor is it what a subtype relates.
    const stores = withRanking('subtypeSiblings', 1, () => index.search('stores and their sales people', { limit: 8 }).hits);
    assert.ok(!whyOf(stores, 'businessentity').some((w) => w.startsWith('what') || path(w)), reasons(stores));
  });

  it('tells subtypes and tables of names from a persisted frame without reading the tables', () => {
    // A catalog opened from disk reads a table's body when first asked for it; at 10,000 tables the first question
    // read hundreds of bodies only to learn which keys are primary keys and which tables have a name column.
    const input = src([...tables(), keyed(table('shift', ['shiftid', 'name', 'starttime']), ['shiftid'])]);
    const built = buildSearchIndex({ tables: input });
    const bytes = serializeIndex(built, { generation: 3, tags: [] });
    const reads = new Set<string>();
    const opened = openPersistedIndex(bytes, {
      generation: 3,
      tables: input.map((x) => ({ source: { name: x.sourceName }, qualifiedName: `${x.table.schema}.${x.table.name}` })),
      isBlocked: () => false,
      table: (d) => {
        reads.add(input[d]!.table.name);
        return input[d]!.table;
      },
    });
    assert.ok(opened !== null);
    const q = 'people at each vendor and their purchase orders';
    const res = opened.search(q, { limit: 3 });
    assert.deepEqual(res, built.search(q, { limit: 3 }));
    // The join from people to vendors passes businessentity, whose subtypes store and businessentitycontact are not
    // in the answer: the frame says which keys make subtypes, so neither is read.
    assert.ok(!reads.has('store') && !reads.has('businessentitycontact'), [...reads].join(', '));
    // The same answers for the rest of the catalog, read or not.
    for (const other of ['stores and their sales people', 'the "Road Bike" vendor', 'contacts of stores by contact type']) assert.deepEqual(opened.search(other, { limit: 8 }), built.search(other, { limit: 8 }), other);
  });
});

describe('search: a table a join passes on its key alone', () => {
  // A salesperson is an employee, an employee is a person: each key is the key of the row above it.
  const tables = (): TableInfo[] => [
    keyed(table('person', ['businessentityid', 'firstname', 'lastname', 'persontype']), ['businessentityid']),
    keyed(table('employee', ['businessentityid', 'jobtitle', 'birthdate', 'hiredate'], [fk(['businessentityid'], 'person', ['businessentityid'])]), ['businessentityid']),
    keyed(
      table('salesperson', ['businessentityid', 'salesquota', 'bonus', 'territoryid'], [fk(['businessentityid'], 'employee', ['businessentityid']), fk(['territoryid'], 'salesterritory', ['territoryid'])]),
      ['businessentityid'],
    ),
    keyed(table('salesterritory', ['territoryid', 'name', 'countryregioncode']), ['territoryid']),
    keyed(table('shift', ['shiftid', 'name', 'starttime']), ['shiftid']),
  ];

  it('does not raise it between the tables either side, which join on that key directly', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const run = (on: number): ReturnType<typeof index.search> => withRanking('keyThrough', on, () => index.search('first and last names of the salespeople with the biggest bonus', { limit: 5 }));
    const between = (r: ReturnType<typeof index.search>): boolean => whyOf(r.hits, 'employee').some((w) => /^joins (salesperson and person|person and salesperson)$/.test(w));
    assert.ok(between(run(0)), reasons(run(0).hits));
    assert.ok(!between(run(1)), reasons(run(1).hits));
    assert.deepEqual(names(run(1).hits).slice(0, 2).sort(), ['person', 'salesperson'], reasons(run(1).hits));
    // Asked for by its own words, it is there as before.
    const hired = withRanking('keyThrough', 1, () => index.search('salespeople names and hire dates', { limit: 5 }).hits);
    assert.ok(names(hired).includes('employee'), reasons(hired));
  });
});

describe('search: the ends of a junction the words reached', () => {
  // A rental chain: copies of films on the shelves of stores, which rentals point at; actors in films.
  const tables = (): TableInfo[] => [
    table('film', ['film_id', 'title', 'description', 'release_year', 'length']),
    table('actor', ['actor_id', 'first_name', 'last_name']),
    table('film_actor', ['actor_id', 'film_id', 'last_update'], [fk(['actor_id'], 'actor', ['actor_id']), fk(['film_id'], 'film', ['film_id'])]),
    table('address', ['address_id', 'address', 'district', 'city_id', 'postal_code', 'phone']),
    table('store', ['store_id', 'manager_staff_id', 'address_id'], [fk(['address_id'], 'address', ['address_id'])]),
    table('inventory', ['inventory_id', 'film_id', 'store_id', 'last_update'], [fk(['film_id'], 'film', ['film_id']), fk(['store_id'], 'store', ['store_id'])]),
    table('customer', ['customer_id', 'first_name', 'last_name', 'email', 'address_id'], [fk(['address_id'], 'address', ['address_id'])]),
    table('rental', ['rental_id', 'rental_date', 'inventory_id', 'customer_id', 'return_date'], [fk(['inventory_id'], 'inventory', ['inventory_id']), fk(['customer_id'], 'customer', ['customer_id'])]),
  ];

  it('brings what a junction relates, but of a junction other tables point at only the people and places it names', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const run = (q: string, on: number): ReturnType<typeof index.search> => withRanking('thingEnds', on, () => index.search(q, { limit: 6 }));
    const relates = (r: ReturnType<typeof index.search>, t: string, j: string): boolean => whyOf(r.hits, t).includes(`what ${j} relates`);
    // A copy is a thing of its own that rentals point at: "inventory" asks for no store.
    const q = 'which titles have the most inventory';
    assert.ok(relates(run(q, 0), 'store', 'inventory'), reasons(run(q, 0).hits));
    assert.ok(!relates(run(q, 1), 'store', 'inventory'), reasons(run(q, 1).hits));
    // A junction nothing points at still brings both its ends.
    const cast = run('film_actor rows per film', 1);
    assert.ok(relates(cast, 'actor', 'film_actor'), reasons(cast.hits));
  });

  it('brings the people a junction other tables point at names only when the question is about people', () => {
    const fees = [...tables(), table('late_fee', ['late_fee_id', 'rental_id', 'amount', 'charged_at'], [fk(['rental_id'], 'rental', ['rental_id'])])];
    const index = buildSearchIndex({ tables: src(fees) });
    const run = (on: number): ReturnType<typeof index.search> => withRanking('thingEndsAsked', on, () => index.search('rentals per month', { limit: 6 }));
    assert.ok(whyOf(run(0).hits, 'customer').includes('what rental relates'), reasons(run(0).hits));
    assert.ok(!whyOf(run(1).hits, 'customer').includes('what rental relates'), reasons(run(1).hits));
  });
});

describe('search: a question that speaks of someone as he or she', () => {
  it('is about people, unless it already names the kind of person the catalog keeps', () => {
    const index = buildSearchIndex({
      tables: src([
        table('artist', ['id', 'name', 'sort_name', 'begin_date_year']),
        table('label', ['id', 'name', 'label_code']),
        table('artist_gid_redirect', ['gid', 'new_id', 'created'], [fk(['new_id'], 'artist')]),
        table('label_gid_redirect', ['gid', 'new_id', 'created'], [fk(['new_id'], 'label')]),
        table('customer', ['id', 'first_name', 'last_name', 'email']),
        table('card', ['id', 'customer_id', 'last_digits'], [fk(['customer_id'], 'customer')]),
      ]),
    });
    const run = (q: string, on: number): ReturnType<typeof index.search> => withRanking('pronouns', on, () => index.search(q, { limit: 4 }));
    const people = (r: ReturnType<typeof index.search>): string[] => r.hits.filter((h) => h.why.includes("holds people, for 'who'")).map((h) => h.qualifiedName);
    const q = 'duplicate pages got merged: which old gids redirect to his page?';
    assert.deepEqual(people(run(q, 0)), [], reasons(run(q, 0).hits));
    assert.deepEqual(people(run(q, 1)), ['public.artist'], reasons(run(q, 1).hits));
    // "her" is the customer the question names.
    assert.deepEqual(people(run('a customer says her card was charged twice', 1)), []);
  });
});

describe('search: tables of people and places', () => {
  it('does not count a code list whose head word can name a person ("type") as a table of people', () => {
    const index = buildSearchIndex({
      tables: src([
        table('artist', ['id', 'name', 'sort_name'], [fk(['type'], 'artist_type')]),
        table('artist_type', ['id', 'name', 'description']),
        table('label', ['id', 'name']),
      ]),
    });
    const hits = index.search('what about Dolly Parton', { limit: 5 }).hits;
    assert.equal(hits[0]?.qualifiedName, 'public.artist');
    const type = hits.find((h) => h.qualifiedName === 'public.artist_type');
    assert.ok(type === undefined || !type.why.some((w) => w.startsWith('holds people')), type?.why.join('; '));
  });

  it('does not count a junction that ends at a place as a table of places', () => {
    const index = buildSearchIndex({
      tables: src([table('place', ['id', 'name', 'address', 'coordinates']), table('genre', ['id', 'name']), table('link', ['id']), junction('genre', 'place')]),
    });
    const j = index.search('venues in Oslo', { limit: 5 }).hits.find((h) => h.qualifiedName === 'public.l_genre_place');
    assert.ok(j === undefined || !j.why.some((w) => w.startsWith('holds places')), j?.why.join('; '));
  });

  it('prefers the table of people near the tables the other words reach', () => {
    // Two tables of people: the artists of the music catalog and the site's editors, who edit and vote.
    const people = (): SearchTableInput[] =>
      src([
        table('artist', ['id', 'name', 'sort_name', 'gender']),
        table('recording', ['id', 'name', 'length', 'comment']),
        table('link', ['id']),
        junction('artist', 'recording'),
        table('editor', ['id', 'name', 'email', 'gender', 'bio', 'member_since']),
        table('edit', ['id', 'editor', 'status', 'open_time'], [fk(['editor'], 'editor')]),
        table('vote', ['id', 'editor', 'edit', 'vote_time'], [fk(['editor'], 'editor'), fk(['edit'], 'edit')]),
      ]);
    const score = (q: string, t: string): number => buildSearchIndex({ tables: people() }).search(q, { limit: 10 }).hits.find((h) => h.qualifiedName === `public.${t}`)?.score ?? 0;
    assert.ok(score('songs Quincy Jones recorded', 'artist') > score('songs Quincy Jones recorded', 'editor'));
    assert.ok(score('votes cast by Quincy Jones', 'editor') > score('votes cast by Quincy Jones', 'artist'));
  });

  it('reads a table name by its thesaurus sense, not another WordNet sense, when it decides what holds places', () => {
    // WordNet's `track` is also a path or a racecourse; in the thesaurus it is a song. `place` keeps its place sense.
    const index = buildSearchIndex({
      tables: src([table('track', ['id', 'name', 'length', 'position']), table('place', ['id', 'name', 'coordinates']), table('genre', ['id', 'name'])]),
    });
    const hits = index.search('what is in Oslo', { limit: 5 }).hits;
    assert.equal(hits[0]?.qualifiedName, 'public.place', reasons(hits));
    const track = hits.find((h) => h.qualifiedName === 'public.track');
    assert.ok(track === undefined || !track.why.some((w) => w.startsWith('holds places')), track?.why.join('; '));
  });

  it('reads a disc as the medium a release comes on, as well as the release itself', () => {
    const tables = src([
      table('release', ['id', 'name', 'barcode']),
      table('medium', ['id', 'release', 'position', 'track_count'], [fk(['release'], 'release')]),
      table('track', ['id', 'medium', 'position', 'name', 'length'], [fk(['medium'], 'medium')]),
      table('label', ['id', 'name']),
      table('release_label', ['release', 'label'], [fk(['release'], 'release'), fk(['label'], 'label')]),
    ]);
    const hits = buildSearchIndex({ tables }).search('how many discs does each album come on', { limit: 4 }).hits;
    assert.deepEqual(names(hits).slice(0, 2), ['release', 'medium'], reasons(hits));
    assert.ok(whyOf(hits, 'medium').includes('synonym disc→medium'), reasons(hits));
  });

  it('reads a run-together column name the dictionary knows whole by its own sense: a website is no place', () => {
    const tables = src([
      table('editor', ['id', 'name', 'website', 'email', 'bio']),
      table('venue', ['id', 'name', 'address']),
      table('concert', ['id', 'venue_id', 'date'], [fk(['venue_id'], 'venue')]),
    ]);
    const hits = buildSearchIndex({ tables }).search('concerts in Lagos', { limit: 5 }).hits;
    assert.ok(!whyOf(hits, 'editor').some((w) => w.startsWith('holds places')), reasons(hits));
    assert.ok(whyOf(hits, 'venue').some((w) => w.startsWith('holds places')), reasons(hits));
  });

  it('reads what is tossed or discarded as scrap', () => {
    const tables = src([
      table('product', ['id', 'name', 'list_price']),
      table('scrapreason', ['id', 'name']),
      table('workorder', ['id', 'product_id', 'order_qty', 'scrapped_qty', 'scrapreason_id'], [fk(['product_id'], 'product'), fk(['scrapreason_id'], 'scrapreason')]),
      table('location', ['id', 'name', 'availability']),
    ]);
    for (const q of ['how many bikes did we toss because the wheels were crooked', 'parts discarded last month and why']) {
      const hits = buildSearchIndex({ tables }).search(q, { limit: 3 }).hits;
      assert.ok(whyOf(hits, 'scrapreason').some((w) => w.startsWith('synonym ') && w.endsWith('→scrap')), reasons(hits));
    }
  });

  it('reads a basket or a trolley as a shopping cart', () => {
    const tables = src([
      table('person', ['id', 'first_name', 'last_name']),
      table('shoppingcartitem', ['id', 'shoppingcartid', 'quantity', 'product_id', 'datecreated'], [fk(['product_id'], 'product')]),
      table('product', ['id', 'name', 'list_price']),
    ]);
    for (const [q, word] of [['what have people left in their online baskets', 'basket'], ['abandoned trolleys', 'trolley']] as const) {
      const hits = buildSearchIndex({ tables }).search(q, { limit: 3 }).hits;
      assert.ok(names(hits).slice(0, 2).includes('shoppingcartitem'), reasons(hits));
      assert.ok(whyOf(hits, 'shoppingcartitem').includes(`synonym ${word}→cart`), reasons(hits));
    }
  });

  it('reads buying as ordering', () => {
    const tables = src([
      table('customer', ['id', 'person_id', 'account_number']),
      table('person', ['id', 'first_name', 'last_name']),
      table('product', ['id', 'name', 'list_price']),
      table('salesorderheader', ['id', 'customer_id', 'order_date', 'total_due'], [fk(['customer_id'], 'customer')]),
      table('salesorderdetail', ['id', 'salesorderheader_id', 'product_id', 'order_qty'], [fk(['salesorderheader_id'], 'salesorderheader'), fk(['product_id'], 'product')]),
      table('store', ['id', 'name', 'demographics']),
    ]);
    for (const [q, word] of [['what did each store buy last year', 'buy'], ['customers who bought twice', 'bought']] as const) {
      const hits = buildSearchIndex({ tables }).search(q, { limit: 4 }).hits;
      assert.ok(whyOf(hits, 'salesorderheader').includes(`synonym ${word}→order`), reasons(hits));
    }
  });

  it('reads a stock movement as a transaction', () => {
    const tables = src([
      table('product', ['id', 'name', 'safety_stock_level', 'reorder_point']),
      table('location', ['id', 'name', 'cost_rate']),
      table('productinventory', ['product_id', 'location_id', 'shelf', 'quantity'], [fk(['product_id'], 'product'), fk(['location_id'], 'location')]),
      table('transactionhistory', ['id', 'product_id', 'transaction_date', 'transaction_type', 'quantity'], [fk(['product_id'], 'product')]),
      table('vendor', ['id', 'name', 'credit_rating']),
    ]);
    const hits = buildSearchIndex({ tables }).search('stock movements of each product last month', { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'transactionhistory').includes('synonym movement→transaction'), reasons(hits));
  });

  it('reads a remix as a recording', () => {
    const music = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('recording', ['id', 'name', 'length']),
      table('release', ['id', 'name', 'barcode']),
      table('link_type', ['id', 'name', 'description']),
      table('link', ['id', 'link_type', 'begin_date'], [fk(['link_type'], 'link_type')]),
      table('l_recording_recording', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'recording'), fk(['entity1'], 'recording')]),
    ]);
    const hits = buildSearchIndex({ tables: music }).search('all the remixes of that one song', { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'recording').includes('synonym remix→recording'), reasons(hits));
  });

  it('reads two nouns that name one thing together as that thing', () => {
    const music = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('label', ['id', 'name', 'label_code']),
      table('release', ['id', 'name', 'barcode']),
      table('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
      table('place', ['id', 'name', 'address']),
    ]);
    const hits = buildSearchIndex({ tables: music }).search('which record company put that album out', { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'label').includes('synonym record_company→label'), reasons(hits));
    const lexicon = loadLexicon();
    assert.ok(parseQuery('which record company put that album out', lexicon, lexicon).terms.some((t) => t.term === 'record_company' && t.phrasal === true));
    // Not across a stop word, nor where the dictionary knows no such pair.
    assert.ok(!parseQuery('the record of the company', lexicon, lexicon).terms.some((t) => t.term === 'record_company'));
  });

  it('reads a premiere as an event', () => {
    const music = src([
      table('work', ['id', 'name', 'type']),
      table('event', ['id', 'name', 'begin_date_year', 'time']),
      table('l_event_work', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'event'), fk(['entity1'], 'work')]),
      table('artist', ['id', 'name', 'sort_name']),
    ]);
    const hits = buildSearchIndex({ tables: music }).search('when each opera premiered', { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'event').some((w) => /^synonym premier(ed)?→event$/.test(w)), reasons(hits));
    // So is a ceremony, which the dictionary relates only to work (a rite is a work of a kind).
    const ceremony = buildSearchIndex({ tables: music }).search('Brit Awards 1996 ceremony performers', { limit: 4 }).hits;
    assert.ok(whyOf(ceremony, 'event').includes('synonym ceremony→event'), reasons(ceremony));
    assert.ok(names(ceremony).indexOf('event') < names(ceremony).indexOf('work'), reasons(ceremony));
  });

  it('reads a digipak or a jewel case as a packaging, and a bootleg as a status', () => {
    const music = src([
      table('release_packaging', ['id', 'name', 'description']),
      table('release_status', ['id', 'name', 'description']),
      table('release', ['id', 'name', 'barcode', 'packaging', 'status'], [fk(['packaging'], 'release_packaging'), fk(['status'], 'release_status')]),
      table('artist', ['id', 'name', 'sort_name']),
    ]);
    const index = buildSearchIndex({ tables: music });
    for (const q of ['How many of their releases come in a jewel case vs a digipak?', 'releases that came in digipaks']) {
      const hits = index.search(q, { limit: 3 }).hits;
      assert.ok(whyOf(hits, 'release_packaging').some((w) => /^synonym (digipaks?|jewel_case)→packaging$/.test(w)), reasons(hits));
      assert.ok(names(hits).indexOf('release_packaging') < Math.max(0, names(hits).indexOf('release_status')) || !names(hits).includes('release_status'), reasons(hits));
    }
    const bootlegs = index.search('nirvana bootlegs', { limit: 3 }).hits;
    assert.ok(whyOf(bootlegs, 'release_status').some((w) => /^synonym bootlegs?→status$/.test(w)), reasons(bootlegs));
  });

  it('reads a format word as a label of the format list, which brings the part that keeps it', () => {
    const music = src([
      table('artist', ['id', 'name', 'sort_name', 'begin_date_year']),
      table('label', ['id', 'name', 'label_code', 'begin_date_year']),
      table('release', ['id', 'name', 'barcode']),
      table('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
      table('medium_format', ['id', 'name', 'year', 'description']),
      table('medium', ['id', 'release', 'position', 'format', 'name'], [fk(['release'], 'release'), fk(['format'], 'medium_format')]),
      table('label_tag', ['label', 'tag', 'count'], [fk(['label'], 'label')]),
      table('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release')]),
      table('release_status', ['id', 'name', 'description']),
    ]);
    const index = buildSearchIndex({ tables: music });
    const q = 'every vinyl release by the band with its label, catalogue number and year';
    const at = (v: number): ReturnType<typeof index.search>['hits'] => withRanking('labelMember', v, () => index.search(q, { limit: 8 })).hits;
    const score = (hits: ReturnType<typeof at>, name: string): number => hits.find((h) => h.qualifiedName.endsWith(`.${name}`))?.score ?? 0;
    const labelled = at(0.8);
    const synonym = at(0.6);
    // "vinyl" is a format, not only a word like one: the list scores above a plain synonym's share…
    assert.ok(score(labelled, 'medium_format') > score(synonym, 'medium_format'), reasons(labelled));
    // …and the medium that keeps the format comes before tables only the other words touch.
    const order = names(labelled);
    assert.ok(order.indexOf('medium') >= 0 && order.indexOf('medium') < order.indexOf('release_tag') && order.indexOf('medium') < order.indexOf('label_tag'), reasons(labelled));
    assert.ok(names(synonym).indexOf('medium') > names(synonym).indexOf('release_tag'), reasons(synonym));
  });

  it('reads a storeroom as stock, and a shelf on its plural', () => {
    const shop = src([
      table('product', ['id', 'name', 'color', 'listprice']),
      table('location', ['locationid', 'name', 'costrate']),
      table('productinventory', ['productid', 'locationid', 'shelf', 'bin', 'quantity'], [fk(['productid'], 'product'), fk(['locationid'], 'location')]),
      table('customer', ['id', 'name']),
      table('salesorder', ['id', 'customer_id', 'orderdate'], [fk(['customer_id'], 'customer')]),
    ]);
    const index = buildSearchIndex({ tables: shop });
    const storeroom = index.search('how many bikes are in each storeroom right now', { limit: 3 }).hits;
    assert.ok(whyOf(storeroom, 'productinventory').some((w) => /storeroom→/.test(w)), reasons(storeroom));
    const shelves = index.search('black seats sitting on the shelves', { limit: 3 }).hits;
    assert.equal(names(shelves)[0], 'productinventory', reasons(shelves));
  });

  it('reads a login as a password', () => {
    const web = src([
      table('person', ['businessentityid', 'firstname', 'lastname', 'emailpromotion']),
      table('password', ['businessentityid', 'passwordhash', 'passwordsalt', 'modifieddate'], [fk(['businessentityid'], 'person')]),
      table('customer', ['customerid', 'personid', 'accountnumber'], [fk(['personid'], 'person')]),
      table('emailaddress', ['businessentityid', 'emailaddress'], [fk(['businessentityid'], 'person')]),
    ]);
    const hits = buildSearchIndex({ tables: web }).search("online shoppers who haven't reset their website login since 2012", { limit: 3 }).hits;
    assert.ok(whyOf(hits, 'password').some((w) => /^synonym login→password$/.test(w)), reasons(hits));
  });

  it('reads no tag as a record label', () => {
    const music = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('label', ['id', 'name', 'label_code']),
      table('release', ['id', 'name', 'barcode']),
      table('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
      table('tag', ['id', 'name']),
      table('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release'), fk(['tag'], 'tag')]),
    ]);
    // The dictionary still relates the two words; the thesaurus no longer makes them synonyms.
    const tagged = buildSearchIndex({ tables: music }).search('releases tagged shoegaze', { limit: 4 }).hits;
    assert.ok(!tagged.some((h) => h.why.some((w) => w.includes('synonym tagged→label'))), reasons(tagged));
  });

  it('reads a librettist as one who writes works', () => {
    const music = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('work_type', ['id', 'name']),
      table('work', ['id', 'name', 'type'], [fk(['type'], 'work_type')]),
      table('recording', ['id', 'name', 'length']),
      table('editor', ['id', 'name', 'email']),
    ]);
    const hits = buildSearchIndex({ tables: music }).search("Who were the librettists on Kaija Saariaho's operas?", { limit: 3 }).hits;
    assert.ok(names(hits).includes('work'), reasons(hits));
    assert.ok(whyOf(hits, 'work').includes('synonym librettist→work'), reasons(hits));
  });

  it('reads singles and EPs as releases, and a CV as a résumé', () => {
    const music = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('release_group_primary_type', ['id', 'name']),
      table('release_group', ['id', 'name', 'type'], [fk(['type'], 'release_group_primary_type')]),
      table('release_status', ['id', 'name']),
      table('release', ['id', 'name', 'release_group', 'status', 'barcode'], [fk(['release_group'], 'release_group'), fk(['status'], 'release_status')]),
      table('editor', ['id', 'name', 'email']),
    ]);
    for (const [q, word] of [['Find the promotional singles Kendrick Lamar has put out', 'singles'], ['which EPs came out in 2020', 'ep']] as const) {
      const hits = buildSearchIndex({ tables: music }).search(q, { limit: 4 }).hits;
      assert.ok(names(hits).slice(0, 2).includes('release'), reasons(hits));
      assert.ok(whyOf(hits, 'release').includes(`synonym ${word}→release`), reasons(hits));
    }
    const hr = src([
      table('person', ['id', 'first_name', 'last_name']),
      table('jobcandidate', ['id', 'person_id', 'resume', 'modified'], [fk(['person_id'], 'person')]),
      table('department', ['id', 'name', 'group_name']),
    ]);
    const hits = buildSearchIndex({ tables: hr }).search('can I dig up the CVs people sent in', { limit: 3 }).hits;
    assert.ok(whyOf(hits, 'jobcandidate').includes('synonym cv→resume in resume'), reasons(hits));
    assert.deepEqual(names(buildSearchIndex({ tables: hr }).search('candidates with a strong CV', { limit: 3 }).hits).slice(0, 1), ['jobcandidate']);
  });

  it('reads a title after "on" or "of" as the whole that a part kept in order belongs to', () => {
    const tables = src([
      table('release', ['id', 'name', 'barcode', 'status']),
      table('medium', ['id', 'release', 'position', 'name'], [fk(['release'], 'release')]),
      table('recording', ['id', 'name', 'length', 'comment']),
      table('track', ['id', 'medium', 'recording', 'position', 'name', 'length'], [fk(['medium'], 'medium'), fk(['recording'], 'recording')]),
      table('track_raw', ['id', 'title', 'artist', 'sequence', 'length']),
      table('recording_tag', ['recording', 'tag', 'count'], [fk(['recording'], 'recording'), fk(['tag'], 'tag')]),
      table('tag', ['id', 'name']),
      table('isrc', ['id', 'recording', 'isrc'], [fk(['recording'], 'recording')]),
      table('work', ['id', 'name', 'length_note']),
      table('l_recording_work', ['id', 'entity0', 'entity1'], [fk(['entity0'], 'recording'), fk(['entity1'], 'work')]),
    ]);
    const index = buildSearchIndex({ tables });
    const q = 'the runtime of every track on Thriller';
    const hits = index.search(q, { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'release').includes("the whole track is part of, for 'Thriller'"), reasons(hits));
    assert.ok(whyOf(hits, 'medium').some((w) => w.startsWith('joins track to release')), reasons(hits));
    const off = withRanking('partWholes', 0, () => index.search(q, { limit: 4 }).hits);
    assert.ok(!names(off).includes('release'), reasons(off));
    // A title that is the track itself names no whole.
    assert.ok(!index.search("the length of the track 'Yesterday'", { limit: 4 }).hits.some((h) => h.why.some((w) => w.startsWith('the whole'))));
  });

  it('reads a capitalised name in mid-sentence as a person even when its first name is a common word', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(findMentions('paycheck history for Ken Sánchez', lexicon), [{ kind: 'person', text: 'Ken Sánchez' }]);
    // At the start of a sentence a common word may just be capitalised, but not before another title-case word: the
    // capitals are the name's.
    assert.deepEqual(findMentions('Ken Sánchez pay history', lexicon), [{ kind: 'person', text: 'Ken Sánchez' }]);
    assert.deepEqual(findMentions('artists from New Zealand', lexicon).map((m) => m.kind), ['place']);
  });

  it('reads no person in a lone capitalised word the dictionary defines, however rare', () => {
    const lexicon = loadLexicon();
    // Rarer words than the common vocabulary holds, but words: a script, a product's last word, an album title.
    for (const q of ['Which releases in Russian with Cyrillic script came out on cassette?', 'Which documents are attached to the Sport-100 Helmet?', 'Is there artwork for Rumours I can look at?']) {
      assert.deepEqual(findMentions(q, lexicon).filter((m) => m.kind === 'person'), [], q);
    }
    // A name the dictionary does not define is still someone's.
    assert.deepEqual(findMentions('all the tags on Metalica', lexicon), [{ kind: 'person', text: 'Metalica', maker: true }]);
    // Nor, after "in", a place: a script, a kind of product.
    for (const q of ['aliases written in Cyrillic', 'how many sales in Helmets last year']) assert.deepEqual(findMentions(q, lexicon), [], q);
    assert.deepEqual(findMentions('venues in Lagos', lexicon), [{ kind: 'place', text: 'Lagos' }]);
    // A region the dictionary knows by its last word, with a word before it that it does not know as a name.
    assert.deepEqual(findMentions('account holders in South Bohemia', lexicon), [{ kind: 'place', text: 'South Bohemia' }]);
    assert.deepEqual(findMentions('gigs at Paradiso', lexicon).map((m) => m.kind), ['place']);
  });
});

describe('search: the rows a question asks for', () => {
  it('raises the table named by the noun after "which" above tables that share more of the words', () => {
    const tables = src([
      table('artist', ['id', 'name', 'sort_name', 'begin_date_year']),
      table('release', ['id', 'name', 'barcode', 'status']),
      table('label', ['id', 'name', 'label_code']),
      table('artist_release', ['artist', 'release', 'is_track_artist', 'barcode', 'catalog_numbers'], [fk(['artist'], 'artist'), fk(['release'], 'release')]),
      table('release_label', ['release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
      table('l_artist_label', ['entity0', 'entity1', 'entity0_credit'], [fk(['entity0'], 'artist'), fk(['entity1'], 'label')]),
      table('l_artist_release', ['entity0', 'entity1', 'entity0_credit'], [fk(['entity0'], 'artist'), fk(['entity1'], 'release')]),
      table('l_label_release', ['entity0', 'entity1', 'entity0_credit'], [fk(['entity0'], 'label'), fk(['entity1'], 'release')]),
    ]);
    const index = buildSearchIndex({ tables });
    const q = 'On releases from labels with catalog numbers, which artists have credits?';
    const hits = index.search(q, { limit: 10 }).hits;
    const rank = hits.findIndex((h) => h.qualifiedName === 'public.artist');
    assert.ok(rank >= 0 && rank < 3, names(hits).join(', '));
    assert.ok(hits[rank]!.why.includes("the rows asked for ('artists')"), hits[rank]!.why.join('; '));
    // Without the question word the noun asks for nothing.
    const plain = index.search('On releases from labels with catalog numbers, artists have credits', { limit: 10 }).hits;
    assert.ok(!plain.some((h) => h.why.some((w) => w.startsWith('the rows asked for'))));
  });
});

describe('search: lexicon senses', () => {
  it('keeps the thesaurus sense of a word from following its -ing noun to the verb stem', () => {
    const lexicon = loadLexicon();
    const shared = (a: string, b: string): boolean => lexicon.concepts(a).some((c) => isThesaurusConcept(c) && lexicon.concepts(b).includes(c));
    assert.equal(shared('album', 'recording'), false);
    assert.equal(shared('album', 'records'), true);
    assert.equal(shared('song', 'recording'), true);
  });

  it('relates lyrics, composers and compositions to a work, and a tour to a series', () => {
    const lexicon = loadLexicon();
    const shared = (a: string, b: string): boolean => lexicon.concepts(a).some((c) => isThesaurusConcept(c) && lexicon.concepts(b).includes(c));
    for (const w of ['lyrics', 'composer', 'lyricist', 'compositions']) assert.equal(shared(w, 'work'), true, w);
    assert.equal(shared('tours', 'series'), true);
    // A song stays a recording: the work it performs is another row.
    assert.equal(shared('song', 'work'), false);
    const tables = src([
      table('work', ['id', 'name', 'type']),
      table('recording', ['id', 'name', 'length']),
      table('artist', ['id', 'name']),
      table('l_artist_work', ['entity0', 'entity1', 'link'], [fk(['entity0'], 'artist'), fk(['entity1'], 'work')]),
    ]);
    const top = buildSearchIndex({ tables }).search('who wrote the lyrics', { limit: 2 }).hits.map((h) => h.qualifiedName);
    assert.ok(top.includes('public.work') || top.includes('public.l_artist_work'), top.join(', '));
  });

  it('relates a person named for what they do to the noun of the doing, and not to the people who do the same', () => {
    const lexicon = loadLexicon();
    const wordnet = (a: string, b: string): boolean => lexicon.concepts(a).some((c) => !isThesaurusConcept(c) && lexicon.concepts(b).includes(c));
    // renter (rent) → rental; seller (sell) → sale.
    assert.ok(wordnet('renters', 'rental'), 'renter ~ rental');
    assert.ok(wordnet('seller', 'sale'), 'seller ~ sale');
    // The doing's noun, not its other doers: a renter is no hirer, a borrower no lender.
    assert.equal(wordnet('renter', 'hirer'), false);
    assert.equal(wordnet('borrower', 'lender'), false);
  });

  it('never merges a thesaurus group with the WordNet concept of the same number', () => {
    const lexicon = loadLexicon();
    const related = (a: string, b: string): boolean => lexicon.concepts(a).some((c) => lexicon.concepts(b).includes(c));
    // WordNet words whose concept ids were spelled like the first thesaurus groups' ids (dishes and actors,
    // decades and orders, teenagers and customers).
    for (const [a, b] of [['pizza', 'actor'], ['special', 'cast'], ['sixties', 'order'], ['teenager', 'customer'], ['verse', 'vendor'], ['ruckus', 'singer']]) {
      assert.equal(related(a!, b!), false, `${a} ~ ${b}`);
    }
    assert.equal(related('client', 'customer'), true);
    // Writing makes a work ("songs written by", "who wrote"), in every form of the verb.
    for (const w of ['wrote', 'written', 'writes']) assert.equal(related(w, 'work'), true, w);
    assert.ok(lexicon.concepts('customer').some(isThesaurusConcept));
    assert.ok(!lexicon.concepts('pizza').some(isThesaurusConcept));
  });
});

describe('search: a join path that meets a table from both sides', () => {
  // Tracks on the discs of a release; both a track and a release carry an artist credit.
  const tables = (): TableInfo[] => [
    table('artist_credit', ['id', 'name', 'artist_count', 'ref_count', 'created', 'edits_pending']),
    table('release', ['id', 'name', 'barcode', 'artist_credit', 'packaging', 'status'], [fk(['artist_credit'], 'artist_credit')]),
    table('medium', ['id', 'parent_id', 'position', 'format', 'name', 'edits_pending'], [fk(['parent_id'], 'release')]),
    table('recording', ['id', 'name', 'length', 'video']),
    table('track', ['id', 'medium', 'position', 'name', 'length', 'artist_credit', 'recording'], [fk(['medium'], 'medium'), fk(['artist_credit'], 'artist_credit'), fk(['recording'], 'recording')]),
  ];

  it('joins a part to its whole through what it belongs to, not through a value both share', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const run = (on: number): ReturnType<typeof index.search> => withRanking('convergence', on, () => index.search('length of each track on every release', { limit: 4 }));
    const joins = (r: ReturnType<typeof index.search>, t: string): boolean => whyOf(r.hits, t).some((w) => /^joins (track and release|release and track)$/.test(w));
    // Before: track → artist_credit ← release, two hops as short as the way through the medium, and first by name.
    assert.ok(joins(run(0), 'artist_credit') && !joins(run(0), 'medium'), reasons(run(0).hits));
    // After: track → medium → release.
    assert.ok(joins(run(1), 'medium') && !joins(run(1), 'artist_credit'), reasons(run(1).hits));
  });
});

describe('search: a junction between two tables an FK already joins', () => {
  const tables = (): TableInfo[] => [
    table('customer', ['customer_id', 'first_name', 'last_name', 'email']),
    table('staff', ['staff_id', 'first_name', 'last_name', 'username']),
    table('rental', ['rental_id', 'rental_date', 'return_date', 'customer_id'], [fk(['customer_id'], 'customer', ['customer_id'])]),
    table('payment', ['payment_id', 'customer_id', 'rental_id', 'staff_id', 'amount', 'payment_date'], [
      fk(['customer_id'], 'customer', ['customer_id']),
      fk(['rental_id'], 'rental', ['rental_id']),
      fk(['staff_id'], 'staff', ['staff_id']),
    ]),
  ];

  it('is not raised as the bridge between them', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const run = (on: number): ReturnType<typeof index.search> => withRanking('bridgeJoined', on, () => index.search('customers and the dates of their rentals', { limit: 4 }));
    const bridge = (r: ReturnType<typeof index.search>): boolean => whyOf(r.hits, 'payment').some((w) => w.startsWith('bridge between'));
    // Before: `payment` points at both, so it was read as the join of customers and rentals.
    assert.ok(bridge(run(0)), reasons(run(0).hits));
    // After: `rental.customer_id` joins them; a payment is another relationship of theirs.
    assert.ok(!bridge(run(1)), reasons(run(1).hits));
    assert.deepEqual(names(run(1).hits).slice(0, 2).sort(), ['customer', 'rental'], reasons(run(1).hits));
  });
});

describe('search: the code lists of a junction that names its rows', () => {
  // A release sits between its artist credit and its release group, and carries a language, a packaging and a status.
  const tables = (): TableInfo[] => [
    table('artist_credit', ['id', 'name', 'artist_count', 'ref_count', 'created']),
    table('release_group', ['id', 'name', 'comment', 'edits_pending']),
    table('language', ['id', 'name']),
    table('packaging', ['id', 'name', 'description']),
    table('status', ['id', 'name']),
    table('release', ['id', 'name', 'barcode', 'artist_credit', 'release_group', 'language', 'packaging', 'status'], [
      fk(['artist_credit'], 'artist_credit'),
      fk(['release_group'], 'release_group'),
      fk(['language'], 'language'),
      fk(['packaging'], 'packaging'),
      fk(['status'], 'status'),
    ]),
  ];

  it('brings along as its qualifiers only the code lists that may hold a word of the question', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const run = (q: string, on: number): ReturnType<typeof index.search> => withRanking('namedQualifiers', on, () => index.search(q, { limit: 6 }));
    const qualified = (r: ReturnType<typeof index.search>): string[] => r.hits.filter((h) => h.why.includes('qualifies release')).map((h) => h.qualifiedName.replace(/^public\./, '')).sort();
    const q = 'barcodes of the releases by each artist credit';
    // Before: every code list of a release came along as if it qualified a relationship.
    assert.deepEqual(qualified(run(q, 0)), ['language', 'packaging', 'status'], reasons(run(q, 0).hits));
    // After: a release is a thing; its language, packaging and status are attributes nobody asked for.
    assert.deepEqual(qualified(run(q, 1)), [], reasons(run(q, 1).hits));
    assert.deepEqual(names(run(q, 1).hits).slice(0, 3).sort(), ['artist_credit', 'release', 'release_group'], reasons(run(q, 1).hits));
  });
});

describe('search: the ends of a junction that are junctions naming their rows', () => {
  // A label's releases with their catalog numbers; a release sits between its artist credit and its release group.
  const tables = (): TableInfo[] => [
    table('artist_credit', ['id', 'gid', 'name', 'artist_count', 'created', 'edits_pending']),
    table('release_group', ['id', 'gid', 'name', 'comment', 'edits_pending', 'last_updated']),
    table('release', ['id', 'gid', 'name', 'barcode', 'comment', 'artist_credit', 'release_group'], [fk(['artist_credit'], 'artist_credit'), fk(['release_group'], 'release_group')]),
    table('label', ['id', 'gid', 'name', 'label_code', 'begin_date_year', 'end_date_year', 'comment']),
    table('tag', ['id', 'name', 'ref_count']),
    table('label_tag', ['label', 'tag', 'count', 'last_updated'], [fk(['label'], 'label'), fk(['tag'], 'tag')]),
    table('label_alias', ['id', 'label', 'name', 'locale', 'edits_pending'], [fk(['label'], 'label')]),
    table('label_ipi', ['label', 'ipi', 'edits_pending', 'created'], [fk(['label'], 'label')]),
    table('label_isni', ['label', 'isni', 'edits_pending', 'created'], [fk(['label'], 'label')]),
    table('label_meta', ['id', 'rating', 'rating_count'], [fk(['id'], 'label')]),
    table('release_label', ['id', 'release', 'label', 'catalog_number', 'last_updated'], [fk(['release'], 'release'), fk(['label'], 'label')]),
  ];

  it('brings them as it brings an entity', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const run = (on: number): ReturnType<typeof index.search> => withRanking('namedEnds', on, () => index.search('which labels put it out and what catalog numbers they used', { limit: 9 }));
    const rank = (r: ReturnType<typeof index.search>): number => names(r.hits).indexOf('release');
    // Before: `release` was no end of `release_label` (not an entity: it joins a credit and a group), and came last.
    assert.ok(!whyOf(run(0).hits, 'release').includes('what release_label relates'), reasons(run(0).hits));
    assert.ok(whyOf(run(1).hits, 'release').includes('what release_label relates'), reasons(run(1).hits));
    assert.ok(rank(run(1)) < rank(run(0)), reasons(run(1).hits));
  });
});
