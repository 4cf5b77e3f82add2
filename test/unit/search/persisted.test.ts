import assert from 'node:assert/strict';
import type { TableInfo } from '../../../src/core/catalog/model';
import { nameDocs, type IndexData } from '../../../src/core/search/build';
import { decodeStamped } from '../../../src/core/search/serialize';
import { stem } from '../../../src/core/search/tokenize';
import { buildSearchIndex, openPersistedIndex, serializeIndex, type SearchTableInput } from '../../../src/core/search/index';
import { catalogBuilders, fk, src } from './builders';

const { table } = catalogBuilders((c) => (c === 'id' || c.endsWith('_id') ? 'integer' : c.endsWith('_at') || c.endsWith('_date') ? 'timestamp' : 'text'));

/**
 * A catalog where the common words sit in many names and many more comments: the persisted frame answers which tables
 * are named with a word (IndexFrame.nameDocs) without unpacking every table that mentions it.
 */
function catalog(): SearchTableInput[] {
  const tables: TableInfo[] = [
    table('customer', ['id', 'name', 'email']),
    table('order', ['id', 'customer_id', 'placed_at', 'total'], [fk(['customer_id'], 'customer')]),
    table('order_line', ['id', 'order_id', 'product_id', 'quantity'], [fk(['order_id'], 'order'), fk(['product_id'], 'product')]),
    table('product', ['id', 'name', 'price']),
    table('record_label', ['id', 'name']),
    table('data_table', ['id', 'label']),
    table('customer_order_record', ['id', 'customer_id', 'order_id'], [fk(['customer_id'], 'customer'), fk(['order_id'], 'order')]),
    table('store', ['id', 'name', 'city']),
  ];
  for (let i = 0; i < 60; i++) {
    const t = table(`ledger_${i}`, ['id', 'customer_id', 'amount', 'note'], [fk(['customer_id'], 'customer')]);
    tables.push({ ...t, comment: `one record per customer order of ledger ${i}; the data of this table is kept per month` });
  }
  return src(tables);
}

const QUESTIONS = [
  'which customers placed orders last month',
  'what tables hold records of customer data',
  'list the columns of the order table',
  'which record labels are there',
  'how many stores per city',
  'total amount per customer in the ledgers',
  'products ordered by each customer',
  'show the data table labels',
];

describe('persisted search frames', () => {
  const tables = catalog();
  const built = buildSearchIndex({ tables });
  const stamped = {
    generation: 4,
    tables: tables.map((x) => ({ source: { name: x.sourceName }, qualifiedName: `${x.table.schema}.${x.table.name}` })),
    isBlocked: () => false,
    table: (d: number) => tables[d]!.table,
  };
  const bytes = serializeIndex(built, { generation: 4, tags: [] });

  it('list, per stem of a table name, the tables named with it, as the postings of a built index say', () => {
    const restored = decodeStamped(bytes, stamped);
    assert.ok(restored !== null);
    assert.ok(restored.nameDocs !== undefined && restored.nameDocs.size > 5, 'the frame carries the name lists');
    // The same lists worked out from the postings and each table's own words, on a frame without them.
    const fromPostings: IndexData = { ...restored, nameDocs: undefined };
    const stems = new Set(restored.docs.flatMap((d) => [...d.nameStems]));
    for (const s of [...stems, ...['table', 'record', 'data', 'column', 'nowhere'].map(stem)]) assert.deepEqual(nameDocs(restored, s), nameDocs(fromPostings, s), s);
    assert.deepEqual(nameDocs(restored, stem('customer')), [0, 6], 'customer and customer_order_record, not the ledgers that mention customers');
    assert.equal(nameDocs(restored, stem('ledger')).length, 60);
  });

  it('answer every question exactly as the index they were saved from', () => {
    const opened = openPersistedIndex(bytes, stamped);
    assert.ok(opened !== null);
    for (const q of QUESTIONS) assert.deepEqual(opened.search(q, { limit: 10, withJoinTree: true }), built.search(q, { limit: 10, withJoinTree: true }), q);
  });

  it('are refused when the name lists are damaged', () => {
    const broken = editHeader(bytes, (json) => json.replace(/"nameDocs":\[\[/, '"nameDocs":[[7,'));
    assert.equal(openPersistedIndex(broken, stamped), null);
    const outOfRange = editHeader(bytes, (json) => json.replace(/"nameDocs":\[\["([^"]+)",\[/, '"nameDocs":[["$1",[9999,'));
    assert.equal(openPersistedIndex(outOfRange, stamped), null);
  });

  it('answer the same from a copy at any offset of a larger buffer, and are refused when the binary part is damaged', () => {
    for (const shift of [1, 2, 3, 4]) {
      const moved = new Uint8Array(bytes.length + shift);
      moved.set(bytes, shift);
      const opened = openPersistedIndex(moved.subarray(shift), stamped);
      assert.ok(opened !== null, `offset ${shift}`);
      assert.deepEqual(opened.search(QUESTIONS[0]!, { limit: 10, withJoinTree: true }), built.search(QUESTIONS[0]!, { limit: 10, withJoinTree: true }));
    }
    assert.equal(openPersistedIndex(bytes.subarray(0, bytes.length - 4), stamped), null, 'truncated');
    const grown = new Uint8Array(bytes.length + 4);
    grown.set(bytes);
    assert.equal(openPersistedIndex(grown, stamped), null, 'longer than its header says');
    const header = JSON.parse(headerText(bytes)) as { binary: number; frame: { fks: [number, number] } };
    // A section that reaches past the end, and one with a negative count.
    assert.equal(openPersistedIndex(editHeader(bytes, (json) => json.replace(/"doc":\[(\d+),(\d+)\]/, (_, at: string, n: string) => `"doc":[${Number(at) + header.binary / 4},${n}]`)), stamped), null, 'postings past the end');
    assert.equal(openPersistedIndex(editHeader(bytes, (json) => json.replace(/"order":\[(\d+),(\d+)\]/, '"order":[$1,-1]')), stamped), null, 'negative count');
    // The words text: its part list one short, or the text reaching past the end.
    assert.equal(openPersistedIndex(editHeader(bytes, (json) => json.replace(/"wordsAt":\[(\d+),(\d+)\]/, (_, at: string, n: string) => `"wordsAt":[${at},${Number(n) - 1}]`)), stamped), null, 'words parts one short');
    assert.equal(openPersistedIndex(editHeader(bytes, (json) => json.replace(/"words":\[(\d+),(\d+)\]/, (_, at: string) => `"words":[${at},${header.binary}]`)), stamped), null, 'words past the end');
    // An edge whose doc is out of range.
    const at = (bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1 + 3) & ~3;
    const damaged = bytes.slice();
    new DataView(damaged.buffer).setInt32(at + header.frame.fks[0] * 4, 99_999, true);
    assert.equal(openPersistedIndex(damaged, stamped), null, 'edge out of range');
    assert.equal(header.binary, bytes.length - at);
  });
});

/** The JSON header of persisted index bytes (after the `SBSI<format>` line, up to the next newline). */
function headerText(bytes: Uint8Array): string {
  const first = bytes.indexOf(0x0a);
  return new TextDecoder().decode(bytes.subarray(first + 1, bytes.indexOf(0x0a, first + 1)));
}

/** The same bytes with the header edited, the binary part kept and aligned again after it. */
function editHeader(bytes: Uint8Array, edit: (json: string) => string): Uint8Array {
  const first = bytes.indexOf(0x0a);
  const end = bytes.indexOf(0x0a, first + 1);
  const json = headerText(bytes);
  const edited = edit(json);
  assert.notEqual(edited, json, 'the edit changed the header');
  const head = Buffer.concat([Buffer.from(bytes.subarray(0, first + 1)), Buffer.from(`${edited}\n`)]);
  const binary = bytes.subarray((end + 1 + 3) & ~3);
  const at = (head.length + 3) & ~3;
  const out = new Uint8Array(at + binary.length).fill(0x20);
  out.set(head);
  out.set(binary, at);
  return out;
}
