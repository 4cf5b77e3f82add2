import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSearchIndex, MAX_QUERY_CHARS, type SearchResult } from '../../../src/core/search/index';
import { syntheticCatalog, syntheticQueries } from '../../../bench/retrieval/synthetic';
import { catalogBuilders, fk, keyed, src } from './builders';

/**
 * The people and staff tables of a bicycle maker's database (see the fixture's `source`): with their comments, a
 * question about employees reaches the contact roles of businesses too, which the steps completing a longer answer
 * would bring forward.
 */
function staffCatalog(): ReturnType<typeof src> {
  type Fixture = { tables: Array<{ name: string; comment: string | null; columns: Array<[string, string, string?]>; foreignKeys: Array<[string[], string, string[]]>; primaryKey: string[] }> };
  const fixture = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'adventureworks-staff.json'), 'utf8')) as Fixture;
  const types = new Map<string, string>();
  for (const t of fixture.tables) for (const [name, type] of t.columns) types.set(name, type);
  const { table, column } = catalogBuilders((c) => types.get(c) ?? 'text');
  return src(
    fixture.tables.map((t) => ({
      ...keyed(
        table(
          t.name,
          t.columns.map(([name, , comment]) => column(name, { comment: comment ?? null })),
          t.foreignKeys.map(([columns, target, targetColumns]) => fk(columns, target, targetColumns)),
        ),
        t.primaryKey,
      ),
      comment: t.comment,
    })),
  );
}

const key = (h: { sourceName: string; qualifiedName: string }): string => `${h.sourceName}:${h.qualifiedName}`;

/** The answer for `limit` starts with the default answer whole, holds no table twice, and its scores never rise. */
function assertExtends(short: SearchResult, long: SearchResult, limit: number, what: string): void {
  assert.deepEqual(long.hits.slice(0, short.hits.length), short.hits, what);
  assert.equal(new Set(long.hits.map(key)).size, long.hits.length, `${what}: a table twice`);
  assert.ok(long.hits.length <= limit, what);
  for (let i = 1; i < long.hits.length; i++) assert.ok(long.hits[i]!.score <= long.hits[i - 1]!.score, `${what}: the score rises at ${i}`);
}

describe('search: answers longer than the default', () => {
  it('start with the default answer whole, though a longer window would complete the first places otherwise', () => {
    const index = buildSearchIndex({ tables: staffCatalog() });
    // With more than ten places to complete, the contacts of businesses (`contacttype`, `businessentitycontact`) would
    // move into the first ten as the roles of people; the default answer keeps them out, and so does a longer one.
    const q = 'Which salaried employees have transferred between departments?';
    const short = index.search(q);
    assert.equal(short.hits.length, 10);
    for (const limit of [11, 15, 19, 40]) assertExtends(short, index.search(q, { limit }), limit, `${q} (limit ${limit})`);
    const long = index.search(q, { limit: 19 });
    assert.ok(long.hits.length > short.hits.length, long.hits.map(key).join(', '));
    assert.ok(long.hits.slice(10).some((h) => h.qualifiedName === 'public.contacttype'), long.hits.map(key).join(', '));
  });

  it('hold for any question on a larger catalog, and join every table they show', () => {
    const tables = syntheticCatalog({ tables: 400, columnsPerTable: 10, seed: 11 });
    const index = buildSearchIndex({ tables });
    let longer = 0;
    for (const q of syntheticQueries(tables, 80, 5)) {
      const short = index.search(q);
      for (const limit of [15, 30]) {
        const long = index.search(q, { limit, withJoinTree: true });
        assertExtends(short, long, limit, `${q} (limit ${limit})`);
        const shown = new Set(long.hits.map((h) => h.qualifiedName));
        for (const e of long.joinTree ?? []) assert.ok(shown.has(e.from) && shown.has(e.to), `${q}: ${e.from} → ${e.to}`);
        if (long.hits.length > short.hits.length) longer++;
      }
    }
    assert.ok(longer > 80, `only ${longer} longer answers`);
  });
});

describe('the length of a question', () => {
  it('a text past MAX_QUERY_CHARS is read up to the last space before it, whoever asks (one long word is not read whole)', () => {
    const index = buildSearchIndex({ tables: staffCatalog() });
    const names = (r: SearchResult): string[] => r.hits.map(key);
    const asked = 'employees and their departments';
    const withTail = `${asked} ${'x'.repeat(200_000)}`;
    assert.deepEqual(names(index.search(withTail)), names(index.search(asked)));
    assert.ok(index.search(asked).hits.length > 0);
    // Words before the bound are all read; the one the bound cuts is left out.
    const padded = `${'employee '.repeat(Math.floor(MAX_QUERY_CHARS / 9))}department`;
    assert.ok(padded.length > MAX_QUERY_CHARS);
    assert.deepEqual(names(index.search(padded)), names(index.search('employee '.repeat(Math.floor(MAX_QUERY_CHARS / 9)).trim())));
    // One word with no space to cut at is cut at the bound.
    assert.doesNotThrow(() => index.search('y'.repeat(300_000)));
  });
});
