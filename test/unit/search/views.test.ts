import assert from 'node:assert/strict';
import type { TableInfo } from '../../../src/core/catalog/model';
import { buildSearchIndex, deserializeIndex, findMentions, loadLexicon, serializeIndex, type SearchTableInput } from '../../../src/core/search/index';
import { catalogBuilders, fk, keyed, names, src, withRanking } from './builders';

const { column, table } = catalogBuilders((name) => (/id$/.test(name) ? 'integer' : 'text'));

const view = (name: string, definition: string, columns: string[], schema = 'public', kind: TableInfo['kind'] = 'view'): TableInfo => ({
  ...table(name, columns),
  schema,
  kind,
  viewDefinition: definition,
});

/** A rental shop: films, customers in cities, rentals; with the views a reporting layer adds. */
function shop(): TableInfo[] {
  return [
    table('city', ['city_id', 'city', column('country', { stats: null, codeValues: ['Canada', 'France'] } as never)]),
    table('customer', ['customer_id', 'first_name', 'last_name', 'city_id'], [fk(['city_id'], 'city', ['city_id'])]),
    table('film', ['film_id', 'title', column('rating', { enumLabels: ['G', 'PG', 'R'] })]),
    table('rental', ['rental_id', 'customer_id', 'film_id', 'rental_date'], [fk(['customer_id'], 'customer', ['customer_id']), fk(['film_id'], 'film', ['film_id'])]),
  ];
}

/** Views that only rename one relation's columns, as some ports add for every table (`pe.a` for `person.address`). */
const mirrors = (): TableInfo[] => [
  view('c', ' SELECT customer.customer_id AS id,\n    customer.customer_id,\n    customer.first_name,\n    customer.last_name,\n    customer.city_id\n   FROM public.customer;', ['id', 'customer_id', 'first_name', 'last_name', 'city_id'], 'alias'),
  view('f', 'select `shop`.`film`.`film_id` AS `id`,`shop`.`film`.`title` AS `title`,`shop`.`film`.`rating` AS `rating` from `shop`.`film`', ['id', 'title', 'rating'], 'alias'),
  view('film_titles', 'SELECT title FROM film', ['title']),
];

/** A reporting view that joins several relations: derived, but more than a renaming. */
const customerList = (): TableInfo =>
  view(
    'customer_list',
    ' SELECT cu.customer_id AS id,\n    cu.first_name || \' \' || cu.last_name AS name,\n    ci.city\n   FROM customer cu\n     JOIN city ci ON cu.city_id = ci.city_id;',
    ['id', 'name', 'city', 'first_name', 'last_name', 'film_title'],
  );

const scoresOf = (tables: SearchTableInput[], q: string): Map<string, number> => new Map(buildSearchIndex({ tables }).search(q, { limit: 20 }).hits.map((h) => [h.qualifiedName, h.score]));

describe('search: views', () => {
  it('leaves out views that only rename one relation: they never take a place, and the ranking is the same as without them', () => {
    const q = 'which customers rented the most films';
    const without = scoresOf(src(shop()), q);
    const withMirrors = buildSearchIndex({ tables: src([...shop(), ...mirrors()]) }).search(q, { limit: 20 });
    assert.ok(withMirrors.hits.length > 0);
    for (const h of withMirrors.hits) assert.ok(!['alias.c', 'alias.f', 'public.film_titles'].includes(h.qualifiedName), `a mirror view was returned: ${h.qualifiedName}`);
    assert.deepEqual(new Map(withMirrors.hits.map((h) => [h.qualifiedName, h.score])), without);
  });

  it('finds a mirror again after the index is persisted and read back', () => {
    const tables = src([...shop(), ...mirrors()]);
    const bytes = serializeIndex(buildSearchIndex({ tables }));
    const loaded = deserializeIndex(bytes, { tables });
    assert.ok(loaded !== null);
    const hits = names(loaded.search('film titles', { limit: 20 }).hits);
    assert.ok(hits.includes('film'), hits.join(', '));
    assert.ok(!hits.includes('film_titles') && !hits.includes('alias.f'), hits.join(', '));
  });

  it('keeps a view that filters, joins or computes: it is not a mirror', () => {
    const filtered = view('rated_r', "SELECT film.film_id, film.title FROM film WHERE film.rating = 'R'", ['film_id', 'title']);
    const hits = names(buildSearchIndex({ tables: src([...shop(), filtered, customerList()]) }).search('rated r films and the customer list', { limit: 20 }).hits);
    assert.ok(hits.includes('rated_r'), hits.join(', '));
    assert.ok(hits.includes('customer_list'), hits.join(', '));
  });

  it('ranks a reporting view after the relations it is computed from, unless the question names it', () => {
    const report = view(
      'customer_film_report',
      'SELECT c.customer_id, c.first_name AS customer_name, f.title AS film_title, count(*) AS rented_films FROM rental r JOIN customer c USING (customer_id) JOIN film f USING (film_id) GROUP BY 1, 2, 3',
      ['customer_id', 'customer_name', 'film_id', 'film_title', 'rented_films'],
    );
    const index = buildSearchIndex({ tables: src([...shop(), customerList(), report]) });
    const hits = names(index.search('which films did each customer rent', { limit: 10 }).hits);
    for (const base of ['customer', 'film', 'rental']) assert.ok(hits.indexOf(base) >= 0 && hits.indexOf(base) < hits.indexOf('customer_film_report'), hits.join(', '));
    const summary = view('rental_summary', 'SELECT f.title, count(*) AS rentals FROM rental r JOIN film f ON f.film_id = r.film_id GROUP BY f.title', ['title', 'rentals']);
    const named = buildSearchIndex({ tables: src([...shop(), customerList(), summary]) }).search('the rental summary per film', { limit: 5 }).hits;
    assert.ok(names(named).slice(0, 3).includes('rental_summary'), named.map((h) => `${h.qualifiedName} ${h.score}: ${h.why.join('; ')}`).join(' | '));
  });

  it('counts only tables in how common a word is: views that repeat their relations\' words barely change a table\'s score', () => {
    const report = view(
      'customer_film_report',
      'SELECT c.customer_id, c.first_name, c.last_name, f.title AS film_title, count(*) AS rented_films FROM rental r JOIN customer c USING (customer_id) JOIN film f USING (film_id) GROUP BY 1, 2, 3, 4',
      ['customer_id', 'first_name', 'last_name', 'film_title', 'rented_films'],
    );
    for (const q of ['film titles by rating', 'customers in Canada', 'rental dates of each customer', 'first and last names of customers']) {
      const without = [...scoresOf(src(shop()), q)];
      const withViews = [...scoresOf(src([...shop(), customerList(), report]), q)].filter(([name]) => !['public.customer_list', 'public.customer_film_report'].includes(name));
      assert.deepEqual(withViews.map(([name]) => name), without.map(([name]) => name).slice(0, withViews.length), q);
      // The same weights for the same words (within a few percent, or a hundredth of the top for a hit that only a
      // related word reaches: a view still takes part in the graph signals).
      for (const [i, [name, score]] of withViews.entries()) assert.ok(Math.abs(score - without[i]![1]) <= Math.max(0.08 * without[i]![1], 0.01), `${q}: ${name} ${score} vs ${without[i]![1]}`);
    }
  });

  it('follows an answer that reached views only with the central tables, as a weak match: never a dead end among views', () => {
    const store = view('store_demographics', "SELECT c.customer_id, count(*) FILTER (WHERE r.channel = 'web') AS internet_sales FROM customer c JOIN rental r USING (customer_id) GROUP BY 1", ['customer_id', 'internet_sales']);
    const res = buildSearchIndex({ tables: src([...shop(), store]) }).search('internet sales', { limit: 4 });
    const top = names(res.hits);
    assert.equal(top[0], 'store_demographics', top.join(', '));
    // The entities of the catalog, most joined first.
    assert.deepEqual(top.slice(1), ['customer', 'city'], top.join(', '));
    for (const h of res.hits.slice(1)) assert.ok(h.why[0]!.startsWith('no word of the question reached a table'), h.why.join('; '));
    assert.equal(res.fallback?.reason, 'weak_match');
  });

  it('keeps an unnamed view after every table the answer has room for, not only after the relations it reads', () => {
    const tables = src([
      table('staff', ['staff_id', 'first_name', 'last_name', 'picture']),
      table('customer', ['customer_id', 'first_name', 'last_name']),
      table('language', ['language_id', 'name']),
      table('category', ['category_id', 'name']),
      table('actor', ['actor_id', 'first_name', 'last_name']),
      table('film', ['film_id', 'title', 'rental_rate', 'rental_duration', 'language_id'], [fk(['language_id'], 'language', ['language_id'])]),
      table('film_actor', ['actor_id', 'film_id'], [fk(['actor_id'], 'actor', ['actor_id']), fk(['film_id'], 'film', ['film_id'])]),
      table('film_category', ['film_id', 'category_id'], [fk(['film_id'], 'film', ['film_id']), fk(['category_id'], 'category', ['category_id'])]),
      table('inventory', ['inventory_id', 'film_id'], [fk(['film_id'], 'film', ['film_id'])]),
      table('rental', ['rental_id', 'inventory_id', 'customer_id', 'staff_id'], [fk(['inventory_id'], 'inventory', ['inventory_id']), fk(['customer_id'], 'customer', ['customer_id']), fk(['staff_id'], 'staff', ['staff_id'])]),
      table('payment', ['payment_id', 'rental_id', 'customer_id', 'staff_id', 'amount'], [fk(['rental_id'], 'rental', ['rental_id']), fk(['customer_id'], 'customer', ['customer_id']), fk(['staff_id'], 'staff', ['staff_id'])]),
      view(
        'sales_by_film_category',
        'SELECT c.name AS category, sum(p.amount) AS total_sales FROM payment p JOIN rental r ON p.rental_id = r.rental_id JOIN inventory i ON r.inventory_id = i.inventory_id JOIN film f ON i.film_id = f.film_id JOIN film_category fc ON f.film_id = fc.film_id JOIN category c ON fc.category_id = c.category_id GROUP BY c.name',
        ['category', 'total_sales'],
      ),
    ]);
    const index = buildSearchIndex({ tables });
    const q = "Show payments taken by each cashier where the amount doesn't match the film's rental rate.";
    const all = names(index.search(q, { limit: 20 }).hits);
    const tablesFound = all.filter((n) => n !== 'sales_by_film_category');
    assert.ok(tablesFound.length >= 8 && all.includes('sales_by_film_category'), all.join(', '));
    // Every table the question reached comes first, whatever the room; the view fills the place after them.
    assert.deepEqual(all, [...tablesFound, 'sales_by_film_category'], all.join(', '));
    assert.deepEqual(names(index.search(q, { limit: 8 }).hits), tablesFound.slice(0, 8));
  });

  it('keeps a view after every relation it reads that is in the answer, even one its own columns outscore', () => {
    // Pagila's `sales_by_store` sums payments of customers per store: for "revenue per store" its `total_sales`
    // matches better than `customer` does, yet it reads `customer`.
    const tables = src([
      table('address', ['address_id', 'address', 'district', 'phone']),
      table('store', ['store_id', 'manager_staff_id', 'address_id'], [fk(['address_id'], 'address', ['address_id'])]),
      table('customer', ['customer_id', 'first_name', 'last_name', 'active', 'address_id', 'store_id'], [fk(['address_id'], 'address', ['address_id']), fk(['store_id'], 'store', ['store_id'])]),
      table('payment', ['payment_id', 'customer_id', 'amount', 'payment_date'], [fk(['customer_id'], 'customer', ['customer_id'])]),
      view('sales_by_store', 'SELECT s.store_id, sum(p.amount) AS total_sales FROM payment p JOIN customer c ON p.customer_id = c.customer_id JOIN store s ON c.store_id = s.store_id GROUP BY s.store_id', ['store', 'manager', 'total_sales']),
    ]);
    const index = buildSearchIndex({ tables });
    const hits = names(index.search('revenue per store', { limit: 10 }).hits);
    for (const base of ['store', 'payment', 'customer']) assert.ok(hits.indexOf(base) >= 0 && hits.indexOf(base) < hits.indexOf('sales_by_store'), hits.join(', '));
    // Named, it keeps its place.
    assert.equal(names(index.search('total sales by store', { limit: 10 }).hits)[0], 'sales_by_store');
  });

  it('does not take people or values from a view: the relations it copies hold them', () => {
    const tables = src([...shop(), customerList()]);
    const people = buildSearchIndex({ tables }).search('How many films did Lewis Hamilton rent?', { limit: 10 }).hits;
    const list = people.find((h) => h.qualifiedName === 'public.customer_list');
    assert.ok(list === undefined || !list.why.some((w) => w.startsWith('holds people')), list?.why.join('; '));
    assert.ok(people.find((h) => h.qualifiedName === 'public.customer')!.why.some((w) => w.startsWith('holds people')), people.map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join(' | '));
  });
});

describe('search: places after an article', () => {
  const lexicon = loadLexicon();
  it('reads "in the Netherlands" as a place, as "in Canada" is', () => {
    assert.deepEqual(findMentions('How many customers live in the Netherlands?', lexicon), [{ kind: 'place', text: 'Netherlands' }]);
    assert.deepEqual(findMentions('How many customers live in Canada?', lexicon), [{ kind: 'place', text: 'Canada' }]);
    assert.deepEqual(findMentions('Who bought the Deluxe Edition?', lexicon).filter((m) => m.kind === 'place'), []);
  });
});

describe('search: a table no key joins, in a catalog that keys join', () => {
  // Customers, their orders and the lines of an order are joined by keys; a flat copy of orders with the customer's
  // name sits beside them, joined to nothing.
  const tables = (copy: TableInfo = table('customer_order', ['customer_id', 'order_id', 'customer_name', 'order_date', 'order_total'])): TableInfo[] => [
    table('customer', ['customer_id', 'name', 'email', 'city']),
    table('product', ['product_id', 'name', 'list_price']),
    table('orders', ['order_id', 'customer_id', 'order_date', 'status'], [fk(['customer_id'], 'customer', ['customer_id'])]),
    table('order_line', ['order_id', 'product_id', 'quantity', 'unit_price'], [fk(['order_id'], 'orders', ['order_id']), fk(['product_id'], 'product', ['product_id'])]),
    copy,
  ];
  const order = (index: ReturnType<typeof buildSearchIndex>, q: string, share: number): string[] => withRanking('apart', share, () => names(index.search(q, { limit: 5 }).hits));
  const before = (list: string[], a: string, b: string): boolean => list.indexOf(a) >= 0 && (list.indexOf(b) < 0 || list.indexOf(a) < list.indexOf(b));

  it('comes after the joined tables the question reaches', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const q = 'customer orders with their dates';
    // Before: the copy, whose name is the question's two nouns, came before the customers.
    assert.ok(before(order(index, q, 1), 'customer_order', 'customer'), order(index, q, 1).join(', '));
    // After: the orders and their customers come first.
    assert.ok(before(order(index, q, 0.6), 'customer', 'customer_order'), order(index, q, 0.6).join(', '));
  });

  it('is what a question that names what sets it apart asks for', () => {
    const index = buildSearchIndex({ tables: src(tables(table('order_archive', ['order_id', 'customer_id', 'order_date', 'status', 'archived_at']))) });
    assert.equal(order(index, 'archived orders and their status', 0.6)[0], 'order_archive');
    assert.ok(before(order(index, 'orders and their status', 0.6), 'orders', 'order_archive'));
  });

  it('is no table apart where keys join few of the tables', () => {
    const index = buildSearchIndex({ tables: src(tables().map((t) => ({ ...t, foreignKeys: [] }))) });
    assert.ok(before(order(index, 'customer orders with their dates', 0.6), 'customer_order', 'customer'), order(index, 'customer orders with their dates', 0.6).join(', '));
  });
});

describe('search: a copy of other tables kept beside the model', () => {
  // Artists credited on releases; a cache of which artist is on which release repeats the release's name and barcode.
  const tables = (): TableInfo[] => [
    table('artist', ['id', 'name', 'sort_name', 'comment']),
    table('artist_credit', ['id', 'name', 'artist_count']),
    table('artist_credit_name', ['artist_credit', 'position', 'artist', 'name', 'join_phrase'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
    table('release', ['id', 'name', 'barcode', 'artist_credit', 'comment'], [fk(['artist_credit'], 'artist_credit')]),
    table('label', ['id', 'name', 'label_code']),
    table('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
    table('artist_release', ['is_track_artist', 'artist', 'first_release_date', 'catalog_numbers', 'country_code', 'barcode', 'name', 'release'], [fk(['artist'], 'artist'), fk(['release'], 'release')]),
  ];
  const rank = (index: ReturnType<typeof buildSearchIndex>, q: string, on: number): string[] => withRanking('copies', on, () => names(index.search(q, { limit: 6 }).hits));

  it('comes after every other table the question reached', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const q = 'barcodes of the releases by each artist';
    // Before: the copy, named for both nouns of the question and holding a barcode, came before the artists.
    const before = rank(index, q, 0);
    assert.ok(before.indexOf('artist_release') >= 0 && before.indexOf('artist_release') < before.indexOf('artist'), before.join(', '));
    // After: the releases, the artists and the credit between them come first; the copy, if at all, last.
    const after = rank(index, q, 1);
    assert.ok(['release', 'artist', 'artist_credit', 'artist_credit_name'].every((t) => after.indexOf(t) >= 0 && (after.indexOf('artist_release') < 0 || after.indexOf(t) < after.indexOf('artist_release'))), after.join(', '));
  });

  it('leaves alone a junction that keeps a name of its own', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    // The name an artist is credited under is no copy of the artist's name.
    assert.ok(rank(index, 'the names artists are credited under', 1).slice(0, 2).includes('artist_credit_name'), rank(index, 'the names artists are credited under', 1).join(', '));
  });
});

describe('search: the shared key of subtypes', () => {
  // People, vendors and stores are business entities: each row's key is the key of a row of `businessentity`, which
  // holds nothing else, and whose comment names its subtypes.
  const tables = (): TableInfo[] => [
    { ...keyed(table('businessentity', ['businessentityid', 'rowguid', 'modifieddate']), ['businessentityid']), comment: 'Source of the ID that connects vendors, customers, and employees with address and contact information.' },
    keyed(table('person', ['businessentityid', 'persontype', 'firstname', 'lastname'], [fk(['businessentityid'], 'businessentity', ['businessentityid'])]), ['businessentityid']),
    keyed(table('vendor', ['businessentityid', 'accountnumber', 'name', 'creditrating'], [fk(['businessentityid'], 'businessentity', ['businessentityid'])]), ['businessentityid']),
    keyed(table('store', ['businessentityid', 'name', 'demographics'], [fk(['businessentityid'], 'businessentity', ['businessentityid'])]), ['businessentityid']),
    keyed(table('purchaseorderheader', ['purchaseorderid', 'vendorid', 'orderdate', 'subtotal'], [fk(['vendorid'], 'vendor', ['businessentityid'])]), ['purchaseorderid']),
    keyed(table('shipmethod', ['shipmethodid', 'name', 'shipbase']), ['shipmethodid']),
  ];

  it('comes after the tables the question reached, its comment notwithstanding', () => {
    const index = buildSearchIndex({ tables: src(tables()) });
    const order = (on: number): string[] => withRanking('bareApart', on, () => names(index.search('vendors and the dates of their purchase orders', { limit: 5 }).hits));
    // Before: its comment's "vendors" put it right behind the vendors and their orders.
    assert.ok(order(0).indexOf('businessentity') >= 0 && order(0).indexOf('businessentity') < 3, order(0).join(', '));
    // After: it holds no data of its own; the vendors and their orders are the answer.
    const after = order(1);
    assert.ok(after.indexOf('businessentity') < 0 || ['person', 'store'].every((t) => after.indexOf(t) >= 0 && after.indexOf(t) < after.indexOf('businessentity')), after.join(', '));
    assert.deepEqual(order(1).slice(0, 2).sort(), ['purchaseorderheader', 'vendor']);
  });
});

describe('search: join paths among tables, not views', () => {
  it('completes the join set between the best tables even where views rank among them', () => {
    const tables: TableInfo[] = [
      table('customer', ['customer_id', 'first_name', 'last_name']),
      table('staff', ['staff_id', 'first_name', 'last_name']),
      table('film', ['film_id', 'title', 'rental_duration', 'rental_rate']),
      table('inventory', ['inventory_id', 'film_id', 'store_id'], [fk(['film_id'], 'film', ['film_id'])]),
      table('rental', ['rental_id', 'inventory_id', 'customer_id', 'staff_id', 'rental_date'], [fk(['inventory_id'], 'inventory', ['inventory_id']), fk(['customer_id'], 'customer', ['customer_id']), fk(['staff_id'], 'staff', ['staff_id'])]),
      table('payment', ['payment_id', 'customer_id', 'staff_id', 'rental_id', 'amount'], [fk(['customer_id'], 'customer', ['customer_id']), fk(['staff_id'], 'staff', ['staff_id']), fk(['rental_id'], 'rental', ['rental_id'])]),
      view('rental_by_category', 'SELECT c.name AS category, sum(p.amount) AS total_sales FROM payment p JOIN rental r ON true GROUP BY c.name', ['category', 'total_sales']),
      view('sales_by_store', 'SELECT s.store_id AS store, sum(p.amount) AS total_sales FROM payment p JOIN rental r ON true GROUP BY s.store_id', ['store', 'total_sales']),
      view('sales_by_film_category', 'SELECT c.name AS category, sum(p.amount) AS total_sales FROM payment p GROUP BY c.name', ['category', 'total_sales']),
    ];
    const index = buildSearchIndex({ tables: src(tables) });
    const q = 'Which renters keep DVDs longer than the allowed rental period, and how much have they paid in total?';
    const joined = (): boolean => index.search(q, { limit: 8 }).hits.some((h) => h.qualifiedName === 'public.inventory' && h.why.some((w) => /^joins (\w+ and film|film and \w+)$/.test(w)));
    assert.ok(joined(), index.search(q, { limit: 8 }).hits.map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join('\n'));
    assert.ok(!withRanking('pathViews', 0, joined));
  });
});
