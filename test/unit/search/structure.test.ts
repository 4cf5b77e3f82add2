import assert from 'node:assert/strict';
import { buildSearchIndex, type SearchTableInput } from '../../../src/core/search/index';
import { catalogBuilders, fk, names, reasons, src, withRanking } from './builders';

const { column, table } = catalogBuilders((name) => (/id$|_id$|position|count|year/.test(name) ? 'integer' : 'text'));

/** A typed relationship between `a` and `b`, MusicBrainz' shape: `l_<a>_<b>` → `link` (→ `link_type`). */
const linkJunction = (a: string, b: string) => table(`l_${a}_${b}`, ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], a), fk(['entity1'], b)]);

describe('search: words mined from the catalog structure', () => {
  it('finds a table by the role name other tables use for it in their FK columns', () => {
    const index = buildSearchIndex({
      tables: src([
        table('member', ['id', 'full_name', 'joined_on']),
        table('book', ['id', 'title', 'isbn']),
        table('loan', ['id', 'borrower_id', 'book_id', 'due_date'], [fk(['borrower_id'], 'member'), fk(['book_id'], 'book')]),
        table('branch', ['id', 'name', 'city']),
      ]),
    });
    const top = names(index.search('which borrower owes the most', { limit: 3 }).hits);
    // `loan` matches by its column; `member` only through the role word its FK column gives it.
    assert.ok(top.includes('member'), top.join(', '));
    assert.ok(index.search('which borrower owes the most').hits.find((h) => h.qualifiedName === 'public.member')!.why.some((w) => w.includes('borrower')));
  });

  it('reaches a stored label from an inflected question word', () => {
    const index = buildSearchIndex({
      tables: src([
        table('film', ['id', 'title', column('genre', { enumLabels: ['Documentary', 'Horror', 'Comedy'] })]),
        table('actor', ['id', 'first_name', 'last_name']),
        table('store', ['id', 'address']),
      ]),
    });
    const hit = index.search('all documentaries').hits[0];
    assert.equal(hit?.qualifiedName, 'public.film');
    assert.ok(hit!.why.some((w) => w.includes("'Documentary'")), hit!.why.join('; '));
  });
});

describe('search: table roles', () => {
  const catalog = (): SearchTableInput[] =>
    src([
      table('artist', ['id', 'name', 'sort_name', 'begin_year', 'area_id'], [fk(['area_id'], 'area')]),
      table('artist_alias', ['id', 'artist_id', 'name', 'locale'], [fk(['artist_id'], 'artist')]),
      table('artist_history', ['id', 'artist_id', 'name', 'changed_at'], [fk(['artist_id'], 'artist')]),
      table('artist_tag_raw', ['artist_id', 'tag', 'editor'], [fk(['artist_id'], 'artist')]),
      table('area', ['id', 'name', 'type']),
    ]);

  it('ranks the entity above the history, alias and raw tables that share its name', () => {
    const hits = names(buildSearchIndex({ tables: catalog() }).search('artist names and the year they began', { limit: 5 }).hits);
    assert.equal(hits[0], 'artist');
    assert.ok(hits.indexOf('artist') < hits.indexOf('artist_alias') || !hits.includes('artist_alias'));
    assert.ok(hits.indexOf('area') < hits.indexOf('artist_tag_raw') || !hits.includes('artist_tag_raw'), hits.join(', '));
  });

  it('still returns the auxiliary table first when the question asks for it', () => {
    const hits = names(buildSearchIndex({ tables: catalog() }).search('every alias of an artist', { limit: 3 }).hits);
    assert.equal(hits[0], 'artist_alias', hits.join(', '));
  });

  it('brings the lookup behind a junction when the question names a value the catalog does not hold', () => {
    const index = buildSearchIndex({
      tables: src([
        table('film', ['film_id', 'title', 'release_year', 'length', 'language_id'], [fk(['language_id'], 'language')]),
        table('category', ['category_id', 'name', 'last_update']),
        table('film_category', ['film_id', 'category_id', 'last_update'], [fk(['film_id'], 'film'), fk(['category_id'], 'category')]),
        table('language', ['language_id', 'name', 'last_update']),
        table('actor', ['actor_id', 'first_name', 'last_name']),
        table('film_actor', ['actor_id', 'film_id'], [fk(['actor_id'], 'actor'), fk(['film_id'], 'film')]),
        table('inventory', ['inventory_id', 'film_id', 'store_id'], [fk(['film_id'], 'film')]),
        table('rental', ['rental_id', 'inventory_id', 'rental_date'], [fk(['inventory_id'], 'inventory')]),
      ]),
    });
    const res = index.search('horror films from 2006', { limit: 10 });
    const top = names(res.hits);
    assert.ok(top.indexOf('category') >= 0 && top.indexOf('category') < 7 && top.indexOf('category') < top.indexOf('actor'), top.join(', '));
    // "horror" stands before "films": every code list of film (language directly, category behind film_category)
    // may hold it, so they and the junction come right after film.
    assert.deepEqual(top.slice(0, 4).sort(), ['category', 'film', 'film_category', 'language'], top.join(', '));
    assert.ok(res.hits.find((h) => h.qualifiedName === 'public.category')!.why.some((w) => w.includes('horror')));
  });

  it('does not read numeric position columns as places', () => {
    const index = buildSearchIndex({
      tables: src([
        table('track', ['id', 'position', 'length', 'title']),
        table('medium', ['id', 'position', 'format']),
        table('area', ['id', 'name', 'iso_code']),
      ]),
    });
    assert.deepEqual(names(index.search('artists from Norway', { limit: 1 }).hits), ['area']);
  });
});

describe('search: lexicon look-ups', () => {
  it('lemmatises an inflected verb to the sense that links it to the catalog ("starred" → star → actor)', () => {
    const index = buildSearchIndex({
      tables: src([table('actor', ['actor_id', 'first_name', 'last_name']), table('store', ['store_id', 'address']), table('payment', ['payment_id', 'amount'])]),
    });
    assert.equal(index.search('who starred in it').hits[0]?.qualifiedName, 'public.actor');
  });
});

describe('search: never a dead end', () => {
  const shop = (): SearchTableInput[] =>
    src([
      table('customer', ['id', 'name', 'email']),
      table('orders', ['id', 'customer_id', 'placed_at'], [fk(['customer_id'], 'customer')]),
      table('order_line', ['id', 'order_id', 'product_id', 'qty'], [fk(['order_id'], 'orders'), fk(['product_id'], 'product')]),
      table('product', ['id', 'name', 'price', 'category_id'], [fk(['category_id'], 'category')]),
      table('category', ['id', 'name']),
      table('employee', ['id', 'first_name', 'last_name', 'manager_id'], [fk(['manager_id'], 'employee')]),
    ]);

  it('answers a question the catalog has no word for with central tables and a map of its areas', () => {
    const res = buildSearchIndex({ tables: shop() }).search('zzqx frobnicate wibble');
    assert.ok(res.hits.length > 0);
    assert.equal(res.fallback?.reason, 'no_match');
    const areas = res.fallback!.areas;
    assert.ok(areas.length >= 2, JSON.stringify(areas));
    // Every table of the catalog is in exactly one area, and each area says what it is around.
    assert.equal(areas.reduce((n, a) => n + a.tables, 0), 6);
    for (const a of areas) assert.ok(a.summary.length > 0 && a.examples.length > 0);
  });

  it('reads words for the catalog itself ("what tables are there?") as no search words, unless a table is named by them', () => {
    const withLog = [...shop(), ...src([table('change_log', ['id', 'table_name', 'column_name', 'changed_at'])])];
    const index = buildSearchIndex({ tables: withLog });
    const run = (on: number, q: string): ReturnType<typeof index.search> => withRanking('structureWords', on, () => index.search(q, { limit: 5 }));
    // Before: the log's table_name column matched "tables", as if the question were about it.
    assert.equal(run(0, 'what tables are there?').hits[0]?.qualifiedName, 'public.change_log');
    assert.equal(run(0, 'what tables are there?').fallback, undefined);
    // After: the question asks for the catalog itself, and gets its map.
    const map = run(1, 'what tables are there?');
    assert.equal(map.fallback?.reason, 'no_words');
    assert.ok(map.hits.length > 0 && map.hits.every((h) => h.qualifiedName !== 'public.change_log'), names(map.hits).join(', '));
    // Whole words, before a run-together one is split: "database" is not `data` + `base`.
    assert.equal(run(1, 'what is in this database?').fallback?.reason, 'no_words');
    // With a word of content, that word is searched for, and only it.
    const emails = run(1, 'which tables have a column for email');
    assert.equal(emails.hits[0]?.qualifiedName, 'public.customer');
    assert.deepEqual(emails.terms, run(1, 'email').terms);
    // A catalog with tables named by the word keeps it: a restaurant's tables are its rows.
    const restaurant = buildSearchIndex({ tables: src([table('dining_table', ['id', 'seats', 'area']), table('booking', ['id', 'dining_table_id', 'guest_name', 'booked_for'], [fk(['dining_table_id'], 'dining_table')]), table('menu_item', ['id', 'name', 'price'])]) });
    assert.equal(withRanking('structureWords', 1, () => restaurant.search('which tables seat six', { limit: 3 })).hits[0]?.qualifiedName, 'public.dining_table');
  });

  it('maps the areas when only a small part of the question matched, and not when it matched well', () => {
    const index = buildSearchIndex({ tables: shop() });
    assert.equal(index.search('customers and their orders').fallback, undefined);
    const weak = index.search('customers whose loyalty tier upgraded after the spring campaign newsletter');
    assert.ok(weak.hits.length > 0);
    assert.equal(weak.fallback?.reason, 'weak_match');
  });

  it('counts words that no table could match at half weight: chatter and names do not make a good answer weak', () => {
    const index = buildSearchIndex({ tables: shop() });
    const plain = index.search('products ordered');
    const chatty = index.search('products ordered for a quilting retreat');
    // The same best table: "quilting" and "retreat" are in no table, so they lower its score only part of the way.
    assert.equal(chatty.hits[0]?.qualifiedName, plain.hits[0]?.qualifiedName);
    assert.equal(chatty.fallback, undefined);
    assert.ok(chatty.hits[0]!.score < plain.hits[0]!.score);
    // Counted in full, the two unknown words (the rarest possible) would hold it below 0.6.
    assert.ok(chatty.hits[0]!.score > 0.6, String(chatty.hits[0]!.score));
    // Words the catalog knows, held by other tables, count in full against the best table.
    const best = chatty.hits[0]!.qualifiedName;
    const known = index.search('products ordered by employee manager email').hits.find((h) => h.qualifiedName === best);
    assert.ok(known !== undefined && known.score < chatty.hits[0]!.score, `${known?.score} vs ${chatty.hits[0]!.score}`);
  });

  it('keeps an empty answer for a blank query only: one without any content word gets the map of the catalog', () => {
    const index = buildSearchIndex({ tables: shop() });
    assert.equal(index.search(' \t ').hits.length, 0);
    const res = index.search('what is the');
    assert.equal(res.fallback?.reason, 'no_words');
    assert.equal(res.fallback!.areas.reduce((n, a) => n + a.tables, 0), 6);
    assert.ok(res.hits.length > 0);
  });
});

describe('search: the way from the tables asked about to a named person or place', () => {
  // MusicBrainz' shape: a release names its artists through a credit (`release` → `artist_credit` ←
  // `artist_credit_name` → `artist`); a label lies in an area.
  const catalog = (): SearchTableInput[] =>
    src([
      table('area', ['id', 'name', 'type', 'comment']),
      table('artist', ['id', 'name', 'sort_name', 'begin_year', 'area_id'], [fk(['area_id'], 'area')]),
      table('artist_credit', ['id', 'name', 'artist_count', 'ref_count']),
      table('artist_credit_name', ['artist_credit_id', 'position', 'artist_id', 'name', 'join_phrase'], [fk(['artist_credit_id'], 'artist_credit'), fk(['artist_id'], 'artist')]),
      table('label', ['id', 'name', 'label_code', 'begin_year', 'area_id'], [fk(['area_id'], 'area')]),
      table('release', ['id', 'name', 'artist_credit_id', 'barcode', 'status', 'packaging', 'comment', 'quality'], [fk(['artist_credit_id'], 'artist_credit')]),
      table('release_label', ['id', 'release_id', 'label_id', 'catalog_number'], [fk(['release_id'], 'release'), fk(['label_id'], 'label')]),
      table('medium', ['id', 'release_id', 'position', 'format', 'name', 'track_count'], [fk(['release_id'], 'release')]),
      table('track', ['id', 'medium_id', 'position', 'name', 'length', 'artist_credit_id'], [fk(['medium_id'], 'medium'), fk(['artist_credit_id'], 'artist_credit')]),
      table('editor', ['id', 'name', 'email', 'website', 'area_id', 'password'], [fk(['area_id'], 'area')]),
      table('tag', ['id', 'name', 'ref_count']),
      table('release_tag', ['release_id', 'tag_id', 'count'], [fk(['release_id'], 'release'), fk(['tag_id'], 'tag')]),
      table('label_tag', ['label_id', 'tag_id', 'count'], [fk(['label_id'], 'label'), fk(['tag_id'], 'tag')]),
      table('label_alias', ['id', 'label_id', 'name', 'locale', 'sort_name'], [fk(['label_id'], 'label')]),
      table('language', ['id', 'name', 'iso_code']),
      table('script', ['id', 'name', 'iso_code']),
    ]);

  it('brings the table of places that the labels of "German labels" point at', () => {
    const r = buildSearchIndex({ tables: catalog() }).search('Which releases came out on German labels?', { limit: 5 });
    const top = names(r.hits);
    assert.ok(top.includes('area'), top.join(', '));
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.area')!.why.some((w) => w.includes("'German'")));
  });

  it('prefers the people a release names through its own key to those a relationship table links to it', () => {
    const tables = [
      ...catalog(),
      ...src([
        table('link', ['id', 'link_type', 'begin_date_year', 'end_date_year']),
        table('l_artist_release', ['id', 'link', 'entity0', 'entity1', 'edits_pending'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'release')]),
      ]),
    ];
    const r = buildSearchIndex({ tables }).search("How many barcodes do Radiohead's releases have?", { limit: 6 });
    const credit = r.hits.find((h) => h.qualifiedName === 'public.artist_credit');
    assert.ok(credit?.why.some((w) => w.startsWith('leads from release to artist')), reasons(r.hits));
    assert.ok(!r.hits.find((h) => h.qualifiedName === 'public.l_artist_release')?.why.some((w) => w.startsWith('leads from')), 'the relationship table is not the way');
  });

  it('brings the relationship record of a junction of three even where a word of the question grazed the record', () => {
    const tables = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('recording', ['id', 'name', 'length']),
      table('work', ['id', 'name', 'iswc']),
      table('link_type', ['id', 'name', 'description', 'link_phrase']),
      table('link', ['id', 'link_type', 'begin_date_year', 'created'], [fk(['link_type'], 'link_type')]),
      linkJunction('artist', 'recording'),
      linkJunction('recording', 'work'),
      linkJunction('artist', 'work'),
    ]);
    const r = buildSearchIndex({ tables }).search('Which recordings did Rick Rubin produce?', { limit: 6 });
    // "produce" reaches `link` through its `created` column: a word of its own, yet the record still qualifies the junction.
    const link = r.hits.find((h) => h.qualifiedName === 'public.link');
    assert.ok(link?.why.some((w) => w.startsWith('qualifies l_artist_recording')), reasons(r.hits));
    assert.ok(names(r.hits).includes('link_type'), reasons(r.hits));
  });

  it('brings the relationship record and its type along with a junction that rose after the first look at junctions', () => {
    // Many code lists share the word `language`; the junction to the artist named rises only with the way to them.
    const tables = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('work', ['id', 'name', 'iswc']),
      table('language', ['id', 'name', 'iso_code']),
      table('work_language', ['work_id', 'language_id'], [fk(['work_id'], 'work'), fk(['language_id'], 'language')]),
      table('link_type', ['id', 'name', 'description']),
      table('link', ['id', 'link_type', 'begin_date_year'], [fk(['link_type'], 'link_type')]),
      table('recording', ['id', 'name', 'length']),
      table('url', ['id', 'url']),
      linkJunction('artist', 'work'),
      linkJunction('recording', 'work'),
      table('editor', ['id', 'name', 'email', 'website']),
      table('editor_language', ['editor', 'language', 'fluency'], [fk(['editor'], 'editor'), fk(['language'], 'language')]),
      table('release', ['id', 'name', 'language', 'script', 'barcode'], [fk(['language'], 'language')]),
      table('recording_attribute', ['recording', 'attribute_text'], [fk(['recording'], 'recording')]),
      table('track', ['id', 'recording', 'name', 'length'], [fk(['recording'], 'recording')]),
      ...['place', 'label', 'series', 'event', 'instrument', 'area', 'genre', 'medium'].flatMap((e) => [
        table(e, ['id', 'name', 'comment']),
        table(`${e}_language`, [e, 'language', 'note'], [fk([e], e), fk(['language'], 'language')]),
      ]),
      linkJunction('artist', 'url'),
    ]);
    // Seven tables answer it: the language the value names qualifies the work's languages (RANKING.impliedQualifiers).
    const r = buildSearchIndex({ tables }).search("Which of Shakira's works are in Spanish?", { limit: 7 });
    const top = names(r.hits);
    assert.ok(top.includes('l_artist_work'), reasons(r.hits));
    for (const t of ['link', 'link_type', 'language']) assert.ok(top.includes(t), `${t} missing:\n${reasons(r.hits)}`);
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.link')!.why.includes('qualifies l_artist_work'), reasons(r.hits));
  });

  it('completes the path from a release to the table of people for an artist named in the possessive', () => {
    const r = buildSearchIndex({ tables: catalog() }).search("How many barcodes do Radiohead's releases have?", { limit: 5 });
    const top = names(r.hits);
    assert.equal(top[0], 'release', top.join(', '));
    for (const t of ['artist_credit', 'artist_credit_name', 'artist']) assert.ok(top.includes(t), `${t} missing from ${top.join(', ')}`);
  });
});

describe('search: people whose names live in another table', () => {
  // AdventureWorks' shape: a salesperson is an employee, an employee is a person, and only `person` holds names.
  const key = ['businessentityid'];
  const catalog = (): SearchTableInput[] =>
    src([
      table('person', ['businessentityid', 'persontype', 'title', 'firstname', 'middlename', 'lastname', 'emailpromotion']),
      table('employee', ['businessentityid', 'nationalidnumber', 'jobtitle', 'birthdate', 'hiredate', 'salariedflag'], [fk(key, 'person', key)]),
      table('salesterritory', ['territoryid', 'name', 'countryregioncode', 'salesytd']),
      table('salesperson', ['businessentityid', 'territoryid', 'salesquota', 'bonus', 'commissionpct', 'salesytd', 'saleslastyear', 'rowguid', 'modifieddate'], [fk(key, 'employee', key), fk(['territoryid'], 'salesterritory', ['territoryid'])]),
      table('salesorderheader', ['salesorderid', 'orderdate', 'salespersonid', 'territoryid', 'totaldue'], [fk(['salespersonid'], 'salesperson', key), fk(['territoryid'], 'salesterritory', ['territoryid'])]),
      table('salespersonquotahistory', ['businessentityid', 'quotadate', 'salesquota'], [fk(key, 'salesperson', key)]),
      table('product', ['productid', 'name', 'listprice', 'color']),
      table('store', ['businessentityid', 'name', 'salespersonid'], [fk(['salespersonid'], 'salesperson', key)]),
    ]);

  it('brings the table of names when the question asks for salespeople by name', () => {
    const index = buildSearchIndex({ tables: catalog() });
    const r = index.search('top 5 salespeople by quota this year', { limit: 4 });
    const top = names(r.hits);
    assert.equal(top[0], 'salesperson', top.join(', '));
    assert.ok(top.includes('person'), top.join(', '));
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.person')!.why.some((w) => w === 'holds the names of salesperson'));
    // A figure for each of them lists them, by name.
    const each = index.search('commission rate for each sales rep', { limit: 4 });
    assert.ok(each.hits.find((h) => h.qualifiedName === 'public.person')?.why.includes('holds the names of salesperson'), names(each.hits).join(', '));
    // A count asks for no names: the people's table is not brought for them.
    const count = index.search('how many salespeople have a quota above 300000', { limit: 8 });
    assert.ok(!count.hits.some((h) => h.why.some((w) => w.startsWith('holds the names of'))), names(count.hits).join(', '));
  });

  it('brings the table of names for a kind of person asked for by name that only the rows asked for raised', () => {
    // `employee` leads nothing by its words; "which employee" raises it late, and its names still come along.
    const tables = src([
      table('person', ['business_entity_id', 'first_name', 'last_name', 'email_promotion']),
      table('employee', ['business_entity_id', 'login_id', 'job_title', 'hire_date'], [fk(['business_entity_id'], 'person')]),
      table('vendor', ['business_entity_id', 'name', 'credit_rating']),
      table('product', ['product_id', 'name', 'list_price']),
      table('product_vendor', ['product_id', 'vendor_id', 'average_lead_time', 'standard_price'], [fk(['product_id'], 'product'), fk(['vendor_id'], 'vendor')]),
      table('purchase_order_header', ['purchase_order_id', 'employee_id', 'vendor_id', 'order_date', 'status'], [fk(['employee_id'], 'employee'), fk(['vendor_id'], 'vendor')]),
      table('purchase_order_detail', ['purchase_order_id', 'product_id', 'received_qty', 'rejected_qty'], [fk(['purchase_order_id'], 'purchase_order_header'), fk(['product_id'], 'product')]),
      table('sales_order_header', ['sales_order_id', 'purchase_order_number', 'order_date']),
      table('sales_order_detail', ['sales_order_id', 'product_id', 'order_qty'], [fk(['sales_order_id'], 'sales_order_header'), fk(['product_id'], 'product')]),
      table('shopping_cart_item', ['id', 'product_id', 'quantity', 'date_created'], [fk(['product_id'], 'product')]),
    ]);
    const q = 'For purchase orders from the vendor with the longest average lead time, which products were received, how many were rejected, and which employee placed each order?';
    const r = buildSearchIndex({ tables }).search(q, { limit: 7 });
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.employee')?.why.some((w) => w.startsWith('the rows asked for')), reasons(r.hits));
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.person')?.why.includes('holds the names of employee'), reasons(r.hits));
  });

  it('leaves tables that name their own people, and junctions, to themselves', () => {
    const tables = src([
      table('actor', ['actor_id', 'first_name', 'last_name']),
      table('film', ['film_id', 'title', 'release_year']),
      table('film_actor', ['actor_id', 'film_id'], [fk(['actor_id'], 'actor', ['actor_id']), fk(['film_id'], 'film', ['film_id'])]),
      table('staff', ['staff_id', 'first_name', 'last_name', 'store_id'], [fk(['store_id'], 'store', ['store_id'])]),
      table('store', ['store_id', 'manager_staff_id'], [fk(['manager_staff_id'], 'staff', ['staff_id'])]),
      // "date" is also a person one goes out with, but not first: this table is about days.
      table('staff_hire_date', ['staff_id', 'year', 'month', 'day'], [fk(['staff_id'], 'staff', ['staff_id'])]),
    ]);
    const index = buildSearchIndex({ tables });
    for (const q of ['which film actors appear in the most titles', 'which hire date month is the most common']) {
      const r = index.search(q, { limit: 5 });
      assert.ok(!r.hits.some((h) => h.why.some((w) => w.startsWith('holds the names of'))), `${q}: ${r.hits.map((h) => `${h.qualifiedName}: ${h.why.join('/')}`).join(' | ')}`);
    }
  });
});

describe('search: typed relationships beside the plain way', () => {
  // A hub of typed relationships: `link` → `link_type`, and `l_<a>_<b>` junctions pointing at `link`.
  const catalog = (): SearchTableInput[] => {
    return src([
      table('link_type', ['id', 'name', 'description']),
      table('link', ['id', 'link_type', 'begin_date_year'], [fk(['link_type'], 'link_type')]),
      table('area', ['id', 'name']),
      table('artist', ['id', 'name', 'area'], [fk(['area'], 'area')]),
      table('place', ['id', 'name', 'area'], [fk(['area'], 'area')]),
      table('recording', ['id', 'name', 'length']),
      table('release', ['id', 'name', 'barcode']),
      table('medium', ['id', 'release', 'position', 'format'], [fk(['release'], 'release')]),
      table('track', ['id', 'recording', 'medium', 'position', 'name'], [fk(['recording'], 'recording'), fk(['medium'], 'medium')]),
      linkJunction('area', 'artist'),
      linkJunction('recording', 'release'),
      linkJunction('place', 'recording'),
      linkJunction('artist', 'place'),
      linkJunction('artist', 'recording'),
      linkJunction('artist', 'artist'),
    ]);
  };

  it('discounts a typed relationship whose ends also join the plain way, in a join more', () => {
    // Without `track`, `l_recording_release` is the only way between recordings and releases.
    const ratio = (tables: SearchTableInput[]): number => {
      const hits = buildSearchIndex({ tables }).search('recordings on releases', { limit: 8 }).hits;
      const score = (t: string): number => hits.find((h) => h.qualifiedName === `public.${t}`)?.score ?? 0;
      return score('l_recording_release') / score('release');
    };
    const plain = ratio(catalog());
    const only = ratio(catalog().filter((t) => t.table.name !== 'track'));
    assert.ok(plain < 0.7 * only, `with the plain way ${plain.toFixed(3)}, without ${only.toFixed(3)}`);
    // Where the typed relationship is the only way, it keeps its place: places where recordings were made.
    const place = names(buildSearchIndex({ tables: catalog() }).search('places of recordings', { limit: 4 }).hits);
    assert.ok(place.includes('l_place_recording'), place.join(', '));
  });

  it('does not count a shared target as a way between two tables ("artist" and "place" both in an area)', () => {
    const index = buildSearchIndex({ tables: catalog() });
    const score = (q: string, t: string): number => index.search(q, { limit: 20 }).hits.find((h) => h.qualifiedName === `public.${t}`)?.score ?? 0;
    // l_area_artist has a plain way (artist.area); l_artist_place has none, though both point at area.
    const side = score('artist area', 'l_area_artist') / score('artist area', 'artist');
    const only = score('artist place', 'l_artist_place') / score('artist place', 'artist');
    assert.ok(side < 0.5 * only, `l_area_artist ${side.toFixed(3)} vs l_artist_place ${only.toFixed(3)}`);
  });
});

describe('search: the code list behind a named column', () => {
  it('brings the code list a leading table points at by a column the question names', () => {
    const index = buildSearchIndex({
      tables: src([
        table('release_group', ['id', 'name', 'type']),
        table('release_packaging', ['id', 'name', 'description']),
        table('release_status', ['id', 'name', 'description']),
        table('release', ['id', 'name', 'barcode', 'release_group', 'packaging', 'status'], [fk(['release_group'], 'release_group'), fk(['packaging'], 'release_packaging'), fk(['status'], 'release_status')]),
        table('area', ['id', 'name', 'begin_date_year']),
        table('country_area', ['area'], [fk(['area'], 'area')]),
        table('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release'), fk(['country'], 'country_area')]),
        table('label', ['id', 'name', 'label_code', 'begin_date_year']),
        table('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
        table('area_tag', ['area', 'tag', 'count'], [fk(['area'], 'area')]),
        table('label_tag', ['label', 'tag', 'count'], [fk(['label'], 'label')]),
        table('label_type', ['id', 'name', 'description']),
        table('label_alias', ['id', 'label', 'name', 'begin_date_year'], [fk(['label'], 'label')]),
        table('release_unknown_country', ['release', 'date_year'], [fk(['release'], 'release')]),
        table('release_group_primary_type', ['id', 'name']),
        table('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release')]),
        table('release_meta', ['id', 'date_added', 'amazon_asin'], [fk(['id'], 'release')]),
        table('l_area_release', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'area'), fk(['entity1'], 'release')]),
        table('l_label_release', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'label'), fk(['entity1'], 'release')]),
      ]),
    });
    const q = 'List every release in the group with its country, release date, label, catalogue number and packaging';
    const rank = (on: number): { at: number; why: readonly string[] } =>
      withRanking('attributeLookups', on, () => {
        const hits = index.search(q, { limit: 11 }).hits;
        const at = hits.findIndex((h) => h.qualifiedName === 'public.release_packaging');
        return { at, why: at < 0 ? [] : hits[at]!.why };
      });
    // The release's `packaging` column names the code list; without the rule only the name of the list matched.
    const before = rank(0);
    const after = rank(1);
    assert.ok(!before.why.some((w) => w.startsWith('holds the')), before.why.join('; '));
    assert.ok(after.why.includes("holds the 'packaging' of release"), after.why.join('; '));
    assert.ok(after.at >= 0 && after.at < 5, String(after.at));
  });
});

describe('search: a question that asks when', () => {
  // A shipment holds no time of its own: when it left is kept per port in `shipment_departure` (a date in its parts),
  // and `shipment_meta` only stamps when the row was written.
  const index = buildSearchIndex({
    tables: src([
      table('shipment', ['id', 'tracking_code', 'weight']),
      table('shipment_departure', ['shipment', 'port', 'date_year', 'date_month', 'date_day'], [fk(['shipment'], 'shipment')]),
      table('shipment_meta', ['id', 'date_added', 'carrier_note'], [fk(['id'], 'shipment')]),
      table('shipment_tag', ['shipment', 'tag', 'count'], [fk(['shipment'], 'shipment')]),
      table('customer', ['id', 'name', 'email']),
      table('invoice', ['id', 'customer', 'issued_on', 'total'], [fk(['customer'], 'customer')]),
    ]),
  });
  const q = 'I have a parcel with tracking code ZX-4471 on it. Which shipment is it and when did it leave?';

  it('brings the table that holds a time of the rows asked about, the date in its parts before a stamp of the row', () => {
    const hits = (on: number) => withRanking('askedTime', on, () => index.search(q, { limit: 6 }).hits);
    const share = (hs: ReturnType<typeof hits>): number => (hs.find((h) => h.qualifiedName === 'public.shipment_departure')?.score ?? 0) / hs[0]!.score;
    const before = hits(0);
    const after = hits(1);
    assert.equal(after[0]?.qualifiedName, 'public.shipment');
    assert.equal(after[1]?.qualifiedName, 'public.shipment_departure', names(after).join(', '));
    assert.ok(after[1]!.why.includes("holds the 'when' of shipment"), after[1]!.why.join('; '));
    // Without the rule the departures are only a neighbour of the shipment, no nearer than its tags or its stamp.
    assert.ok(!before.some((h) => h.why.some((w) => w.includes("'when'"))), before.map((h) => h.why.join('; ')).join(' / '));
    assert.ok(share(after) > 2 * share(before), `${share(before).toFixed(3)} → ${share(after).toFixed(3)}`);
    const meta = after.find((h) => h.qualifiedName === 'public.shipment_meta');
    assert.ok(meta === undefined || !meta.why.some((w) => w.includes("'when'")), meta?.why.join('; '));
  });

  it('reads "when" only as a question: a clause ("what happens when") and a table with its own dates ask for nothing more', () => {
    const clause = withRanking('askedTime', 1, () => index.search('what happens to a shipment when the tracking code is wrong', { limit: 6 }).hits);
    assert.ok(!clause.some((h) => h.why.some((w) => w.includes("'when'"))), clause.map((h) => h.why.join('; ')).join(' / '));
    const own = withRanking('askedTime', 1, () => index.search('when was the invoice issued', { limit: 6 }).hits);
    assert.equal(own[0]?.qualifiedName, 'public.invoice');
    assert.ok(!own.some((h) => h.why.some((w) => w.includes("'when'"))), own.map((h) => h.why.join('; ')).join(' / '));
  });
});
