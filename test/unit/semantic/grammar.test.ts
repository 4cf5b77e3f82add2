import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderSemanticJsonSchema } from '../../../bench/semantic/gen-json-schema';
import { loadSemanticSources, parseMeasureExpression, renderExpression, semanticCatalog } from '../../../src/core/semantic';
import type { TableInfo } from '../../../src/core/catalog/model';

const pagila = semanticCatalog(JSON.parse(readFileSync('test/fixtures/semantic/pagila/catalog.json', 'utf8')) as TableInfo[]);

function load(text: string, withCatalog = true) {
  return loadSemanticSources([{ path: 'defs.yaml', text }], withCatalog ? pagila : undefined);
}

describe('semantic grammar and loader', () => {
  it('loads a well-formed file with defaults for origin and trust', () => {
    const r = load(`version: 1
entities:
  - name: customer
    table: public.customer
    identity: customer_id
metrics:
  - name: customers
    entity: customer
    measure: { agg: count }
`);
    assert.deepEqual(r.diagnostics, []);
    const e = r.model.entities.get('customer')!;
    assert.equal(e.origin, 'manual');
    assert.equal(e.inferenceMethod, 'manually_authored');
    assert.equal(e.validationState, 'applied');
    assert.deepEqual(e.identity, ['customer_id']);
    assert.equal(r.model.metrics.get('customers')!.measure.column, null);
  });

  it('reports an unknown key with its line and column and offers the closest allowed key as a fix', () => {
    const r = load(`version: 1
entities:
  - name: customer
    table: public.customer
    idenity: customer_id
`);
    assert.equal(r.diagnostics.length, 1);
    const d = r.diagnostics[0]!;
    assert.equal(d.code, 'unknown_key');
    assert.equal(d.severity, 'error');
    assert.equal(d.line, 5);
    assert.equal(d.col, 5);
    assert.equal(d.endCol, 12);
    assert.equal(d.fix?.replacement, 'identity');
    assert.equal(r.model.entities.size, 0, 'the bad entity is left out');
  });

  it('keeps the valid objects of a file when one object is invalid', () => {
    const r = load(`version: 1
entities:
  - { name: customer, table: public.customer, identity: customer_id }
  - { name: film, table: public.film, colour: red }
`);
    assert.equal(r.model.entities.size, 1);
    assert.ok(r.model.entities.has('customer'));
    assert.equal(r.diagnostics[0]!.line, 4);
  });

  it('rejects a wrong version, an unknown enum value with a fix, and a YAML syntax error with positions', () => {
    const v = load('version: 2\n');
    assert.equal(v.diagnostics[0]!.message, 'version must be 1');
    const c = load(`version: 1
entities:
  - { name: a, table: public.rental, identity: rental_id }
  - { name: b, table: public.customer, identity: customer_id }
joins:
  - name: a_b
    from: a
    to: b
    on: [{ from: customer_id, to: customer_id }]
    cardinality: many_to_onee
`);
    const d = c.diagnostics.find((x) => x.code === 'schema')!;
    assert.equal(d.line, 10);
    assert.equal(d.fix?.replacement, 'many_to_one');
    const s = load('version: 1\nentities:\n  - name: [unclosed\n');
    assert.equal(s.diagnostics[0]!.code, 'yaml_syntax');
    assert.ok(s.diagnostics[0]!.line >= 3);
  });

  it('reads `on:` as a key (YAML 1.2), not as a boolean', () => {
    const r = load(`version: 1
entities:
  - { name: rental, table: public.rental, identity: rental_id }
  - { name: customer, table: public.customer, identity: customer_id }
joins:
  - name: rental_customer
    from: rental
    to: customer
    on:
      - from: customer_id
        to: customer_id
    cardinality: many_to_one
`);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.model.joins.get('rental_customer')!.on, [{ from: 'customer_id', to: 'customer_id' }]);
  });

  it('validates references against the model and the catalog, with closest-name fixes', () => {
    const r = load(`version: 1
entities:
  - { name: rental, table: public.rentals, identity: rental_id }
  - { name: customer, table: public.customer, identity: customer_idd }
joins:
  - { name: j, from: rentl, to: customer, on: [{ from: customer_id, to: customer_id }], cardinality: many_to_one }
metrics:
  - { name: m, entity: customer, measure: { agg: sum, column: amount } }
  - { name: n, entity: custmer, measure: { agg: count } }
`);
    const byCode = (code: string) => r.diagnostics.filter((d) => d.code === code);
    assert.equal(byCode('unknown_table')[0]!.fix?.replacement, 'public.rental');
    assert.equal(byCode('unknown_table')[0]!.line, 3);
    const cols = byCode('unknown_column');
    assert.ok(cols.some((d) => d.fix?.replacement === 'customer_id' && d.line === 4));
    assert.ok(cols.some((d) => d.message.includes("measure column 'amount'")));
    const ents = byCode('unknown_entity');
    assert.deepEqual(ents.map((d) => d.fix?.replacement).sort(), ['customer', 'rental']);
    assert.equal(r.model.joins.size, 0, 'a join to an unknown entity is dropped');
    assert.ok(r.model.metrics.has('m'), 'a metric that only disagrees with the catalog stays, so get_metric can explain');
    assert.ok(!r.model.metrics.has('n'));
  });

  it('reports duplicate names across files', () => {
    const text = 'version: 1\nentities:\n  - { name: customer, table: public.customer, identity: customer_id }\n';
    const r = loadSemanticSources([{ path: 'a.yaml', text }, { path: 'b.yaml', text }], pagila);
    assert.equal(r.diagnostics.length, 1);
    assert.equal(r.diagnostics[0]!.file, 'b.yaml');
    assert.equal(r.diagnostics[0]!.code, 'duplicate_name');
  });

  it('requires a column or expression for every aggregation but count, and checks filter values', () => {
    const r = load(`version: 1
entities:
  - { name: payment, table: public.payment, identity: payment_id }
metrics:
  - { name: a, entity: payment, measure: { agg: sum } }
  - { name: b, entity: payment, measure: { agg: sum, column: amount, expression: "amount * 2" } }
  - { name: c, entity: payment, measure: { agg: count }, filters: [{ column: payment.amount, op: in, value: 3 }] }
  - { name: d, entity: payment, measure: { agg: count }, filters: [{ column: payment.amount, op: is_null, value: 3 }] }
`);
    assert.equal(r.model.metrics.size, 0);
    assert.equal(r.diagnostics.length, 4);
  });

  it('warns when a declared many_to_one join targets columns that are not a key', () => {
    const r = load(`version: 1
entities:
  - { name: customer, table: public.customer, identity: customer_id }
  - { name: rental, table: public.rental, identity: rental_id }
joins:
  - { name: bad, from: customer, to: rental, on: [{ from: customer_id, to: customer_id }], cardinality: many_to_one }
`);
    assert.equal(r.diagnostics[0]!.code, 'cardinality_unverified');
    assert.equal(r.diagnostics[0]!.severity, 'warning');
  });

  it('publishes a JSON Schema that matches the zod grammar (regenerate with bench/semantic/gen-json-schema.ts)', () => {
    const committed = readFileSync('schemas/semantic.schema.json', 'utf8');
    assert.equal(committed, renderSemanticJsonSchema());
    const schema = JSON.parse(committed) as { properties: Record<string, unknown>; additionalProperties: boolean };
    assert.deepEqual(Object.keys(schema.properties).sort(), ['entities', 'joins', 'metrics', 'version']);
    assert.equal(schema.additionalProperties, false);
  });
});

describe('measure expression parser', () => {
  const ok = (src: string) => {
    const r = parseMeasureExpression(src);
    assert.ok(r.ok, `expected '${src}' to parse: ${r.ok ? '' : r.error.message}`);
    return r;
  };
  const bad = (src: string, needle: RegExp) => {
    const r = parseMeasureExpression(src);
    assert.ok(!r.ok, `expected '${src}' to be rejected`);
    assert.match(r.error.message, needle);
    return r.error;
  };

  it('accepts arithmetic over columns with precedence, unary minus and parentheses', () => {
    const r = ok('-(UnitPrice * Quantity) + 2.5 / "Odd Name" - .5e1');
    assert.deepEqual(r.columns, ['UnitPrice', 'Quantity', 'Odd Name']);
    const sql = renderExpression(r.expr, (c) => `t.${c}`);
    assert.equal(sql, '(((-(t.UnitPrice * t.Quantity)) + (2.5 / NULLIF(t.Odd Name, 0))) - 0.5e1)');
    assert.equal(renderExpression(ok('a - b * c').expr, (c) => c), '(a - (b * c))');
    assert.equal(renderExpression(ok('(a - b) * c').expr, (c) => c), '((a - b) * c)');
  });

  it('rejects function calls, subqueries, semicolons, strings, comments and keywords', () => {
    assert.equal(bad('sum(amount)', /function calls/).offset, 0);
    bad('amount + (select 1)', /keyword 'select'/);
    bad('amount; drop table payment', /';' is not allowed/);
    bad("amount || 'x'", /not allowed/);
    bad('amount -- comment', /comments/);
    bad('amount /* x */', /comments/);
    bad('case when amount then 1 end', /keyword 'case'/);
    bad('amount::int', /not allowed/);
    bad('p.amount', /qualified names/);
    bad('amount > 3', /not allowed/);
    bad('1 + 2', /at least one column/);
    bad('(amount', /expected '\)'/);
    bad('amount amount', /unexpected/);
    bad('1e999 * amount', /not finite/);
    bad('('.repeat(100) + 'amount' + ')'.repeat(100), /nested too deeply/);
    bad('- '.repeat(100) + 'amount', /nested too deeply/);
  });
});
