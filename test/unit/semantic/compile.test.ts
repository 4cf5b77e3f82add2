import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { TableInfo } from '../../../src/core/catalog/model';
import { EnvelopeSchema, failure } from '../../../src/core/envelope';
import { compileMetric, loadSemanticSources, semanticCatalog } from '../../../src/core/semantic';
import type { CompileError, CompiledMetric, MetricRequest, SemanticModel } from '../../../src/core/semantic';

const dir = 'test/fixtures/semantic/pagila';
const tables = JSON.parse(readFileSync(`${dir}/catalog.json`, 'utf8')) as TableInfo[];
const catalog = semanticCatalog(tables);
const packFiles = readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => ({ path: f, text: readFileSync(`${dir}/${f}`, 'utf8') }));

function modelWith(extra = '', expectClean = true): SemanticModel {
  const r = loadSemanticSources(extra ? [...packFiles, { path: 'extra.yaml', text: extra }] : packFiles, catalog);
  if (expectClean) assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), []);
  return r.model;
}
const model = modelWith();

function err(req: MetricRequest, m = model): CompileError {
  const r = compileMetric(m, catalog, req, 'postgres');
  assert.equal(r.ok, false, `expected an error, got SQL:\n${r.ok ? r.sql : ''}`);
  const e = r as CompileError;
  // Every error must make a valid charter envelope.
  assert.ok(EnvelopeSchema.safeParse(failure(e.kind, e.message, { recovery: e.recovery })).success);
  return e;
}
function ok(req: MetricRequest, m = model, dialect: 'postgres' | 'sqlite' = 'postgres'): CompiledMetric {
  const r = compileMetric(m, catalog, req, dialect);
  assert.ok(r.ok, r.ok ? '' : `${r.kind}: ${r.message}`);
  return r;
}

describe('metric compiler: every error kind and its recovery', () => {
  it('unknown_metric → list_metrics with close names', () => {
    const e = err({ name: 'revenu' });
    assert.equal(e.kind, 'unknown_metric');
    assert.equal(e.recovery.suggested_tool, 'list_metrics');
    assert.equal(e.recovery.fuzzy_matches![0], 'revenue');
  });

  it('malformed_name → describe_entity, pointing a bare column at its qualified form', () => {
    const e = err({ name: 'revenue', group_by: ['amount'] });
    assert.equal(e.kind, 'malformed_name');
    assert.deepEqual(e.recovery.suggested_args, { name: 'payment' });
    assert.deepEqual(e.recovery.fuzzy_matches, ['payment.amount']);
    assert.equal(err({ name: 'revenue', filters: [{ column: 'a.b.c', op: 'is_null' }] }).kind, 'malformed_name');
  });

  it('unknown_name → list_entities with close entity names', () => {
    const e = err({ name: 'revenue', group_by: ['custmer.store_id'] });
    assert.equal(e.kind, 'unknown_name');
    assert.equal(e.recovery.suggested_tool, 'list_entities');
    assert.equal(e.recovery.fuzzy_matches![0], 'customer');
  });

  it('unknown_group_by_column and unknown_filter_column → describe_entity with the allowed columns', () => {
    const g = err({ name: 'revenue', group_by: ['customer.storeid'] });
    assert.equal(g.kind, 'unknown_group_by_column');
    assert.deepEqual(g.recovery.suggested_args, { name: 'customer' });
    assert.equal(g.recovery.fuzzy_matches![0], 'customer.store_id');
    const f = err({ name: 'revenue', filters: [{ column: 'payment.amout', op: 'gt', value: 1 }] });
    assert.equal(f.kind, 'unknown_filter_column');
    assert.equal(f.recovery.fuzzy_matches![0], 'payment.amount');
  });

  it('unknown_measure_column when the metric definition names a column the table lacks', () => {
    const m = modelWith('version: 1\nmetrics:\n  - { name: broken, entity: payment, measure: { agg: sum, column: amount_usd } }\n', false);
    const e = err({ name: 'broken' }, m);
    assert.equal(e.kind, 'unknown_measure_column');
    assert.deepEqual(e.recovery.suggested_args, { name: 'payment' });
    assert.ok(e.recovery.fuzzy_matches!.includes('amount'));
  });

  it('unreachable_entity → resolve_join for the pair', () => {
    const m = modelWith('version: 1\nentities:\n  - { name: language, table: public.language, identity: language_id }\n');
    const e = err({ name: 'revenue', group_by: ['language.name'] }, m);
    assert.equal(e.kind, 'unreachable_entity');
    assert.deepEqual(e.recovery, { suggested_tool: 'resolve_join', suggested_args: { entity_a: 'payment', entity_b: 'language' } });
  });

  it('ambiguous_path → get_metric with via set to the first route, and the retry compiles', () => {
    const e = err({ name: 'revenue', group_by: ['store.store_id'] });
    assert.equal(e.kind, 'ambiguous_path');
    assert.equal(e.recovery.suggested_tool, 'get_metric');
    const retry = e.recovery.suggested_args as MetricRequest;
    assert.deepEqual(retry.via, ['payment_customer', 'customer_store']);
    assert.deepEqual(ok(retry).requiredJoins, ['payment_customer', 'customer_store']);
    assert.deepEqual(ok({ ...retry, via: ['payment_staff'] }).requiredJoins, ['payment_staff', 'staff_store']);
  });

  it('ambiguous_join → get_metric with via naming one of the parallel joins', () => {
    const m = modelWith(`version: 1
joins:
  - { name: payment_customer_again, from: payment, to: customer, on: [{ from: customer_id, to: customer_id }], cardinality: many_to_one }
`);
    const e = err({ name: 'revenue', group_by: ['customer.store_id'] }, m);
    assert.equal(e.kind, 'ambiguous_join');
    assert.deepEqual(e.recovery.fuzzy_matches, ['payment_customer', 'payment_customer_again']);
    const retry = e.recovery.suggested_args as MetricRequest;
    assert.deepEqual(retry.via, ['payment_customer']);
    assert.deepEqual(ok(retry, m).requiredJoins, ['payment_customer']);
  });

  it('via can force a longer route than the shortest one', () => {
    const r = ok({ name: 'revenue', group_by: ['customer.store_id'], via: ['payment_rental', 'rental_customer'] });
    assert.deepEqual(r.requiredJoins, ['payment_rental', 'rental_customer']);
  });

  it('unknown_via_join → list_joins', () => {
    const e = err({ name: 'revenue', via: ['payment_custmer'] });
    assert.equal(e.kind, 'unknown_via_join');
    assert.equal(e.recovery.suggested_tool, 'list_joins');
    assert.equal(e.recovery.fuzzy_matches![0], 'payment_customer');
  });

  it('unknown_order_by_column → get_metric with the closest output column', () => {
    const e = err({ name: 'revenue', group_by: ['customer.store_id'], order_by: [{ column: 'revenu', direction: 'desc' }] });
    assert.equal(e.kind, 'unknown_order_by_column');
    const retry = e.recovery.suggested_args as MetricRequest;
    assert.deepEqual(retry.order_by, [{ column: 'revenue', direction: 'desc' }]);
    assert.ok(ok(retry).sql.includes('ORDER BY "revenue" DESC, "customer.store_id" ASC'));
  });

  it('invalid_time_grain → get_metric with an allowed grain', () => {
    const e = err({ name: 'rental_count', time_grain: 'hour' });
    assert.equal(e.kind, 'invalid_time_grain');
    assert.deepEqual(e.recovery.fuzzy_matches, ['day', 'week', 'month']);
    assert.ok(['day', 'week', 'month'].includes((e.recovery.suggested_args as MetricRequest).time_grain!));
  });

  it('grain_mismatch when the grain is outside the metric time_grains or finer than the column type allows', () => {
    const e = err({ name: 'rental_count', time_grain: 'year' });
    assert.equal(e.kind, 'grain_mismatch');
    assert.equal((e.recovery.suggested_args as MetricRequest).time_grain, 'month');
    const y = err({ name: 'film_count', time_dimension: 'film.release_year', time_grain: 'month' });
    assert.equal(y.kind, 'grain_mismatch');
    assert.match(y.message, /supports year/);
    assert.equal((y.recovery.suggested_args as MetricRequest).time_grain, 'year');
    const fine = ok({ name: 'film_count', time_dimension: 'film.release_year', time_grain: 'year' });
    assert.ok(fine.sql.startsWith('SELECT "t0"."release_year" AS "film.release_year__year"'));
  });

  it('ambiguous_time_dimension → get_metric naming one candidate; the retry compiles as local', () => {
    const m = modelWith(`version: 1
entities:
  - { name: rental_plain, table: public.rental, identity: rental_id }
  - { name: staff_hired, table: public.staff, identity: staff_id, time_dimension: last_update }
joins:
  - { name: rental_plain_customer, from: rental_plain, to: customer, on: [{ from: customer_id, to: customer_id }], cardinality: many_to_one }
  - { name: rental_plain_staff, from: rental_plain, to: staff_hired, on: [{ from: staff_id, to: staff_id }], cardinality: many_to_one }
metrics:
  - { name: plain_rentals, entity: rental_plain, measure: { agg: count } }
`);
    const e = err({ name: 'plain_rentals', time_grain: 'month' }, m);
    assert.equal(e.kind, 'ambiguous_time_dimension');
    assert.deepEqual(e.recovery.fuzzy_matches, ['customer.create_date', 'staff_hired.last_update']);
    const r = ok(e.recovery.suggested_args as MetricRequest, m);
    assert.equal(r.timeDimension, 'customer.create_date');
    assert.equal(r.timeDimensionResolution, 'local');
  });

  it('schema_drift → get_index_status when an entity table left the catalog', () => {
    const m = modelWith();
    const shrunk = semanticCatalog(tables.filter((t) => t.name !== 'actor'));
    const r = compileMetric(m, shrunk, { name: 'revenue', group_by: ['actor.last_name'] }, 'postgres');
    assert.ok(!r.ok);
    assert.equal(r.kind, 'schema_drift');
    assert.equal(r.recovery.suggested_tool, 'get_index_status');
  });

  it('invalid_argument for an out-of-range limit or a filter value of the wrong shape', () => {
    const l = err({ name: 'revenue', limit: 0 });
    assert.equal(l.kind, 'invalid_argument');
    assert.equal((l.recovery.suggested_args as MetricRequest).limit, 1);
    assert.equal(err({ name: 'revenue', limit: 10001 }).kind, 'invalid_argument');
    assert.equal(err({ name: 'revenue', filters: [{ column: 'payment.amount', op: 'in', value: 3 }] }).kind, 'invalid_argument');
  });
});

describe('metric compiler: plans', () => {
  it('binds every value as a parameter, $n for PostgreSQL and ? for SQLite, in textual order', () => {
    const req: MetricRequest = { name: 'revenue', filters: [{ column: 'payment.amount', op: 'in', value: [1.99, "2'; drop table x; --"] }, { column: 'customer.activebool', op: 'eq', value: true }], limit: 5 };
    const pg = ok(req);
    assert.ok(pg.sql.includes('"t0"."amount" IN ($1, $2)'));
    assert.ok(pg.sql.includes('"t1"."activebool" = $3'));
    assert.ok(pg.sql.endsWith('LIMIT $4'));
    assert.deepEqual(pg.params, [1.99, "2'; drop table x; --", true, 5]);
    assert.ok(!pg.sql.includes('drop table'));
    const lite = ok(req, model, 'sqlite');
    assert.equal(lite.sql.split('?').length - 1, 4);
    assert.deepEqual(lite.params, [1.99, "2'; drop table x; --", 1, 5]);
  });

  it('reports fan-out joins and picks distinct-on-identity for sums, no rewrite for idempotent aggregates', () => {
    const s = ok({ name: 'revenue', group_by: ['actor.last_name'] });
    assert.deepEqual(s.fanOutJoins, ['film_actor_film']);
    assert.equal(s.fanOutStrategy, 'distinct_identity');
    assert.equal(s.degradation, undefined);
    assert.ok(s.sql.includes('SELECT DISTINCT'));
    const m = ok({ name: 'largest_payment', group_by: ['actor.last_name'] });
    assert.equal(m.fanOutStrategy, 'idempotent_aggregate');
    assert.ok(!m.sql.includes('DISTINCT'));
  });

  it('degrades with fan_out_join only when the metric entity has no identity to de-duplicate on', () => {
    const m = modelWith(`version: 1
entities:
  - { name: pay_noid, table: public.payment }
joins:
  - { name: pay_noid_rental, from: pay_noid, to: rental, on: [{ from: rental_id, to: rental_id }], cardinality: many_to_one }
metrics:
  - { name: noid_revenue, entity: pay_noid, measure: { agg: sum, column: amount } }
`);
    const r = ok({ name: 'noid_revenue', group_by: ['actor.last_name'] }, m);
    assert.equal(r.fanOutStrategy, 'unsafe');
    assert.equal(r.degradation, 'fan_out_join');
  });

  it('degrades with time_dimension_unavailable when no time column is reachable, shipping the plan unbucketed', () => {
    const r = ok({ name: 'copies_in_stock', time_grain: 'month' });
    assert.equal(r.degradation, 'time_dimension_unavailable');
    assert.equal(r.timeDimensionResolution, 'unavailable');
    assert.ok(!r.sql.includes('date_trunc'));
  });

  it('degrades with missing_order_by_with_limit when limit and group_by come without order_by, still ordering deterministically', () => {
    const r = ok({ name: 'revenue', group_by: ['customer.store_id'], limit: 3 });
    assert.equal(r.degradation, 'missing_order_by_with_limit');
    assert.ok(r.sql.includes('ORDER BY "customer.store_id" ASC'));
    assert.equal(ok({ name: 'revenue', group_by: ['customer.store_id'] }).degradation, undefined);
  });

  it('inherits a time dimension over non-fan-out joins and reports how', () => {
    const m = modelWith(`version: 1
entities:
  - { name: rental_plain, table: public.rental, identity: rental_id }
joins:
  - { name: rental_plain_customer, from: rental_plain, to: customer, on: [{ from: customer_id, to: customer_id }], cardinality: many_to_one }
metrics:
  - { name: plain_rentals, entity: rental_plain, measure: { agg: count } }
`);
    const r = ok({ name: 'plain_rentals', time_grain: 'year' }, m);
    assert.equal(r.timeDimensionResolution, 'inherited');
    assert.equal(r.timeDimension, 'customer.create_date');
    assert.deepEqual(r.timeDimensionInheritedVia, ['rental_plain_customer']);
    assert.ok(r.sql.includes(`date_trunc('year', CAST("t1"."create_date" AS timestamp))`));
    const local = ok({ name: 'revenue_cents', time_grain: 'day' }, m);
    assert.equal(local.timeDimensionResolution, 'local');
    assert.equal(local.timeDimension, 'payment.payment_date');
  });

  it('takes the weakest trust over the metric and the joins it uses', () => {
    const m = modelWith(`version: 1
joins:
  - { name: guessed, from: payment, to: actor, on: [{ from: customer_id, to: actor_id }], cardinality: many_to_one, origin: suggested, inference_method: name_inferred, validation_state: draft }
`);
    const r = ok({ name: 'revenue', group_by: ['actor.last_name'] }, m);
    assert.deepEqual(r.trust, { inference_method: 'name_inferred', validation_state: 'draft' });
    assert.equal(r.confidence, 'LOW');
    assert.equal(ok({ name: 'revenue' }).confidence, 'HIGH');
  });

  it('lists every qualified column the plan reads, join keys included', () => {
    const r = ok({ name: 'unreturned_rentals', group_by: ['customer.last_name'] });
    assert.deepEqual([...r.piiColumnsTouched].sort(), ['public.customer.customer_id', 'public.customer.last_name', 'public.rental.customer_id', 'public.rental.return_date']);
    assert.deepEqual(r.columnsRead.find((c) => c.column === 'return_date')!.roles, ['filter']);
  });

  it('quotes identifiers so odd names cannot break out', () => {
    const weird = semanticCatalog([{ ...tables.find((t) => t.name === 'actor')!, name: 'we"ird' }]);
    const r = loadSemanticSources([{ path: 'w.yaml', text: 'version: 1\nentities:\n  - { name: w, table: \'public.we"ird\', identity: actor_id }\nmetrics:\n  - { name: wc, entity: w, measure: { agg: count } }\n' }], weird);
    const c = compileMetric(r.model, weird, { name: 'wc' }, 'sqlite');
    assert.ok(c.ok);
    assert.ok(c.sql.includes('"public"."we""ird"'));
  });
});
