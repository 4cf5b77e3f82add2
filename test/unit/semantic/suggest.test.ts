import assert from 'node:assert/strict';
import type { ColumnInfo, ForeignKeyInfo, KeyConstraint, TableInfo } from '../../../src/core/catalog/model';
import { loadSemanticSources, semanticCatalog, suggestFromCatalog, suggestionsToYaml } from '../../../src/core/semantic';

function col(name: string, dataType = 'integer', isNullable = false): ColumnInfo {
  return { name, ordinal: 0, dataType, isNullable, defaultExpr: null, isGenerated: false, isIdentity: false, comment: null, enumLabels: null, stats: null, pii: null };
}
function tbl(name: string, columns: ColumnInfo[], pk: string[] | null, fks: Array<[string[], string, string[]]> = [], uniques: string[][] = [], schema = 'public'): TableInfo {
  const k = (cols: string[], n: string): KeyConstraint => ({ name: n, columns: cols });
  const f = fks.map(([c, t, tc], i): ForeignKeyInfo => ({ name: `${name}_fk${i}`, columns: c, targetSchema: schema, targetTable: t, targetColumns: tc, onDelete: null, onUpdate: null }));
  return { schema, name, kind: 'table', comment: null, rowEstimate: null, columns, primaryKey: pk ? k(pk, `${name}_pkey`) : null, uniqueConstraints: uniques.map((u, i) => k(u, `${name}_uq${i}`)), checkConstraints: [], foreignKeys: f, indexes: [], partitions: [], viewDefinition: null, fingerprint: '' };
}

describe('suggestions from the catalog', () => {
  const tables: TableInfo[] = [
    tbl('customers', [col('id'), col('email', 'text')], ['id']),
    // no declared FKs at all: joins must come from names
    tbl('orders', [col('id'), col('customer_id'), col('placed_at', 'timestamp with time zone'), col('total_amount', 'numeric(10,2)'), col('last_update', 'timestamp')], ['id']),
    // composite FK to a composite key, and a one-to-one extension table keyed by its FK
    tbl('order_lines', [col('order_id'), col('line_no'), col('qty'), col('unit_price', 'numeric')], ['order_id', 'line_no']),
    tbl('line_notes', [col('order_id'), col('line_no'), col('note', 'text')], ['order_id', 'line_no'], [[['order_id', 'line_no'], 'order_lines', ['order_id', 'line_no']]]),
    // self-reference
    tbl('employees', [col('employee_id'), col('manager_id', 'integer', true), col('reports_to', 'integer', true)], ['employee_id'], [[['reports_to'], 'employees', ['employee_id']]]),
    // unique not-null key instead of a primary key; a nullable unique key does not count
    tbl('countries', [col('iso_code', 'char(2)'), col('name', 'text')], null, [], [['iso_code']]),
    tbl('tags', [col('label', 'text', true)], null, [], [['label']]),
    // type mismatch: text customer_id must not be inferred to join integer customers.id
    tbl('legacy_events', [col('event_id'), col('customer_id', 'text')], ['event_id']),
  ];
  const s = suggestFromCatalog(tables);
  const join = (name: string) => s.joins.find((j) => j.name === name);

  it('suggests an entity per table with a primary or unique not-null key, and none for the rest', () => {
    const names = s.entities.map((e) => e.name).sort();
    assert.deepEqual(names, ['countries', 'customers', 'employees', 'legacy_events', 'line_notes', 'order_lines', 'orders']);
    assert.deepEqual(s.entities.find((e) => e.name === 'countries')!.identity, ['iso_code']);
    assert.deepEqual(s.entities.find((e) => e.name === 'order_lines')!.identity, ['order_id', 'line_no']);
    assert.equal(s.entities.find((e) => e.name === 'orders')!.timeDimension, 'placed_at', 'a business time column, not last_update');
  });

  it('turns a composite FK whose columns are the table key into a one_to_one join', () => {
    const j = s.joins.find((x) => x.from === 'line_notes')!;
    assert.equal(j.cardinality, 'one_to_one');
    assert.deepEqual(j.on, [{ from: 'order_id', to: 'order_id' }, { from: 'line_no', to: 'line_no' }]);
    assert.equal(j.inferenceMethod, 'fk_constraint');
    assert.equal(j.confidence, 'MEDIUM', 'draft fk_constraint');
  });

  it('keeps a self-referencing FK as a join named after its column', () => {
    const j = join('employees_reports_to')!;
    assert.equal(j.from, 'employees');
    assert.equal(j.to, 'employees');
    assert.equal(j.cardinality, 'many_to_one');
  });

  it('infers customer_id → customers.id by name when no FK is declared, as a low-confidence name_inferred draft', () => {
    const j = s.joins.find((x) => x.from === 'orders' && x.to === 'customers')!;
    assert.equal(j.inferenceMethod, 'name_inferred');
    assert.equal(j.confidence, 'LOW');
    assert.deepEqual(j.on, [{ from: 'customer_id', to: 'id' }]);
    assert.ok(j.score < 0.8 && j.score > 0);
    assert.ok(s.joins.findIndex((x) => x === j) > s.joins.findIndex((x) => x.inferenceMethod === 'fk_constraint'), 'declared joins sort first');
    const ol = s.joins.find((x) => x.from === 'order_lines' && x.to === 'orders');
    assert.ok(ol, 'order_lines.order_id → orders.id');
  });

  it('does not infer a join across incompatible types or to a table that does not exist', () => {
    assert.ok(!s.joins.some((x) => x.from === 'legacy_events'));
    assert.ok(!s.joins.some((x) => x.on.some((k) => k.from === 'manager_id')), 'no `manager` table');
  });

  it('suggests a row count per entity and sums of money-like numeric columns only', () => {
    const names = s.metrics.map((m) => m.name);
    assert.ok(names.includes('orders_count'));
    assert.ok(names.includes('orders_total_amount_sum'));
    assert.ok(names.includes('order_lines_unit_price_sum'));
    assert.ok(!names.some((n) => n.includes('qty') || n.includes('customer_id')));
    assert.equal(s.metrics.find((m) => m.name === 'orders_total_amount_sum')!.timeDimension, 'orders.placed_at');
  });

  it('renders YAML that loads back without errors, as suggested drafts', () => {
    const files = suggestionsToYaml(s);
    assert.deepEqual(files.map((f) => f.path), ['suggested-entities.yaml', 'suggested-joins.yaml', 'suggested-metrics.yaml']);
    const r = loadSemanticSources(files.map((f) => ({ path: f.path, text: f.content })), semanticCatalog(tables));
    assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), []);
    assert.equal(r.model.joins.size, s.joins.length);
    const j = [...r.model.joins.values()].find((x) => x.inferenceMethod === 'name_inferred')!;
    assert.equal(j.origin, 'suggested');
    assert.equal(j.validationState, 'draft');
  });

  it('never reuses a name that already exists', () => {
    const again = suggestFromCatalog(tables, { existingNames: new Set(['orders', 'orders_count']) });
    assert.ok(again.entities.some((e) => e.name === 'orders_2'));
    assert.ok(!again.metrics.some((m) => m.name === 'orders_count'));
  });
});
