import assert from 'node:assert/strict';
import type { Client } from 'pg';
import type { CompiledMetric, MetricRequest, SemanticCatalog, SemanticModel } from '../../../src/core/semantic';
import { compileMetric, loadSemanticFolder, semanticCatalog } from '../../../src/core/semantic';
import { introspectPostgres } from './support/introspect';
import { postgresServerAnswers } from '../../support/pg';
import { skipWithoutData } from '../../support/datasets';
import { ensurePagila, pagilaClient } from './support/pagila';

/**
 * Metrics over real Pagila in PostgreSQL, each checked against hand-written SQL. Needs PostgreSQL on
 * 127.0.0.1:5432 (user postgres); builds its own database `sb_sem_pagila` on first run.
 */

type Row = Record<string, unknown>;

/** Rows as sorted JSON lines with numbers rounded, so plans and hand-written SQL compare by value. */
function canon(rows: readonly Row[]): string[] {
  const norm = (v: unknown): unknown => {
    if (v instanceof Date) return v.toISOString();
    if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(Number(v).toFixed(6));
    if (typeof v === 'number') return Number(v.toFixed(6));
    return v;
  };
  return rows.map((r) => JSON.stringify(Object.values(r).map(norm))).sort();
}

describe('semantic layer on Pagila (PostgreSQL)', function () {
  this.timeout(120000);
  let client: Client;
  let model: SemanticModel;
  let catalog: SemanticCatalog;

  before(async function () {
    skipWithoutData(this, 'pagila/pagila-schema.sql', 'pagila/pagila-data.sql.gz');
    // Needs a real server (psql/pg_dump or server-wide settings); the embedded engine covers the rest of the suite.
    if (!(await postgresServerAnswers())) this.skip();
    await ensurePagila();
    client = pagilaClient();
    await client.connect();
    catalog = semanticCatalog(await introspectPostgres(client));
    const loaded = await loadSemanticFolder('test/fixtures/semantic/pagila', catalog);
    assert.deepEqual(loaded.diagnostics.filter((d) => d.severity === 'error'), []);
    model = loaded.model;
  });
  after(async () => {
    await client?.end();
  });

  const plan = (req: MetricRequest): CompiledMetric => {
    const r = compileMetric(model, catalog, req, 'postgres');
    assert.ok(r.ok, r.ok ? '' : `${r.kind}: ${r.message}`);
    return r;
  };
  const run = async (req: MetricRequest): Promise<{ plan: CompiledMetric; rows: Row[] }> => {
    const p = plan(req);
    const res = await client.query({ text: p.sql, values: [...p.params], rowMode: 'array' });
    return { plan: p, rows: res.rows.map((r: unknown[]) => ({ ...r })) };
  };
  const hand = async (sql: string, values: unknown[] = []): Promise<Row[]> => (await client.query({ text: sql, values, rowMode: 'array' })).rows.map((r: unknown[]) => ({ ...r }));
  const same = async (req: MetricRequest, sql: string, values: unknown[] = []): Promise<Row[]> => {
    const { rows } = await run(req);
    const expected = await hand(sql, values);
    assert.ok(expected.length > 0, 'the hand-written query returns rows');
    assert.deepEqual(canon(rows), canon(expected));
    return rows;
  };

  it('sums revenue overall', async () => {
    await same({ name: 'revenue' }, 'SELECT SUM(amount) FROM payment');
  });

  it('buckets revenue by month and by ISO week', async () => {
    await same({ name: 'revenue', time_grain: 'month' }, `SELECT date_trunc('month', payment_date), SUM(amount) FROM payment GROUP BY 1`);
    await same({ name: 'revenue', time_grain: 'week' }, `SELECT date_trunc('week', payment_date), SUM(amount) FROM payment GROUP BY 1`);
    await same({ name: 'revenue', time_grain: 'quarter' }, `SELECT date_trunc('quarter', payment_date), SUM(amount) FROM payment GROUP BY 1`);
  });

  it('groups through a many-to-one chain without rewriting (payment → customer → store via the customer route)', async () => {
    const rows = await same(
      { name: 'revenue', group_by: ['store.store_id'], via: ['payment_customer', 'customer_store'] },
      'SELECT s.store_id, SUM(p.amount) FROM payment p JOIN customer c ON c.customer_id = p.customer_id JOIN store s ON s.store_id = c.store_id GROUP BY 1',
    );
    assert.equal(rows.length, 2);
  });

  it('gives correct revenue per actor surname although payment → film_actor fans out, where the naive join inflates it', async () => {
    const { plan: p, rows } = await run({ name: 'revenue', group_by: ['actor.last_name'] });
    assert.deepEqual(p.fanOutJoins, ['film_actor_film']);
    assert.equal(p.fanOutStrategy, 'distinct_identity');
    assert.equal(p.degradation, undefined);
    // Correct: each payment counts once per surname of the actors in its film.
    const expected = await hand(`
      SELECT x.last_name, SUM(p.amount)
      FROM payment p
      JOIN (SELECT DISTINCT r.rental_id, a.last_name
              FROM rental r JOIN inventory i ON i.inventory_id = r.inventory_id
              JOIN film_actor fa ON fa.film_id = i.film_id JOIN actor a ON a.actor_id = fa.actor_id) x ON x.rental_id = p.rental_id
      GROUP BY 1`);
    // Payments for films without any actor fall in a NULL group under our LEFT JOINs; compare the surname groups.
    assert.deepEqual(canon(rows.filter((r) => r[0] !== null)), canon(expected));
    const naive = await hand(`
      SELECT a.last_name, SUM(p.amount) FROM payment p JOIN rental r ON r.rental_id = p.rental_id
      JOIN inventory i ON i.inventory_id = r.inventory_id JOIN film_actor fa ON fa.film_id = i.film_id
      JOIN actor a ON a.actor_id = fa.actor_id GROUP BY 1`);
    const ours = new Map(rows.map((r) => [r[0], Number(r[1])]));
    const inflated = naive.filter((r) => Number(r[1]) - ours.get(r[0])! > 0.001);
    assert.ok(inflated.length > 0, 'a film with two actors of the same surname makes the naive sum double count');
  });

  it('treats a filter on the fanned-out side as a semi-join: revenue from films featuring given surnames', async () => {
    const req: MetricRequest = { name: 'revenue', filters: [{ column: 'actor.last_name', op: 'in', value: ['KILMER', 'TEMPLE', 'DEGENERES'] }] };
    const { rows } = await run(req);
    const expected = await hand(`
      SELECT SUM(p.amount) FROM payment p
      WHERE EXISTS (SELECT 1 FROM rental r JOIN inventory i ON i.inventory_id = r.inventory_id JOIN film_actor fa ON fa.film_id = i.film_id
                    JOIN actor a ON a.actor_id = fa.actor_id WHERE r.rental_id = p.rental_id AND a.last_name IN ('KILMER', 'TEMPLE', 'DEGENERES'))`);
    assert.deepEqual(canon(rows), canon(expected));
    const naive = await hand(`
      SELECT SUM(p.amount) FROM payment p JOIN rental r ON r.rental_id = p.rental_id JOIN inventory i ON i.inventory_id = r.inventory_id
      JOIN film_actor fa ON fa.film_id = i.film_id JOIN actor a ON a.actor_id = fa.actor_id WHERE a.last_name IN ('KILMER', 'TEMPLE', 'DEGENERES')`);
    assert.ok(Number(naive[0]![0]) > Number(expected[0]![0]) + 1, `naive ${String(naive[0]![0])} should exceed correct ${String(expected[0]![0])}`);
  });

  it('gives correct average payment per film category and per actor (avg is fan-out sensitive)', async () => {
    await same(
      { name: 'average_payment', group_by: ['category.name'] },
      `SELECT c.name, AVG(p.amount) FROM payment p
         JOIN (SELECT DISTINCT r.rental_id, fc.category_id FROM rental r JOIN inventory i ON i.inventory_id = r.inventory_id
               JOIN film_category fc ON fc.film_id = i.film_id) x ON x.rental_id = p.rental_id
         JOIN category c ON c.category_id = x.category_id GROUP BY 1`,
    );
  });

  it('sums revenue per film category via rental → inventory → film → film_category', async () => {
    await same(
      { name: 'revenue', group_by: ['category.name'] },
      `SELECT c.name, SUM(p.amount) FROM payment p
         JOIN (SELECT DISTINCT r.rental_id, fc.category_id FROM rental r JOIN inventory i ON i.inventory_id = r.inventory_id
               JOIN film_category fc ON fc.film_id = i.film_id) x ON x.rental_id = p.rental_id
         JOIN category c ON c.category_id = x.category_id GROUP BY 1`,
    );
  });

  it('counts customers per rental month across a one-to-many join, once per customer and month', async () => {
    const { plan: p } = await run({ name: 'customer_count', time_dimension: 'rental.rental_date', time_grain: 'month' });
    assert.equal(p.fanOutStrategy, 'distinct_identity');
    await same(
      { name: 'customer_count', time_dimension: 'rental.rental_date', time_grain: 'month' },
      `SELECT date_trunc('month', r.rental_date), COUNT(DISTINCT c.customer_id) FROM customer c JOIN rental r ON r.customer_id = c.customer_id GROUP BY 1`,
    );
    const naive = await hand(`SELECT COUNT(*) FROM customer c JOIN rental r ON r.customer_id = c.customer_id`);
    assert.ok(Number(naive[0]![0]) > 599 * 5, 'the naive join counts rentals, not customers');
  });

  it('applies metric-level filters, request filters, order_by and limit', async () => {
    await same(
      { name: 'unreturned_rentals', group_by: ['customer.store_id'] },
      'SELECT c.store_id, COUNT(*) FROM rental r JOIN customer c ON c.customer_id = r.customer_id WHERE r.return_date IS NULL GROUP BY 1',
    );
    await same(
      { name: 'active_customers', filters: [{ column: 'customer.store_id', op: 'in', value: [1] }, { column: 'customer.last_name', op: 'not_in', value: ['SMITH', 'JONES'] }] },
      `SELECT COUNT(*) FROM customer WHERE active = 1 AND store_id IN (1) AND last_name NOT IN ('SMITH', 'JONES')`,
    );
    await same(
      { name: 'revenue_cents', filters: [{ column: 'payment.amount', op: 'gte', value: 5 }, { column: 'payment.payment_date', op: 'lt', value: '2022-03-01' }, { column: 'payment.staff_id', op: 'ne', value: 2 }] },
      `SELECT SUM(amount * 100) FROM payment WHERE amount >= 5 AND payment_date < '2022-03-01' AND staff_id <> 2`,
    );
    const { rows } = await run({ name: 'revenue', group_by: ['customer.customer_id'], order_by: [{ column: 'revenue', direction: 'desc' }], limit: 5 });
    const top = await hand('SELECT customer_id, SUM(amount) AS s FROM payment GROUP BY 1 ORDER BY s DESC, customer_id ASC LIMIT 5');
    assert.deepEqual(canon(rows), canon(top));
  });

  it('counts distinct renters and the largest payment per category without a rewrite (idempotent aggregates)', async () => {
    await same({ name: 'renting_customers', time_grain: 'month' }, `SELECT date_trunc('month', rental_date), COUNT(DISTINCT customer_id) FROM rental GROUP BY 1`);
    await same(
      { name: 'largest_payment', group_by: ['category.name'] },
      `SELECT c.name, MAX(p.amount) FROM payment p JOIN rental r ON r.rental_id = p.rental_id JOIN inventory i ON i.inventory_id = r.inventory_id
         JOIN film_category fc ON fc.film_id = i.film_id JOIN category c ON c.category_id = fc.category_id GROUP BY 1`,
    );
  });

  it('averages film rental rates by release year bucket (year-typed column)', async () => {
    await same({ name: 'average_rental_rate', time_dimension: 'film.release_year', time_grain: 'year' }, 'SELECT release_year, AVG(rental_rate) FROM film GROUP BY 1');
  });
});
