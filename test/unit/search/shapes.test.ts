import assert from 'node:assert/strict';
import { buildSearchIndex } from '../../../src/core/search/index';
import { catalogBuilders, fk, names, reasons, src, withRanking } from './builders';

/**
 * Three ranking constants that no dev question of the retrieval benchmark moves (bench/results/retrieval-ablation.md),
 * each pinned here by the question shape it serves: the share a path needs to be completed (`pathFloor`), a label
 * that is also a word of the catalog's names (`codeValueNamed`), and a guessed label spread through other tables
 * (`guessSpread`).
 */
const { table, column } = catalogBuilders((n) =>
  /(?:^|_)id$/.test(n) ? 'integer' : /date|_at$/.test(n) ? 'timestamp' : /amount|total|rate|price/.test(n) ? 'numeric' : 'text',
);
const labelled = (name: string, codeValues: string[]) => column(name, { codeValues });
const scoreOf = (hits: ReadonlyArray<{ qualifiedName: string; score: number }>, t: string): number => hits.find((h) => h.qualifiedName === `public.${t}`)?.score ?? 0;

describe('search: shapes that pin ranking constants no benchmark question moves', () => {
  it('completes a join path to a table the question reaches only through a column (pathFloor)', () => {
    const index = buildSearchIndex({
      tables: src([
        table('customer', ['id', 'first_name', 'last_name', 'email', 'store_id'], [fk(['store_id'], 'store')]),
        table('store', ['id', 'address_id']),
        table('rental', ['id', 'rental_date', 'inventory_id', 'customer_id', 'return_date'], [fk(['inventory_id'], 'inventory'), fk(['customer_id'], 'customer')]),
        table('inventory', ['id', 'film_id', 'store_id'], [fk(['film_id'], 'film'), fk(['store_id'], 'store')]),
        table('film', ['id', 'title', 'description', 'rental_rate', 'length']),
        table('payment', ['id', 'amount', 'payment_date', 'customer_id', 'rental_id'], [fk(['customer_id'], 'customer'), fk(['rental_id'], 'rental')]),
        table('actor', ['id', 'first_name', 'last_name']),
        table('film_actor', ['actor_id', 'film_id'], [fk(['actor_id'], 'actor'), fk(['film_id'], 'film')]),
        table('staff', ['id', 'first_name', 'last_name', 'store_id'], [fk(['store_id'], 'store')]),
      ]),
    });
    const q = 'a customer named Mary Smith was charged twice: pull up her recent payments and what rentals they were for';
    const low = index.search(q, { limit: 6 });
    // `film` is reached by its `rental_rate` column alone, far below the best hit; it still ends a path from `rental`.
    assert.ok(names(low.hits).includes('film'), reasons(low.hits));
    assert.ok(names(low.hits).includes('inventory'), `the table between rental and film completes the path:\n${reasons(low.hits)}`);
    assert.ok(low.hits.find((h) => h.qualifiedName === 'public.inventory')!.why.some((w) => /joins rental and film/.test(w)), reasons(low.hits));
    // With a floor at half the best hit, the weak end no longer counts and the path is not completed.
    const high = withRanking('pathFloor', 0.5, () => index.search(q, { limit: 6 }));
    assert.ok(!names(high.hits).includes('inventory'), reasons(high.hits));
  });

  it('counts a label that is also a word of the catalog\'s names as that word first (codeValueNamed)', () => {
    const index = buildSearchIndex({
      tables: src([
        table('sales_order', ['id', 'order_date', 'customer_id', 'total'], [fk(['customer_id'], 'customer')]),
        table('customer', ['id', 'first_name', 'last_name']),
        table('department', ['id', labelled('name', ['Sales', 'Engineering', 'Marketing', 'Production']), 'group_name']),
        table('employee', ['id', 'job_title', 'hire_date']),
        table('employee_department_history', ['employee_id', 'department_id', 'start_date'], [fk(['employee_id'], 'employee'), fk(['department_id'], 'department')]),
        table('shift', ['id', labelled('name', ['Day', 'Evening', 'Night'])]),
        table('product', ['id', 'name', 'list_price']),
        table('sales_order_line', ['sales_order_id', 'product_id', 'quantity'], [fk(['sales_order_id'], 'sales_order'), fk(['product_id'], 'product')]),
      ]),
    });
    const ask = (q: string) => index.search(q, { limit: 6 });
    const whole = (q: string) => withRanking('codeValueNamed', 1, () => index.search(q, { limit: 6 }));
    // "sales" names `sales_order` and is a department's label: the orders come first, the department keeps a share.
    const named = ask('sales by customer');
    assert.equal(names(named.hits)[0], 'sales_order', reasons(named.hits));
    assert.ok(scoreOf(named.hits, 'department') < scoreOf(named.hits, 'sales_order') / 2, reasons(named.hits));
    // With the label's full weight, the department would lead a question about sales to customers.
    assert.equal(names(whole('sales by customer').hits)[0], 'department');
    // A label no name holds ("night") keeps its full weight either way: it is the value.
    assert.equal(scoreOf(ask('night shift employees').hits, 'shift'), scoreOf(whole('night shift employees').hits, 'shift'));
    assert.equal(names(ask('night shift employees').hits)[0], 'shift');
  });

  it('lets a guessed label reached through another table yield once three lists hold the guess (guessSpread)', () => {
    const index = buildSearchIndex({
      tables: src([
        table('film', ['id', 'title', 'release_year', 'status_id', 'packaging_id', 'language_id'], [
          fk(['status_id'], 'film_status'),
          fk(['packaging_id'], 'film_packaging'),
          fk(['language_id'], 'language'),
        ]),
        table('film_status', ['id', 'name']),
        table('film_packaging', ['id', 'name']),
        table('language', ['id', 'name']),
        table('film_mood', ['film_id', 'mood_id'], [fk(['film_id'], 'film'), fk(['mood_id'], 'mood')]),
        table('mood', ['id', 'name']),
        table('film_audience', ['film_id', 'audience_id'], [fk(['film_id'], 'film'), fk(['audience_id'], 'audience')]),
        table('audience', ['id', 'name']),
        table('studio', ['id', 'name', 'city']),
        table('film_studio', ['film_id', 'studio_id'], [fk(['film_id'], 'film'), fk(['studio_id'], 'studio')]),
      ]),
    });
    const spread = index.search('gritty films', { limit: 10 });
    const full = withRanking('guessSpread', 1, () => index.search('gritty films', { limit: 10 }));
    // "gritty" is in no table: any code list of films may hold it. The film's own lists keep the guess whole.
    for (const own of ['film_packaging', 'film_status', 'language']) assert.equal(scoreOf(spread.hits, own), scoreOf(full.hits, own), own);
    // `studio`, guessed only through the `film_studio` junction after those three, yields.
    assert.match(spread.hits.find((h) => h.qualifiedName === 'public.studio')?.why.join('; ') ?? '', /via film_studio/);
    assert.ok(scoreOf(spread.hits, 'studio') < scoreOf(full.hits, 'studio'), reasons(spread.hits));
    assert.equal(names(spread.hits).at(-1), 'studio', reasons(spread.hits));
    assert.notEqual(names(full.hits).at(-1), 'studio', reasons(full.hits));
  });
});
