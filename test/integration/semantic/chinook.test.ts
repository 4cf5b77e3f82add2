import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import type { Database } from 'sql.js';
import type { CompiledMetric, MetricRequest, SemanticCatalog, SemanticModel } from '../../../src/core/semantic';
import { compileMetric, loadSemanticFolder, semanticCatalog } from '../../../src/core/semantic';
import { introspectSqlite } from './support/introspect';

/** Metrics over the real Chinook SQLite file (sql.js), each checked against hand-written SQL. */

type Row = unknown[];

function canon(rows: readonly Row[]): string[] {
  return rows.map((r) => JSON.stringify(r.map((v) => (typeof v === 'number' ? Number(v.toFixed(6)) : v)))).sort();
}

describe('semantic layer on Chinook (SQLite)', () => {
  let db: Database;
  let model: SemanticModel;
  let catalog: SemanticCatalog;

  before(async () => {
    const SQL = await initSqlJs();
    db = new SQL.Database(readFileSync(path.resolve(__dirname, '../../../samples/chinook.sqlite')));
    catalog = semanticCatalog(introspectSqlite(db));
    const loaded = await loadSemanticFolder('test/fixtures/semantic/chinook', catalog);
    assert.deepEqual(loaded.diagnostics.filter((d) => d.severity === 'error'), []);
    model = loaded.model;
  });
  after(() => db?.close());

  const exec = (sql: string, params: readonly (string | number | boolean)[] = []): Row[] => {
    const stmt = db.prepare(sql);
    try {
      stmt.bind(params.map((p) => (typeof p === 'boolean' ? Number(p) : p)));
      const out: Row[] = [];
      while (stmt.step()) out.push(stmt.get());
      return out;
    } finally {
      stmt.free();
    }
  };
  const run = (req: MetricRequest): { plan: CompiledMetric; rows: Row[] } => {
    const r = compileMetric(model, catalog, req, 'sqlite');
    assert.ok(r.ok, r.ok ? '' : `${r.kind}: ${r.message}`);
    return { plan: r, rows: exec(r.sql, r.params) };
  };
  const same = (req: MetricRequest, sql: string): Row[] => {
    const { rows } = run(req);
    const expected = exec(sql);
    assert.ok(expected.length > 0);
    assert.deepEqual(canon(rows), canon(expected));
    return rows;
  };

  it('gives the correct invoice total per genre although invoice → invoice_line fans out; the naive join inflates it', () => {
    const { plan, rows } = run({ name: 'invoice_total', group_by: ['genre.Name'] });
    assert.deepEqual(plan.fanOutJoins, ['invoice_line_invoice']);
    assert.equal(plan.degradation, undefined);
    const correct = exec(`
      SELECT g.Name, SUM(i.Total) FROM Invoice i
      JOIN (SELECT DISTINCT il.InvoiceId, t.GenreId FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId) x ON x.InvoiceId = i.InvoiceId
      JOIN Genre g ON g.GenreId = x.GenreId GROUP BY g.Name`);
    assert.deepEqual(canon(rows), canon(correct));
    const naive = exec(`SELECT g.Name, SUM(i.Total) FROM Invoice i JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
      JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name`);
    const rock = (rs: Row[]): number => Number(rs.find((r) => r[0] === 'Rock')![1]);
    assert.ok(rock(naive) > rock(correct) * 2, `naive Rock ${rock(naive)} vs correct ${rock(correct)}`);
  });

  it('gives the correct invoice total per artist across four joins with fan-out', () => {
    same(
      { name: 'invoice_total', group_by: ['artist.Name'], order_by: [{ column: 'invoice_total', direction: 'desc' }], limit: 10 },
      `SELECT a.Name, SUM(i.Total) AS s FROM Invoice i
        JOIN (SELECT DISTINCT il.InvoiceId, al.ArtistId FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId JOIN Album al ON al.AlbumId = t.AlbumId) x ON x.InvoiceId = i.InvoiceId
        JOIN Artist a ON a.ArtistId = x.ArtistId GROUP BY a.Name ORDER BY s DESC, a.Name ASC LIMIT 10`,
    );
  });

  it('sums line revenue by quarter through an inherited time dimension', () => {
    const { plan } = run({ name: 'line_revenue', time_grain: 'quarter' });
    assert.equal(plan.timeDimensionResolution, 'inherited');
    same(
      { name: 'line_revenue', time_grain: 'quarter' },
      `SELECT strftime('%Y', i.InvoiceDate) || '-' || CASE (CAST(strftime('%m', i.InvoiceDate) AS INTEGER) + 2) / 3 WHEN 1 THEN '01' WHEN 2 THEN '04' WHEN 3 THEN '07' ELSE '10' END || '-01',
              SUM(il.UnitPrice * il.Quantity) FROM InvoiceLine il JOIN Invoice i ON i.InvoiceId = il.InvoiceId GROUP BY 1`,
    );
  });

  it('buckets invoices by ISO week (Monday start), month, day and year', () => {
    same({ name: 'invoice_total', time_grain: 'week' }, `SELECT date(InvoiceDate, '-' || ((CAST(strftime('%w', InvoiceDate) AS INTEGER) + 6) % 7) || ' days'), SUM(Total) FROM Invoice GROUP BY 1`);
    same({ name: 'invoice_total', time_grain: 'month' }, `SELECT substr(InvoiceDate, 1, 7) || '-01', SUM(Total) FROM Invoice GROUP BY 1`);
    same({ name: 'invoice_total', time_grain: 'day' }, `SELECT substr(InvoiceDate, 1, 10), SUM(Total) FROM Invoice GROUP BY 1`);
    same({ name: 'invoice_total', time_grain: 'year' }, `SELECT substr(InvoiceDate, 1, 4) || '-01-01', SUM(Total) FROM Invoice GROUP BY 1`);
    const monday = exec(`SELECT DISTINCT strftime('%w', b) FROM (SELECT date(InvoiceDate, 'weekday 0', '-6 days') AS b FROM Invoice)`);
    assert.deepEqual(monday, [['1']]);
  });

  it('counts customers per support rep and employees per manager through role entities on Employee', () => {
    same({ name: 'customer_count', group_by: ['support_rep.LastName'] }, 'SELECT e.LastName, COUNT(*) FROM Customer c JOIN Employee e ON e.EmployeeId = c.SupportRepId GROUP BY 1');
    const rows = run({ name: 'employee_count', group_by: ['manager.FirstName'] }).rows;
    const expected = exec('SELECT m.FirstName, COUNT(*) FROM Employee e LEFT JOIN Employee m ON m.EmployeeId = e.ReportsTo GROUP BY 1');
    assert.deepEqual(canon(rows), canon(expected), 'the top manager counts under a NULL manager');
  });

  it('sums units sold per genre and averages track minutes per media type (no fan-out)', () => {
    same({ name: 'units_sold', group_by: ['genre.Name'] }, 'SELECT g.Name, SUM(il.Quantity) FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY 1');
    same({ name: 'average_track_minutes', group_by: ['media_type.Name'] }, 'SELECT m.Name, AVG(t.Milliseconds / 60000.0) FROM Track t JOIN MediaType m ON m.MediaTypeId = t.MediaTypeId GROUP BY 1');
  });

  it('filters by customer country with bound parameters and orders the top invoices', () => {
    same(
      { name: 'invoice_total', group_by: ['customer.Country'], filters: [{ column: 'customer.Country', op: 'in', value: ['Brazil', 'Canada', 'France'] }, { column: 'invoice.Total', op: 'gt', value: 1 }], order_by: [{ column: 'invoice_total', direction: 'desc' }] },
      `SELECT c.Country, SUM(i.Total) FROM Invoice i JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.Country IN ('Brazil', 'Canada', 'France') AND i.Total > 1 GROUP BY 1`,
    );
  });

  it('counts distinct buying customers per genre without a rewrite and with the right answer', () => {
    const { plan } = run({ name: 'buying_customers', group_by: ['genre.Name'] });
    assert.equal(plan.fanOutStrategy, 'idempotent_aggregate');
    same(
      { name: 'buying_customers', group_by: ['genre.Name'] },
      'SELECT g.Name, COUNT(DISTINCT i.CustomerId) FROM Invoice i JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY 1',
    );
  });

  it('counts each invoice once per genre it contains although it has many lines', () => {
    // invoice_count grouped by a fanned-out column: each invoice counts once per genre it contains.
    same(
      { name: 'invoice_count', group_by: ['genre.Name'] },
      'SELECT g.Name, COUNT(DISTINCT il.InvoiceId) FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY 1',
    );
  });
});
