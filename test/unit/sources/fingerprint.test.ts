import assert from 'node:assert/strict';
import type { TableInfo } from '../../../src/core/catalog/model';
import { canonicalJson, tableFingerprint } from '../../../src/core/sources/fingerprint';

/** The plain definition canonicalJson must agree with: keys sorted at every level, undefined properties left out. */
function reference(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('table fingerprints', () => {
  it('writes the same canonical JSON as the plain definition, whatever the key order or shape', () => {
    const values: unknown[] = [
      null,
      'x',
      3.5,
      true,
      [],
      {},
      [1, undefined, 'a', null],
      { b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined }, 'k"ey': '\u2028 "quoted" \\' },
      { a: { d: [1, { y: 2, z: 1 }] }, b: 1 },
      // Same keys, another order: one sorted-keys entry per order, the same output.
      { y: 2, z: 1, x: [{ q: 1, p: 2 }, { p: 3, q: 4 }] },
      { x: [{ p: 2, q: 1 }, { q: 4, p: 3 }], z: 1, y: 2 },
    ];
    for (const v of values) assert.equal(canonicalJson(v), reference(v), JSON.stringify(v));
    assert.equal(canonicalJson({ y: 2, z: 1 }), canonicalJson({ z: 1, y: 2 }));
  });

  it('keeps the fingerprint of a table from one version to the next (a catalog re-indexes nothing it need not)', () => {
    const table: Omit<TableInfo, 'fingerprint'> = {
      schema: 'public',
      name: 'film',
      kind: 'table',
      comment: 'Films in stock',
      rowEstimate: 1000,
      columns: [
        { name: 'title', ordinal: 2, dataType: 'text', isNullable: false, defaultExpr: null, isGenerated: false, isIdentity: false, comment: null, enumLabels: null },
        { name: 'film_id', ordinal: 1, dataType: 'integer', isNullable: false, defaultExpr: "nextval('film_film_id_seq')", isGenerated: false, isIdentity: false, comment: 'key', enumLabels: null },
        { name: 'rating', ordinal: 3, dataType: 'mpaa_rating', isNullable: true, defaultExpr: "'G'", isGenerated: false, isIdentity: false, comment: null, enumLabels: ['G', 'PG', 'PG-13', 'R', 'NC-17'] },
      ] as unknown as TableInfo['columns'],
      primaryKey: { name: 'film_pkey', columns: ['film_id'] },
      uniqueConstraints: [],
      checkConstraints: [{ name: 'film_length_check', expression: 'length > 0' }],
      foreignKeys: [{ name: 'film_language_id_fkey', columns: ['language_id'], targetSchema: 'public', targetTable: 'language', targetColumns: ['language_id'], onDelete: 'RESTRICT', onUpdate: 'CASCADE' }],
      indexes: [{ name: 'idx_title', columns: ['title'], isUnique: false, isPrimary: false, method: 'btree', predicate: null }],
      partitions: [],
      viewDefinition: null,
    };
    // Computed by the version before the canonical JSON was sped up; a change here re-indexes every table once.
    assert.equal(tableFingerprint(table), EXPECTED_FILM);
  });
});

const EXPECTED_FILM = 'c224da8102253db0dabde8d5aae773d8e608da6b021e7619627b4d36d74ed96b';
