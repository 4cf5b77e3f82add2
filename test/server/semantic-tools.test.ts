import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import initSqlJs from 'sql.js';
import type { Database } from 'sql.js';
import { CatalogProvider } from '../../src/core/catalog/provider';
import { EnvelopeSchema } from '../../src/core/envelope';
import { silentLogger } from '../../src/core/util/logger';
import { DEFAULT_LIMITS } from '../../src/server/deps';
import type { ServerDeps } from '../../src/server/deps';
import { CatalogWatcher } from '../../src/server/resources/watch';
import { createPolicy } from '../../src/core/pii';
import type { PiiCategory } from '../../src/core/envelope';
import { createPiiGate } from '../../src/server/pii-gate';
import { SemanticModels } from '../../src/server/semantic-model';
import { loadDataset, skipWithoutData } from '../support/datasets';
import { getTestPostgres, postgresServerAnswers } from '../support/pg';
import type { TestPostgres } from '../support/pg';
import { CHINOOK_SQLITE, indexInto, REPO_ROOT, startHarness, tempDir } from '../support/server-harness';
import type { Harness } from '../support/server-harness';

/**
 * The semantic-layer tools through the real SDK client, on the real Chinook SQLite file with the Chinook pack
 * (test/fixtures/semantic/chinook) plus test/fixtures/semantic-workspace/chinook-extra.yaml in a temporary
 * workspace `.schemabrain/`. Metric numbers are checked against hand-written SQL run directly with sql.js.
 */

type Row = unknown[];
interface Env {
  status: string;
  data: Record<string, unknown> & { rows?: Row[] };
  error: { kind: string; message: string; recovery: Record<string, unknown>; pii_categories?: string[] } | null;
  confidence: string | null;
  provenance: Record<string, unknown> | null;
  follow_up_hints: string[] | null;
  degradation_reason: string | null;
}

const PACK = path.join(REPO_ROOT, 'test', 'fixtures', 'semantic', 'chinook');
const EXTRA = path.join(REPO_ROOT, 'test', 'fixtures', 'semantic-workspace', 'chinook-extra.yaml');

function workspace(withDefinitions: boolean): string {
  const ws = tempDir('sb-semtools-ws-');
  if (!withDefinitions) return ws;
  const dir = path.join(ws, '.schemabrain');
  fs.mkdirSync(dir);
  for (const f of fs.readdirSync(PACK)) if (f.endsWith('.yaml')) fs.copyFileSync(path.join(PACK, f), path.join(dir, f));
  fs.copyFileSync(EXTRA, path.join(dir, 'extra.yaml'));
  return ws;
}

/** Billion laughs: nine anchors, each a list of nine aliases of the one before (9^9 leaves once resolved). */
function aliasBomb(): string {
  const lines = ['version: 1', 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  lines.push('metrics: *a8');
  return `${lines.join('\n')}\n`;
}

function canon(rows: readonly Row[]): string[] {
  return rows.map((r) => JSON.stringify(r.map((v) => (typeof v === 'number' ? Number(v.toFixed(6)) : v)))).sort();
}

describe('semantic-layer tools over the SDK client (Chinook SQLite)', function () {
  let catalogPath: string;
  let ws: string;
  let db: Database;
  const harnesses: Harness[] = [];
  let h: Harness;

  async function open(opts: { workspaceDir: string | null; block?: PiiCategory[]; maxRows?: number }): Promise<Harness> {
    const hh = await startHarness({
      catalogPath,
      deps: {
        workspaceDir: opts.workspaceDir,
        semantic: new SemanticModels(opts.workspaceDir, silentLogger),
        ...(opts.block ? { pii: createPiiGate(createPolicy({ block: opts.block })) } : {}),
        ...(opts.maxRows ? { limits: { ...DEFAULT_LIMITS, maxRows: opts.maxRows } } : {}),
      },
    });
    harnesses.push(hh);
    return hh;
  }
  const callOn = async (hh: Harness, name: string, args: Record<string, unknown> = {}): Promise<Env> => {
    const env = await hh.call(name, args);
    const r = EnvelopeSchema.safeParse(env);
    assert.ok(r.success, `invalid envelope from ${name}: ${JSON.stringify(r.error?.issues)}\n${JSON.stringify(env).slice(0, 400)}`);
    return env as unknown as Env;
  };
  const call = (name: string, args: Record<string, unknown> = {}): Promise<Env> => callOn(h, name, args);
  const exec = (sql: string): Row[] => {
    const res = db.exec(sql);
    return res.length ? (res[0]!.values as Row[]) : [];
  };

  before(async () => {
    const dir = tempDir('sb-semtools-');
    catalogPath = path.join(dir, 'catalog.sqlite');
    await indexInto(catalogPath, CHINOOK_SQLITE, 'chinook');
    ws = workspace(true);
    h = await open({ workspaceDir: ws });
    const SQL = await initSqlJs();
    db = new SQL.Database(fs.readFileSync(CHINOOK_SQLITE));
  });
  after(async () => {
    for (const hh of harnesses) await hh.close();
    db?.close();
  });

  it('find_relevant_tables ranks tables by the entity and metric words defined on them', async () => {
    type Hits = { status: string; data: { tables: Array<{ table: string; why: string[] }> } };
    const args = { query: 'revenue by genre', limit: 3, response_format: 'detailed' };
    const raw = (await (await open({ workspaceDir: null })).call('find_relevant_tables', args)) as Hits;
    assert.ok(!raw.data.tables.some((t) => t.table === 'main.InvoiceLine'), 'no table is named for revenue');
    const env = (await h.call('find_relevant_tables', args)) as Hits;
    const line = env.data.tables.find((t) => t.table === 'main.InvoiceLine');
    assert.ok(line, JSON.stringify(env.data.tables));
    assert.ok(line.why.some((w) => /metric 'line_revenue'/.test(w)), line.why.join(' | '));
  });

  it('puts its warm-up question while idle with a workspace that defines entities, and the first question gets the same answer', async () => {
    type Hits = { data: { tables: Array<{ table: string; why: string[] }> } };
    const logged: string[] = [];
    const idle = await startHarness({
      catalogPath,
      deps: { workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger), logger: { ...silentLogger, debug: (m: string) => logged.push(m) } },
    });
    harnesses.push(idle);
    assert.equal(await idle.server.warm(), false, 'a small catalog has no persisted index to open');
    await new Promise((r) => setTimeout(r, 900)); // past the idle delay
    assert.deepEqual(logged, ['search warm-up: one question put while idle']);
    const args = { query: 'revenue by genre', limit: 3, response_format: 'detailed' };
    const first = (await idle.call('find_relevant_tables', args)) as Hits;
    assert.deepEqual(first.data.tables, ((await h.call('find_relevant_tables', args)) as Hits).data.tables);
    assert.ok(first.data.tables.some((t) => t.why.some((w) => /metric 'line_revenue'/.test(w))), 'the answer uses the words of the definitions');
  });

  describe('list_entities, describe_entity, find_relevant_entities', () => {
    it('lists the entities with their tables, identity and trust, and reports skipped definitions with file and line', async () => {
      const env = await call('list_entities');
      assert.equal(env.status, 'success');
      assert.equal(env.confidence, 'HIGH');
      const entities = env.data.entities as Array<Record<string, unknown>>;
      const invoice = entities.find((e) => e.name === 'invoice')!;
      assert.deepEqual(invoice, {
        name: 'invoice',
        description: "A customer's purchase.",
        table: 'main.Invoice',
        identity: ['InvoiceId'],
        group: 'billing',
        time_dimension: 'InvoiceDate',
        origin: 'manual',
        inference_method: 'manually_authored',
        validation_state: 'applied',
      });
      assert.equal(env.data.total, 19);
      assert.ok(!entities.some((e) => e.name === 'ghost'), 'an entity bound to a missing table is not served');
      const skipped = env.data.skipped_definitions as Array<Record<string, unknown>>;
      assert.deepEqual(
        skipped.map((s) => `${s.kind} ${s.name}`),
        ['entity ghost', 'metric broken_total', 'metric ghost_count'],
      );
      assert.match(String(skipped[2]!.reason), /entity 'ghost' \(skipped\)/);
      const errors = env.data.definition_errors as Array<Record<string, unknown>>;
      assert.deepEqual(
        errors.map((e) => [e.file, e.line, e.code]),
        [
          [path.join('.schemabrain', 'extra.yaml'), 9, 'unknown_table'],
          [path.join('.schemabrain', 'extra.yaml'), 21, 'unknown_column'],
        ],
      );
      const billing = await call('list_entities', { group: 'billing' });
      assert.deepEqual((billing.data.entities as Array<{ name: string }>).map((e) => e.name), ['invoice', 'invoice_line', 'invoice_raw']);
    });

    it('describes an entity with column types, PII tags, groupability, joins both ways and its metrics', async () => {
      const env = await call('describe_entity', { name: 'customer' });
      assert.equal(env.status, 'success');
      assert.equal(env.confidence, 'HIGH');
      assert.equal(env.data.table, 'main.Customer');
      assert.deepEqual(env.data.identity, ['CustomerId']);
      const cols = env.data.columns as Array<Record<string, unknown>>;
      assert.deepEqual(cols.find((c) => c.name === 'Email'), { name: 'Email', type: 'NVARCHAR(60)', nullable: false, pii_categories: ['contact'], groupable: false });
      assert.deepEqual(cols.find((c) => c.name === 'CustomerId'), { name: 'CustomerId', type: 'INTEGER', nullable: false, identity: true });
      assert.equal(cols.find((c) => c.name === 'Country')!.groupable, undefined);
      const joins = env.data.joins as Array<Record<string, unknown>>;
      assert.deepEqual(joins.find((j) => j.name === 'invoice_customer'), { name: 'invoice_customer', entity: 'invoice', direction: 'incoming', cardinality: 'many_to_one', origin: 'manual', inference_method: 'manually_authored', validation_state: 'applied' });
      assert.ok(joins.some((j) => j.name === 'customer_support_rep' && j.direction === 'outgoing'));
      assert.deepEqual(env.data.metrics, ['customer_count']);
      const invoice = await call('describe_entity', { name: 'invoice' });
      assert.equal(invoice.data.time_dimension, 'InvoiceDate');
      assert.equal((invoice.data.columns as Array<Record<string, unknown>>).find((c) => c.name === 'InvoiceDate')!.time_dimension, true);
    });

    it('redacts columns the policy blocks and caps confidence at MEDIUM', async () => {
      const blocked = await open({ workspaceDir: ws, block: ['contact'] });
      const env = await callOn(blocked, 'describe_entity', { name: 'customer' });
      assert.equal(env.status, 'success');
      assert.equal(env.confidence, 'MEDIUM');
      const cols = env.data.columns as Array<Record<string, unknown>>;
      assert.equal(env.data.redacted_columns, 7);
      assert.ok(!cols.some((c) => c.name === 'Email'), 'the blocked column name does not leave the server');
      const red = cols.filter((c) => c.redacted);
      assert.equal(red.length, 7);
      assert.match(String(red[0]!.name), /^<redacted_contact_column_\d+>$/);
      assert.deepEqual(red[0]!.pii_categories, ['contact']);
      assert.ok(cols.some((c) => c.name === 'Country'));
    });

    it('answers malformed, unknown and skipped entity names with a recovery to list_entities', async () => {
      const malformed = await call('describe_entity', { name: 'customer.Email' });
      assert.equal(malformed.error!.kind, 'malformed_name');
      assert.equal(malformed.error!.recovery.suggested_tool, 'list_entities');
      assert.deepEqual(malformed.error!.recovery.fuzzy_matches, ['customer']);
      const unknown = await call('describe_entity', { name: 'Customers' });
      assert.equal(unknown.error!.kind, 'unknown_name');
      assert.equal(unknown.error!.recovery.suggested_tool, 'list_entities');
      assert.ok((unknown.error!.recovery.fuzzy_matches as string[]).includes('customer'));
      const ghost = await call('describe_entity', { name: 'ghost' });
      assert.equal(ghost.error!.kind, 'schema_drift');
      assert.match(ghost.error!.message, /main\.Ghost/);
    });

    it('finds entities for a question by their names, descriptions and tables, saying why', async () => {
      const env = await call('find_relevant_entities', { query: 'which support representative looks after a customer', limit: 5 });
      assert.equal(env.status, 'success');
      const hits = env.data.entities as Array<{ name: string; score: number; why: string[] }>;
      const names = hits.map((x) => x.name);
      assert.deepEqual(names.slice(0, 2).sort(), ['customer', 'support_rep']);
      const rep = hits.find((x) => x.name === 'support_rep')!;
      assert.ok(rep.why.includes("entity name/description matches 'support', 'representative', 'customer'"), rep.why.join(' | '));
      // Several entities share main.Employee; their own words rank them apart.
      for (const other of ['rep_born', 'rep_hired', 'manager', 'employee']) {
        const o = hits.find((x) => x.name === other);
        assert.ok(!o || o.score < rep.score, `${other} ranks below support_rep`);
      }
      assert.ok(hits.every((x, i) => i === 0 || hits[i - 1]!.score >= x.score), 'ordered by score');
      const lines = await call('find_relevant_entities', { query: 'invoice lines revenue', limit: 3 });
      assert.equal((lines.data.entities as Array<{ name: string }>)[0]!.name, 'invoice_line');
      const none = await call('find_relevant_entities', { query: 'zzqx wibble' });
      assert.equal(none.status, 'empty');
      assert.deepEqual(none.follow_up_hints, ['list_entities', 'find_relevant_tables']);
      // A source no catalog source is called is a mistake to correct, not an empty answer: in either entity tool.
      for (const [tool, args] of [['find_relevant_entities', { query: 'invoice lines revenue' }], ['list_entities', {}]] as const) {
        const wrong = (await call(tool, { ...args, source: 'chinok' })) as unknown as { status: string; error: { kind: string; recovery: { suggested_args: Record<string, unknown>; fuzzy_matches: string[] } } };
        assert.equal(wrong.status, 'error', tool);
        assert.equal(wrong.error.kind, 'unknown_name', tool);
        assert.deepEqual(wrong.error.recovery.fuzzy_matches, ['chinook'], tool);
        assert.equal(wrong.error.recovery.suggested_args.source, 'chinook', tool);
        assert.equal((await call(tool, { ...args, source: 'CHINOOK' })).status, 'success', tool);
      }
    });

    it('never names a PII-blocked column in a hit', async () => {
      const blocked = await open({ workspaceDir: ws, block: ['contact'] });
      const env = await callOn(blocked, 'find_relevant_entities', { query: 'customer email address phone', limit: 5 });
      assert.equal(env.status, 'success');
      assert.doesNotMatch(JSON.stringify(env.data), /Email|Phone/);
    });
  });

  describe('list_joins and resolve_join', () => {
    it('lists canonical joins and synthesises the playlist ↔ track bridge through the junction, with the weakest trust', async () => {
      const env = await call('list_joins');
      assert.equal(env.status, 'success');
      assert.equal(env.confidence, 'LOW', 'a draft name_inferred join is the weakest member');
      const joins = env.data.joins as Array<Record<string, unknown>>;
      assert.equal(joins.length, 18);
      assert.deepEqual(joins.find((j) => j.name === 'track_album'), { name: 'track_album', from: 'track', to: 'album', on: [{ from: 'AlbumId', to: 'AlbumId' }], cardinality: 'many_to_one', origin: 'manual', inference_method: 'manually_authored', validation_state: 'applied' });
      assert.deepEqual(env.data.bridges, [
        {
          name: 'playlist_track_playlist+playlist_track_track',
          from: 'playlist',
          to: 'track',
          cardinality: 'many_to_many',
          via_junction: 'playlist_track',
          via_joins: ['playlist_track_playlist', 'playlist_track_track'],
          origin: 'manual',
          inference_method: 'manually_authored',
          validation_state: 'applied',
        },
      ]);
      const inv = await call('list_joins', { entity: 'invoice', include_bridges: false });
      assert.equal(inv.confidence, 'HIGH');
      assert.deepEqual((inv.data.joins as Array<{ name: string }>).map((j) => j.name).sort(), ['invoice_customer', 'invoice_line_invoice']);
    });

    it('resolves the canonical join of a pair in either order, with keys, cardinality and a SQL skeleton that runs', async () => {
      const env = await call('resolve_join', { entity_a: 'album', entity_b: 'track' });
      assert.equal(env.status, 'success');
      assert.equal(env.confidence, 'HIGH');
      assert.equal(env.data.name, 'track_album');
      assert.equal(env.data.from, 'track');
      assert.equal(env.data.cardinality, 'many_to_one');
      assert.deepEqual(env.data.on, [{ from_column: 'AlbumId', to_column: 'AlbumId' }]);
      assert.equal(env.data.sql_skeleton, 'FROM "main"."Album" AS "album"\nJOIN "main"."Track" AS "track" ON "track"."AlbumId" = "album"."AlbumId"');
      const rows = exec(`SELECT COUNT(*) ${env.data.sql_skeleton as string}`);
      assert.deepEqual(rows, [[3503]]);
    });

    it('answers each resolve_join error kind with its recovery', async () => {
      const none = await call('resolve_join', { entity_a: 'artist', entity_b: 'customer' });
      assert.equal(none.error!.kind, 'no_canonical_join');
      assert.equal(none.error!.recovery.suggested_tool, 'suggest_joins');
      assert.deepEqual(none.error!.recovery.suggested_args, { tables: ['main.Artist', 'main.Customer'] });
      const bridge = await call('resolve_join', { entity_a: 'playlist', entity_b: 'track' });
      assert.equal(bridge.error!.kind, 'no_canonical_join');
      assert.match(bridge.error!.message, /junction entity 'playlist_track'/);

      const amb = await call('resolve_join', { entity_a: 'track', entity_b: 'tagged_genre' });
      assert.equal(amb.error!.kind, 'ambiguous_join');
      assert.deepEqual(amb.error!.recovery.fuzzy_matches, ['track_tagged_genre', 'track_tagged_genre_again']);
      assert.deepEqual(amb.error!.recovery.suggested_args, { entity_a: 'track', entity_b: 'tagged_genre', name: 'track_tagged_genre' });
      const chosen = await call('resolve_join', { entity_a: 'track', entity_b: 'tagged_genre', name: 'track_tagged_genre_again' });
      assert.equal(chosen.status, 'success');
      assert.equal(chosen.confidence, 'LOW');
      assert.equal(chosen.provenance!.source, 'inferred');

      const mismatch = await call('resolve_join', { entity_a: 'track', entity_b: 'tagged_genre', name: 'track_genre' });
      assert.equal(mismatch.error!.kind, 'join_name_mismatch');
      assert.deepEqual(mismatch.error!.recovery.suggested_args, { entity_a: 'track', entity_b: 'tagged_genre', name: 'track_tagged_genre' });
      const unknown = await call('resolve_join', { entity_a: 'track', entity_b: 'album', name: 'track_albun' });
      assert.equal(unknown.error!.kind, 'unknown_join_name');
      assert.deepEqual(unknown.error!.recovery.suggested_args, { entity_a: 'track', entity_b: 'album', name: 'track_album' });
      const bad = await call('resolve_join', { entity_a: 'trak', entity_b: 'album' });
      assert.equal(bad.error!.kind, 'unknown_name');
      assert.equal(bad.error!.recovery.suggested_tool, 'list_entities');
    });
  });

  describe('list_metrics and get_metric', () => {
    it('lists metrics with aggregation, measure, time dimension and grains, leaving out skipped ones', async () => {
      const env = await call('list_metrics');
      assert.equal(env.status, 'success');
      const metrics = env.data.metrics as Array<Record<string, unknown>>;
      assert.deepEqual(
        metrics.map((m) => m.name),
        // Files load in name order: extra.yaml before metrics.yaml.
        ['raw_invoice_total', 'youngest_employee_birth', 'invoice_total', 'invoice_count', 'line_revenue', 'units_sold', 'track_count', 'average_track_minutes', 'customer_count', 'buying_customers', 'biggest_invoice', 'employee_count'],
      );
      assert.deepEqual(metrics.find((m) => m.name === 'line_revenue'), {
        name: 'line_revenue',
        description: 'Revenue from invoice lines, unit price times quantity.',
        entity: 'invoice_line',
        aggregation: 'sum',
        measure_expression: 'UnitPrice * Quantity',
        time_dimension: null,
        time_grains: ['month', 'quarter', 'year'],
        origin: 'manual',
        inference_method: 'manually_authored',
        validation_state: 'applied',
      });
      assert.equal(metrics.find((m) => m.name === 'invoice_count')!.time_dimension, 'invoice.InvoiceDate');
      const track = await call('list_metrics', { entity: 'track' });
      assert.deepEqual((track.data.metrics as Array<{ name: string }>).map((m) => m.name), ['track_count', 'average_track_minutes']);
    });

    it('computes a metric with a filter and group-by equal to hand-written SQL, returning SQL, params and the audit fingerprint', async () => {
      const env = await call('get_metric', {
        name: 'invoice_total',
        group_by: ['customer.Country'],
        filters: [{ column: 'customer.Country', op: 'in', value: ['Brazil', 'Canada', 'France'] }],
        order_by: [{ column: 'invoice_total', direction: 'desc' }],
      });
      assert.equal(env.status, 'success');
      assert.equal(env.confidence, 'HIGH');
      const expected = exec(`SELECT c.Country, SUM(i.Total) FROM Invoice i JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.Country IN ('Brazil','Canada','France') GROUP BY 1 ORDER BY 2 DESC`);
      assert.deepEqual(canon(env.data.rows!), canon(expected));
      assert.equal(env.data.rows![0]![0], expected[0]![0], 'ordered by the metric, descending');
      assert.deepEqual(env.data.params, ['Brazil', 'Canada', 'France', 1000]);
      assert.match(String(env.data.sql), /IN \(\?, \?, \?\)/);
      assert.doesNotMatch(String(env.data.sql), /Brazil/, 'values are bound, never spliced');
      assert.deepEqual(env.data.required_joins, ['invoice_customer']);
      assert.deepEqual(env.data.columns, [
        { name: 'customer.Country', role: 'group_by', ref: 'customer.Country', type: 'text' },
        { name: 'invoice_total', role: 'measure', type: 'real' },
      ]);
      const audit = fs.readFileSync(h.auditPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const row = audit.filter((r) => r.tool === 'get_metric').pop()!;
      assert.equal(row.sql_fingerprint, env.data.fingerprint);
      assert.equal(row.row_count, 3);
      assert.equal(row.status, 'success');
    });

    it('gives the correct invoice total per genre across the invoice → invoice_line fan-out, unlike the naive join', async () => {
      const env = await call('get_metric', { name: 'invoice_total', group_by: ['genre.Name'] });
      assert.equal(env.status, 'success');
      assert.deepEqual(env.data.fan_out, {
        joins: ['invoice_line_invoice'],
        strategy: 'distinct_identity',
        note: "rows of 'invoice' repeated by invoice_line_invoice are counted once per group (DISTINCT on its identity before aggregating)",
      });
      const correct = exec(`SELECT g.Name, SUM(i.Total) FROM Invoice i
        JOIN (SELECT DISTINCT il.InvoiceId, t.GenreId FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId) x ON x.InvoiceId = i.InvoiceId
        JOIN Genre g ON g.GenreId = x.GenreId GROUP BY g.Name`);
      const naive = exec(`SELECT g.Name, SUM(i.Total) FROM Invoice i JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
        JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name`);
      const got = env.data.rows!.filter((r) => r[0] !== null);
      assert.deepEqual(canon(got), canon(correct));
      const rock = (rs: readonly Row[]): number => Number(rs.find((r) => r[0] === 'Rock')![1]);
      assert.ok(rock(naive) > rock(got) * 2, `naive Rock ${rock(naive)} vs correct ${rock(got)}`);
    });

    it('buckets line revenue by quarter through the inherited invoice date, equal to hand-written SQL', async () => {
      const env = await call('get_metric', { name: 'line_revenue', time_grain: 'quarter' });
      assert.equal(env.status, 'success');
      assert.deepEqual(env.data.time, { dimension: 'invoice.InvoiceDate', grain: 'quarter', resolution: 'inherited', inherited_via: ['invoice_line_invoice'] });
      const expected = exec(`SELECT strftime('%Y', i.InvoiceDate) || '-' || CASE (CAST(strftime('%m', i.InvoiceDate) AS INTEGER) + 2) / 3 WHEN 1 THEN '01' WHEN 2 THEN '04' WHEN 3 THEN '07' ELSE '10' END || '-01',
        SUM(il.UnitPrice * il.Quantity) FROM InvoiceLine il JOIN Invoice i ON i.InvoiceId = il.InvoiceId GROUP BY 1`);
      assert.deepEqual(canon(env.data.rows!), canon(expected));
    });

    it('answers every planner error kind with the charter recovery', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ name: 'invoice_totl' }, 'unknown_metric', 'list_metrics'],
        [{ name: 'invoice_total', group_by: ['Name'] }, 'malformed_name', 'describe_entity'],
        [{ name: 'invoice_total', group_by: ['genr.Name'] }, 'unknown_name', 'list_entities'],
        [{ name: 'invoice_total', group_by: ['genre.Nam'] }, 'unknown_group_by_column', 'describe_entity'],
        [{ name: 'invoice_total', filters: [{ column: 'customer.Countri', op: 'eq', value: 'Brazil' }] }, 'unknown_filter_column', 'describe_entity'],
        [{ name: 'invoice_total', filters: [{ column: 'customer.Country', op: 'in', value: 'Brazil' }] }, 'invalid_argument', 'get_metric'],
        [{ name: 'invoice_total', group_by: ['lonely_genre.Name'] }, 'unreachable_entity', 'resolve_join'],
        [{ name: 'track_count', group_by: ['tagged_genre.Name'] }, 'ambiguous_join', 'get_metric'],
        [{ name: 'customer_count', group_by: ['boss.Title'] }, 'ambiguous_path', 'get_metric'],
        [{ name: 'customer_count', time_grain: 'year' }, 'ambiguous_time_dimension', 'get_metric'],
        [{ name: 'invoice_total', via: ['invoice_custom'] }, 'unknown_via_join', 'list_joins'],
        [{ name: 'invoice_total', time_grain: 'fortnight' }, 'invalid_time_grain', 'get_metric'],
        [{ name: 'line_revenue', time_grain: 'day' }, 'grain_mismatch', 'get_metric'],
        [{ name: 'invoice_total', group_by: ['customer.Country'], order_by: [{ column: 'revenue' }] }, 'unknown_order_by_column', 'get_metric'],
        [{ name: 'broken_total' }, 'unknown_measure_column', 'describe_entity'],
        [{ name: 'ghost_count' }, 'schema_drift', 'get_index_status'],
      ];
      for (const [args, kind, tool] of cases) {
        const env = await call('get_metric', args);
        assert.equal(env.status, 'error', JSON.stringify(args));
        assert.equal(env.error!.kind, kind, `${JSON.stringify(args)} → ${env.error!.message}`);
        assert.equal(env.error!.recovery.suggested_tool, tool, `${kind} recovers to ${tool}`);
      }
      const fuzzy = await call('get_metric', { name: 'invoice_totl' });
      assert.ok((fuzzy.error!.recovery.fuzzy_matches as string[]).includes('invoice_total'));
      const amb = await call('get_metric', { name: 'track_count', group_by: ['tagged_genre.Name'] });
      assert.deepEqual(amb.error!.recovery.suggested_args, { name: 'track_count', group_by: ['tagged_genre.Name'], via: ['track_tagged_genre'] });
      const retried = await call('get_metric', amb.error!.recovery.suggested_args!);
      assert.equal(retried.status, 'success', 'following the recovery works');
      const td = await call('get_metric', { name: 'customer_count', time_grain: 'year' });
      assert.deepEqual(td.error!.recovery.fuzzy_matches, ['rep_born.BirthDate', 'rep_hired.HireDate']);
      const measure = await call('get_metric', { name: 'broken_total' });
      assert.match(measure.error!.message, /skipped/);
      assert.deepEqual(measure.error!.recovery.suggested_args, { name: 'invoice' });
      const limit = await call('get_metric', { name: 'invoice_total', limit: 0 });
      assert.equal(limit.error!.kind, 'invalid_argument');
      assert.equal(limit.error!.message, "argument 'limit' value must be >= 1");
    });

    it('refuses group-by over a PII-tagged column and MIN/MAX over one, whatever the policy, before running anything', async () => {
      const before = fs.readFileSync(h.auditPath, 'utf8').trim().split('\n').length;
      const grouped = await call('get_metric', { name: 'customer_count', group_by: ['customer.Email'] });
      assert.equal(grouped.status, 'refused');
      assert.equal(grouped.error!.kind, 'pii_blocked');
      assert.deepEqual(grouped.error!.pii_categories, ['contact']);
      assert.equal(grouped.error!.recovery.suggested_tool, 'describe_entity');
      assert.deepEqual(grouped.error!.recovery.suggested_args, { name: 'customer' });
      assert.deepEqual(JSON.parse((grouped.error!.recovery.suggested_rewrite as { rewritten: string }).rewritten), { name: 'customer_count', group_by: [] });
      const max = await call('get_metric', { name: 'youngest_employee_birth' });
      assert.equal(max.error!.kind, 'pii_blocked');
      assert.deepEqual(max.error!.pii_categories, ['demographic_protected']);
      const bucket = await call('get_metric', { name: 'customer_count', time_grain: 'year', time_dimension: 'rep_born.BirthDate' });
      assert.equal(bucket.error!.kind, 'pii_blocked');
      const rows = fs.readFileSync(h.auditPath, 'utf8').trim().split('\n').slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(rows.map((r) => [r.status, r.error_kind, r.row_count]), [
        ['refused', 'pii_blocked', null],
        ['refused', 'pii_blocked', null],
        ['refused', 'pii_blocked', null],
      ]);
      assert.deepEqual(rows[0]!.pii_categories, ['contact']);
    });

    it('filters on a tagged column only while the policy allows its category, and refuses with the blocked subset once it does not', async () => {
      const filter = { name: 'invoice_count', filters: [{ column: 'customer.Email', op: 'eq', value: 'luisg@embraer.com.br' }] };
      const allowed = await call('get_metric', filter);
      assert.equal(allowed.status, 'success');
      assert.deepEqual(allowed.data.rows, exec(`SELECT COUNT(*) FROM Invoice i JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.Email = 'luisg@embraer.com.br'`));
      assert.deepEqual(allowed.data.pii_categories, ['contact']);
      const blocked = await open({ workspaceDir: ws, block: ['contact'] });
      const refused = await callOn(blocked, 'get_metric', filter);
      assert.equal(refused.status, 'refused');
      assert.deepEqual(refused.error!.pii_categories, ['contact']);
      assert.match(refused.error!.message, /filtering on 'customer\.Email'/);
      const count = await callOn(blocked, 'get_metric', { name: 'customer_count', group_by: ['customer.Country'] });
      assert.equal(count.status, 'success', 'a count grouped by an untagged column stays allowed');
      // How many values of a blocked column are set may be counted; how many distinct ones there are may not: over
      // rows the caller filters, it tells whether two of them share a value.
      const counting = workspace(true);
      fs.writeFileSync(
        path.join(counting, '.schemabrain', 'counts.yaml'),
        'version: 1\nmetrics:\n  - { name: distinct_customer_emails, entity: customer, measure: { agg: count_distinct, column: Email } }\n  - { name: customers_with_email, entity: customer, measure: { agg: count, column: Email } }\n',
      );
      const countingBlocked = await open({ workspaceDir: counting, block: ['contact'] });
      const set = await callOn(countingBlocked, 'get_metric', { name: 'customers_with_email', filters: [{ column: 'customer.Country', op: 'eq', value: 'Brazil' }] });
      assert.equal(set.status, 'success', JSON.stringify(set).slice(0, 300));
      const distinct = await callOn(countingBlocked, 'get_metric', { name: 'distinct_customer_emails', filters: [{ column: 'customer.CustomerId', op: 'in', value: [1, 2] }] });
      assert.equal(distinct.status, 'refused');
      assert.match(distinct.error!.message, /COUNT_DISTINCT over 'customer\.Email'/);
      // A misspelt column is answered without naming the tagged ones among those it could have meant.
      const typo = await callOn(blocked, 'get_metric', { name: 'customer_count', group_by: ['customer.Emial'] });
      assert.equal(typo.status, 'error');
      assert.doesNotMatch(JSON.stringify(typo.error), /Email|Phone|Address|FirstName|LastName/);
      assert.match(typo.error!.message, /Allowed: .*Country/);
    });

    it('reports degraded with the reason and MEDIUM confidence: fan-out without identity, no time dimension, limit without order', async () => {
      const fan = await call('get_metric', { name: 'raw_invoice_total', group_by: ['genre.Name'] });
      assert.equal(fan.status, 'degraded');
      assert.equal(fan.degradation_reason, 'fan_out_join');
      assert.equal(fan.confidence, 'MEDIUM');
      assert.equal((fan.data.fan_out as Record<string, unknown>).strategy, 'unsafe');
      const naive = exec(`SELECT g.Name, SUM(i.Total) FROM Invoice i JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
        JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name`);
      assert.deepEqual(canon(fan.data.rows!.filter((r) => r[0] !== null)), canon(naive), 'the inflated numbers are the naive join, hence degraded');

      const time = await call('get_metric', { name: 'track_count', time_grain: 'month' });
      assert.equal(time.status, 'degraded');
      assert.equal(time.degradation_reason, 'time_dimension_unavailable');
      assert.deepEqual(time.data.rows, [[3503]]);
      assert.deepEqual(time.data.time, { resolution: 'unavailable' });

      const top = await call('get_metric', { name: 'invoice_total', group_by: ['customer.Country'], limit: 5 });
      assert.equal(top.status, 'degraded');
      assert.equal(top.degradation_reason, 'missing_order_by_with_limit');
      assert.equal(top.data.row_count, 5);
    });

    it('refuses a metric over a schema the server does not allow, with the widening hint', async () => {
      const narrow = await startHarness({ catalogPath, deps: { workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger), allowedSchemas: ['public'] } });
      harnesses.push(narrow);
      const env = await callOn(narrow, 'get_metric', { name: 'invoice_count' });
      assert.equal(env.status, 'refused');
      assert.equal(env.error!.kind, 'allowlist_violation');
      assert.equal((env.error!.recovery.widening_hint as Record<string, unknown>).scope_requested, 'schema:main');
    });

    it('reports partial with truncated rows when the server row cap cuts the result', async () => {
      const capped = await open({ workspaceDir: ws, maxRows: 5 });
      const env = await callOn(capped, 'get_metric', { name: 'units_sold', group_by: ['genre.Name'] });
      assert.equal(env.status, 'partial');
      assert.equal(env.data.truncated, true);
      assert.equal(env.data.truncated_by, 'rows');
      assert.equal(env.data.rows!.length, 5);
      const expected = exec('SELECT g.Name, SUM(il.Quantity) FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY 1 ORDER BY 1 LIMIT 5');
      assert.deepEqual(canon(env.data.rows!), canon(expected));
      const audit = fs.readFileSync(capped.auditPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(audit.pop()!.truncated, true);
    });
  });

  describe('without definitions', () => {
    it('answers empty, never an error, with hints, when the workspace has no .schemabrain folder or there is no workspace', async () => {
      for (const dir of [workspace(false), null]) {
        const hh = await open({ workspaceDir: dir });
        for (const [tool, args, hint] of [
          ['list_entities', {}, 'find_relevant_tables'],
          ['list_metrics', {}, 'find_relevant_tables'],
          ['list_joins', {}, 'find_relevant_tables'],
          ['find_relevant_entities', { query: 'customers' }, 'find_relevant_tables'],
          ['describe_entity', { name: 'customer' }, 'find_relevant_tables'],
          ['resolve_join', { entity_a: 'a', entity_b: 'b' }, 'suggest_joins'],
          ['get_metric', { name: 'revenue' }, 'find_relevant_tables'],
        ] as const) {
          const env = await callOn(hh, tool, args);
          assert.equal(env.status, 'empty', `${tool} with workspace ${dir}`);
          assert.ok(env.follow_up_hints!.includes(hint), `${tool} hints ${hint}`);
          assert.match(String(env.data.message), dir ? /\.schemabrain/ : /--workspace/);
        }
      }
    });
  });

  describe('broken definition files', () => {
    it('answers empty with the file errors when no definition survives, so the agent knows why', async () => {
      const dir = workspace(false);
      fs.mkdirSync(path.join(dir, '.schemabrain'));
      fs.writeFileSync(path.join(dir, '.schemabrain', 'metrics.yaml'), 'version: 1\nmetrics:\n  - name: revenue\n    entity: [unclosed\n');
      const hh = await open({ workspaceDir: dir });
      const env = await callOn(hh, 'list_metrics');
      assert.equal(env.status, 'empty');
      const errors = env.data.definition_errors as Array<Record<string, unknown>>;
      assert.equal(errors[0]!.file, path.join('.schemabrain', 'metrics.yaml'));
      assert.equal(errors[0]!.code, 'yaml_syntax');
      assert.match(String(env.data.message), /1 error/);
    });

    it('rejects a YAML alias bomb as invalid YAML, like any malformed file, and still serves the other files', async () => {
      const dir = workspace(true);
      fs.writeFileSync(path.join(dir, '.schemabrain', 'bomb.yaml'), aliasBomb());
      const hh = await open({ workspaceDir: dir });
      const env = await callOn(hh, 'list_metrics');
      assert.equal(env.status, 'success', JSON.stringify(env.error));
      assert.equal(env.data.total, 12);
      const errors = (env.data.definition_errors as Array<Record<string, unknown>>).filter((e) => e.file === path.join('.schemabrain', 'bomb.yaml'));
      assert.deepEqual(errors.map((e) => e.code), ['yaml_syntax']);
      assert.match(String(errors[0]!.message), /^not valid YAML: Excessive alias count/);
      assert.equal((await callOn(hh, 'get_metric', { name: 'invoice_count' })).status, 'success');
    });

    it('reports a metrics.yaml that is a folder instead of skipping it', async () => {
      const dir = workspace(false);
      fs.mkdirSync(path.join(dir, '.schemabrain', 'metrics.yaml'), { recursive: true });
      const hh = await open({ workspaceDir: dir });
      const env = await callOn(hh, 'list_metrics');
      assert.equal(env.status, 'empty');
      const errors = env.data.definition_errors as Array<Record<string, unknown>>;
      assert.equal(errors[0]!.file, path.join('.schemabrain', 'metrics.yaml'));
      assert.equal(errors[0]!.code, 'not_a_file');
      assert.match(String(errors[0]!.message), /is a directory/);
    });

    it('answers index_not_ready naming the path when .schemabrain or the workspace is a regular file; the raw schema tools still answer', async () => {
      const dir = workspace(false);
      const file = path.join(dir, '.schemabrain');
      fs.writeFileSync(file, 'not a folder\n');
      for (const [wsDir, culprit] of [
        [dir, file],
        [file, file],
      ] as const) {
        const hh = await open({ workspaceDir: wsDir });
        for (const [tool, args] of [
          ['list_metrics', {}],
          ['get_metric', { name: 'invoice_total' }],
          ['list_entities', {}],
        ] as const) {
          const env = await callOn(hh, tool, args);
          assert.equal(env.status, 'error', `${tool}: ${JSON.stringify(env)}`);
          assert.equal(env.error!.kind, 'index_not_ready');
          assert.ok(env.error!.message.includes(`${culprit} is not a directory`), env.error!.message);
          assert.equal(env.error!.recovery.suggested_tool, 'find_relevant_tables');
        }
        assert.equal((await callOn(hh, 'find_relevant_tables', { query: 'invoices' })).status, 'success');
      }
    });

    it('the resource watcher warns once about a .schemabrain that is a regular file, without failing its checks', async () => {
      const dir = workspace(false);
      fs.writeFileSync(path.join(dir, '.schemabrain'), '');
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (m: string) => warnings.push(m) };
      const deps = { catalog: new CatalogProvider(catalogPath), workspaceDir: dir, semantic: new SemanticModels(dir, logger), logger } as unknown as ServerDeps;
      const watcher = new CatalogWatcher(deps);
      await watcher.tick();
      await watcher.tick();
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0]!, /^semantic definitions cannot be loaded: definitions folder .* is not a directory/);
    });
  });

  describe('model cache', () => {
    it('reuses the loaded model while files are unchanged and reloads after an edit', async () => {
      const dir = workspace(true);
      const models = new SemanticModels(dir, silentLogger);
      const hh = await startHarness({ catalogPath, deps: { workspaceDir: dir, semantic: models } });
      harnesses.push(hh);
      assert.equal((await callOn(hh, 'list_metrics')).data.total, 12);
      const state = await new CatalogProvider(catalogPath).get();
      assert.ok(state.state === 'ready');
      const first = await models.get(state.view);
      assert.equal(await models.get(state.view), first, 'unchanged files: the same loaded model');
      const file = path.join(dir, '.schemabrain', 'metrics.yaml');
      fs.appendFileSync(file, '  - { name: album_count, entity: album, measure: { agg: count } }\n');
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(file, later, later);
      const env = await callOn(hh, 'get_metric', { name: 'album_count' });
      assert.equal(env.status, 'success');
      assert.deepEqual(env.data.rows, exec('SELECT COUNT(*) FROM Album'));
      assert.equal((await callOn(hh, 'list_metrics')).data.total, 13);
      assert.notEqual(await models.get(state.view), first, 'an edited file is reloaded');
    });
  });
});

describe('get_metric on Pagila (PostgreSQL) through the SDK client', function () {
  this.timeout(300000);
  let pg: TestPostgres;
  let url: string;
  let h: Harness;
  let client: Client;

  before(async function () {
    skipWithoutData(this, 'pagila/pagila-schema.sql', 'pagila/pagila-data.sql.gz');
    // Checks against hand-written SQL over a second connection; the embedded engine serves one connection at a time.
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    ({ url } = await loadDataset(pg, 'pagila'));
    const dir = tempDir('sb-semtools-pg-');
    const catalogPath = path.join(dir, 'catalog.sqlite');
    await indexInto(catalogPath, url, 'pagila');
    const ws = tempDir('sb-semtools-pgws-');
    fs.mkdirSync(path.join(ws, '.schemabrain'));
    const pack = path.join(REPO_ROOT, 'test', 'fixtures', 'semantic', 'pagila');
    for (const f of fs.readdirSync(pack)) if (f.endsWith('.yaml')) fs.copyFileSync(path.join(pack, f), path.join(ws, '.schemabrain', f));
    h = await startHarness({ catalogPath, deps: { workspaceDir: ws, semantic: new SemanticModels(ws, silentLogger) } });
    client = new Client({ connectionString: url });
    await client.connect();
  });
  after(async () => {
    await h?.close();
    await client?.end();
    await pg?.stop();
  });

  const call = async (args: Record<string, unknown>): Promise<Env> => {
    const env = await h.call('get_metric', args);
    assert.ok(EnvelopeSchema.safeParse(env).success, JSON.stringify(env).slice(0, 400));
    return env as unknown as Env;
  };
  const hand = async (sql: string): Promise<Row[]> => (await client.query({ text: sql, rowMode: 'array' })).rows as Row[];
  const canonPg = (rows: readonly Row[]): string[] =>
    rows.map((r) => JSON.stringify(r.map((v) => (v instanceof Date ? v.toISOString() : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(Number(v).toFixed(6)) : v)))).sort();

  it('buckets revenue by month with $n parameters, equal to hand-written SQL', async () => {
    const env = await call({ name: 'revenue', time_grain: 'month' });
    assert.equal(env.status, 'success');
    assert.equal(env.data.dialect, 'postgres');
    assert.match(String(env.data.sql), /date_trunc\('month', "t0"\."payment_date"\)/);
    assert.match(String(env.data.sql), /LIMIT \$1$/);
    const expected = await hand(`SELECT date_trunc('month', payment_date), SUM(amount) FROM payment GROUP BY 1`);
    assert.deepEqual(canonPg(env.data.rows!), canonPg(expected));
  });

  it('gives correct revenue per film category across the film → film_category fan-out', async () => {
    const env = await call({ name: 'revenue', group_by: ['category.name'], order_by: [{ column: 'revenue', direction: 'desc' }] });
    assert.equal(env.status, 'success');
    assert.equal((env.data.fan_out as { strategy: string }).strategy, 'distinct_identity');
    const expected = await hand(`
      SELECT x.name, SUM(p.amount) FROM payment p
      JOIN (SELECT DISTINCT r.rental_id, c.name FROM rental r JOIN inventory i ON i.inventory_id = r.inventory_id
            JOIN film_category fc ON fc.film_id = i.film_id JOIN category c ON c.category_id = fc.category_id) x ON x.rental_id = p.rental_id
      GROUP BY 1`);
    assert.deepEqual(canonPg(env.data.rows!.filter((r) => r[0] !== null)), canonPg(expected));
  });

  it('refuses revenue per actor surname: last_name is a contact-tagged column (ADR 0012)', async () => {
    const env = await call({ name: 'revenue', group_by: ['actor.last_name'] });
    assert.equal(env.status, 'refused');
    assert.deepEqual(env.error!.pii_categories, ['contact']);
    assert.deepEqual(env.error!.recovery.suggested_args, { name: 'actor' });
  });
});
