import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import type { ColumnInfo, PiiTag, TableInfo } from '../../../src/core/catalog/model';
import { CatalogStore } from '../../../src/core/catalog/store';
import { CODE_VALUE_MAX, CODE_VALUE_MAX_CHARS, codeListValues, isCodeListSize, keepsCodeValues } from '../../../src/core/indexing/code-values';
import { runIndex } from '../../../src/core/indexing/run-index';
import { classifyColumn } from '../../../src/core/pii';
import { buildSearchIndex, findMentions, loadLexicon, parseQuery } from '../../../src/core/search/index';
import { createIntrospector } from '../../../src/core/sources';
import { parseSourceSpec } from '../../../src/core/sources/locator';
import { catalogBuilders, fk, names, reasons, src, whyOf, withRanking } from './builders';

const builders = catalogBuilders((name) => (/(?:^|_)id$/.test(name) ? 'integer' : 'text'));
const table = builders.table;
const column = (name: string, codeValues?: string[], pii: PiiTag | null = null): ColumnInfo => builders.column(name, { pii, ...(codeValues ? { codeValues } : {}) });
const cols = (...names: string[]): ColumnInfo[] => names.map((n) => column(n));

const PII: PiiTag = { categories: ['person_name'], sensitivity: 'pii', confidence: 0.9, signals: ['name:first_name'], origin: 'classifier' };

/**
 * A staffing and video-store catalog whose code lists hold their labels: the question's value words (night,
 * documentaries, refunded) are in no table or column name.
 */
function catalog(opts: { labels: boolean }): TableInfo[] {
  const labels = (values: string[]): string[] | undefined => (opts.labels ? values : undefined);
  return [
    table('employee', cols('id', 'job_title', 'hire_date', 'person_id'), [fk(['person_id'], 'person')]),
    table('person', [column('id'), column('first_name', labels(['Ken', 'Terri', 'Rob']), PII), column('last_name')]),
    table('shift', [column('id'), column('name', labels(['Day', 'Evening', 'Night'])), column('start_time'), column('end_time')]),
    table('department', [column('id'), column('name', labels(['Engineering', 'Tool Design', 'Marketing'])), column('group_name')]),
    table('employee_department_history', cols('employee_id', 'department_id', 'shift_id', 'start_date', 'end_date'), [
      fk(['employee_id'], 'employee'),
      fk(['department_id'], 'department'),
      fk(['shift_id'], 'shift'),
    ]),
    table('film', cols('id', 'title', 'description', 'release_year', 'length')),
    table('category', [column('id'), column('name', labels(['Action', 'Comedy', 'Documentary', 'Horror']))]),
    table('film_category', cols('film_id', 'category_id'), [fk(['film_id'], 'film'), fk(['category_id'], 'category')]),
    table('payment', cols('id', 'amount', 'paid_at', 'status_id'), [fk(['status_id'], 'payment_status')]),
    table('payment_status', [column('id'), column('label', labels(['Pending', 'Completed', 'Refunded']))]),
    table('invoice', cols('id', 'total', 'issued_at')),
    table('audit_log', cols('id', 'action', 'logged_at', 'detail')),
  ];
}

describe('code lists: labels of small tables', () => {
  it('keeps the distinct labels of a column, case-insensitively, and drops numbers and digests', () => {
    assert.deepEqual(codeListValues(['Day', 'Night', 'day', null, ' Evening ', '', '12:30', '3.5', 'a3f1c9e0b2d4f6a8c0e2']), ['Day', 'Night', 'Evening']);
  });

  it('refuses a column that is prose, too varied, or not a list at all', () => {
    assert.equal(codeListValues(['Day', 'x'.repeat(CODE_VALUE_MAX_CHARS + 1)]), null, 'a long value is prose');
    assert.equal(codeListValues(Array.from({ length: CODE_VALUE_MAX + 1 }, (_, i) => `label ${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`)), null, 'too many labels');
    assert.deepEqual(codeListValues(Array.from({ length: CODE_VALUE_MAX }, (_, i) => `label ${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`))?.length, CODE_VALUE_MAX);
    assert.equal(codeListValues(['Only']), null, 'one label is not a list');
    assert.equal(codeListValues(['1', '2', '3']), null, 'numbers are not labels');
  });

  it('keeps labels only for a code-list-shaped table with no PII-tagged column', () => {
    const narrow = { columns: [{ pii: null }, { pii: null }] };
    const wide = { columns: Array.from({ length: 12 }, () => ({ pii: null })) };
    assert.equal(keepsCodeValues(narrow, false), true);
    assert.equal(keepsCodeValues(wide, false), false, 'a wide table nothing points at is an entity');
    assert.equal(keepsCodeValues(wide, true), true, 'a wide table other tables point at is a code list');
    assert.equal(keepsCodeValues({ columns: [{ pii: null }, { pii: PII }] }, true), false, 'a table with a PII column keeps no labels');
  });

  it('reads a table whole only when it is small', () => {
    assert.equal(isCodeListSize(3), true);
    assert.equal(isCodeListSize(0), false);
    assert.equal(isCodeListSize(null), false);
    assert.equal(isCodeListSize(100_000), false);
  });
});

describe('search: a code list label named in the question', () => {
  const withLabels = buildSearchIndex({ tables: src(catalog({ labels: true })) });
  const without = buildSearchIndex({ tables: src(catalog({ labels: false })) });

  it('reaches the code list that holds it and the table that references it', () => {
    const res = withLabels.search('how many employees work nights', { limit: 5 });
    const top = names(res.hits);
    assert.ok(top.includes('shift'), top.join(', '));
    assert.ok(top.includes('employee_department_history'), top.join(', '));
    const shift = res.hits.find((h) => h.qualifiedName === 'public.shift')!;
    assert.ok(shift.why.some((w) => w.includes("'Night'")), shift.why.join(' / '));
    // Without the labels the question has no word for `shift`.
    const before = names(without.search('how many employees work nights', { limit: 5 }).hits);
    assert.ok(!before.includes('shift'), before.join(', '));
  });

  it('folds plurals and inflections onto the stored label', () => {
    // 'Documentary' lives in `category`; the films are behind the junction that references it.
    const res = withLabels.search('list all documentaries', { limit: 3 });
    const docs = names(res.hits);
    assert.deepEqual([...docs].sort(), ['category', 'film', 'film_category'], docs.join(', '));
    assert.ok(res.hits.find((h) => h.qualifiedName === 'public.category')!.why.some((w) => w.includes("'Documentary'")));
    const refunds = withLabels.search('total amount of refunded payments', { limit: 3 });
    const top = names(refunds.hits);
    assert.ok(top.slice(0, 2).includes('payment') && top.slice(0, 2).includes('payment_status'), top.join(', '));
    assert.ok(refunds.hits.find((h) => h.qualifiedName === 'public.payment_status')!.why.some((w) => w.includes("'Refunded'")));
  });

  it('guesses no label in a code list whose labels are all known and hold no such word', () => {
    const films = (labels: boolean): ReturnType<typeof buildSearchIndex> =>
      buildSearchIndex({
        tables: src([
          table('film', cols('id', 'title', 'description', 'release_year', 'length', 'language_id'), [fk(['language_id'], 'language')]),
          table('language', [column('id'), column('name', labels ? ['English', 'Italian', 'Japanese'] : undefined)]),
          table('category', [column('id'), column('name', labels ? ['Action', 'Comedy', 'Documentary', 'Horror'] : undefined)]),
          table('film_category', cols('film_id', 'category_id'), [fk(['film_id'], 'film'), fk(['category_id'], 'category')]),
        ]),
      });
    const [read, unread] = [films(true), films(false)];
    // "gloomy" is in no name and no label: both lists have been read whole and hold no such word.
    const q = 'gloomy films from 2006';
    const guesses = (index: typeof read, on: number): string[] =>
      withRanking('knownLabels', on, () => index.search(q, { limit: 4 }).hits).flatMap((h) => h.why.filter((w) => w.includes("may hold 'gloomy"))).map((w) => w.replace(/,.*/, ''));
    assert.deepEqual(guesses(read, 0).sort(), ['code list of film', 'code list of film via film_category', 'lookup of film', 'lookup of film via film_category']);
    assert.deepEqual(guesses(read, 1), []);
    // Lists whose labels were not read may hold anything: the guesses stay.
    assert.deepEqual(guesses(unread, 1).sort(), guesses(read, 0).sort());
    // A label is still found where the question names it ("comedies" → 'Comedy').
    const comedies = read.search('comedies in Italian', { limit: 4 }).hits;
    assert.ok(whyOf(comedies, 'category').includes("value 'Comedy' in name"), reasons(comedies));
  });

  it('never indexes the labels of a PII-tagged column', () => {
    const res = withLabels.search('Terri', { limit: 12 });
    for (const h of res.hits) assert.ok(!h.why.some((w) => w.includes('Terri')), `${h.qualifiedName}: ${h.why.join(' / ')}`);
    assert.ok(!names(res.hits).slice(0, 1).includes('person'), names(res.hits).join(', '));
  });

  it('discounts a label that is also a word of the catalog names', () => {
    // "design" is no table's word: 'Tool Design' in department is the value. "film" is a table: a label 'Film'
    // would not pull its code list above the table the word names.
    const design = names(withLabels.search('employees in tool design', { limit: 3 }).hits);
    assert.ok(design.includes('department'), design.join(', '));
    const tables = catalog({ labels: true }).map((t) => (t.name === 'category' ? { ...t, columns: [column('id'), column('name', ['Film', 'Short'])] } : t));
    const named = buildSearchIndex({ tables: src(tables) });
    const top = names(named.search('film lengths', { limit: 3 }).hits);
    assert.equal(top[0], 'film', top.join(', '));
  });
});

describe('indexing: code lists reach the catalog, PII-tagged columns do not', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-codes-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('keeps the labels of a small table, none of a PII column and none of a large table', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(`CREATE TABLE shift (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      INSERT INTO shift (name) VALUES ('Day'), ('Evening'), ('Night');
      CREATE TABLE person (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT, team TEXT);
      INSERT INTO person (first_name, last_name, email, team) VALUES ('Ken', 'Sanchez', 'ken@example.com', 'Red'), ('Terri', 'Duffy', 'terri@example.com', 'Blue'), ('Rob', 'Walters', 'rob@example.com', 'Red');
      CREATE TABLE assignment (id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES person(id), shift_id INTEGER REFERENCES shift(id), note TEXT);`);
    const insert = db.prepare('INSERT INTO assignment (person_id, shift_id, note) VALUES (?, ?, ?)');
    for (let i = 0; i < 400; i++) insert.run([1 + (i % 3), 1 + (i % 3), `kind ${String.fromCharCode(97 + (i % 5))}`]);
    insert.free();
    const file = path.join(tmp, 'staff.sqlite');
    fs.writeFileSync(file, db.export());
    db.close();
    const catalogPath = path.join(tmp, 'catalog.sqlite');
    await runIndex({ spec: parseSourceSpec(file, { name: 'staff', env: {} }), catalogPath, deps: { createIntrospector, classifyColumn } });
    const store = await CatalogStore.open(catalogPath);
    try {
      const byName = new Map(store.loadAllTables().map((r) => [r.table.name, r.table]));
      const col = (t: string, c: string): ColumnInfo => byName.get(t)!.columns.find((x) => x.name === c)!;
      assert.deepEqual(col('shift', 'name').codeValues, ['Day', 'Evening', 'Night']);
      assert.ok(col('person', 'email').pii !== null && col('person', 'first_name').pii !== null, 'the classifier tags the person columns');
      // A table of people keeps no value sets, not even of a column the classifier left untagged.
      assert.equal(col('person', 'team').pii, null);
      for (const c of ['first_name', 'last_name', 'email', 'team']) assert.equal(col('person', c).codeValues, undefined, `person.${c} keeps no labels`);
      assert.equal(col('assignment', 'note').codeValues, undefined, 'a table of 400 rows is no code list');
    } finally {
      store.close();
    }
  });
});

describe('search: a hyphenated name is one word', () => {
  it("reads 'Sci-Fi' and 'Jay-Z' whole, so that a stored label is found and no part of it is taken for a person", () => {
    const lexicon = loadLexicon();
    assert.deepEqual(findMentions('songs by Jay-Z', lexicon), [{ kind: 'person', text: 'Jay-Z', maker: true }]);
    assert.deepEqual(parseQuery('Which Sci-Fi films were rented by customers from Japan?', lexicon).titles, []);
    const index = buildSearchIndex({
      tables: src([
        table('category', [column('category_id'), column('name', ['Action', 'Comedy', 'Sci-Fi', 'Horror'])]),
        table('film', cols('film_id', 'title', 'description')),
        table('film_category', cols('film_id', 'category_id'), [fk(['film_id'], 'film', ['film_id']), fk(['category_id'], 'category', ['category_id'])]),
        table('actor', cols('actor_id', 'first_name', 'last_name')),
        table('customer', cols('customer_id', 'first_name', 'last_name', 'email')),
      ]),
    });
    const hits = index.search('Which Sci-Fi films were rented the most?', { limit: 5 }).hits;
    assert.ok(!hits.some((h) => h.why.some((w) => /for '(?:Fi|Sci)'/.test(w))), hits.map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join('\n'));
    assert.ok(hits.find((h) => h.qualifiedName === 'public.category')?.why.some((w) => w.includes("'Sci-Fi'")), hits.map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join('\n'));
  });
});
