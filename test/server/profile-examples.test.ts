import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EnvelopeSchema } from '../../src/core/envelope';
import { CHINOOK_SQLITE, indexInto, startHarness, tempDir } from '../support/server-harness';
import type { Harness } from '../support/server-harness';

type Env = {
  status: string;
  data: Record<string, unknown> | null;
  error: { kind: string; message: string; recovery: Record<string, unknown>; pii_categories?: string[] } | null;
  confidence: string | null;
};
type Column = { name: string; type: string; null_fraction: number | null; distinct_estimate: number | null; min?: string; max?: string; top_values?: { value: string; frequency: number }[]; origin: string; pii_categories?: string[]; redacted?: boolean };
type Finding = { kind: string; severity: string; column: string; count: number; checked: number; examples?: string[]; references?: string; basis?: string };

function assertEnvelope(env: Record<string, unknown>): Env {
  const r = EnvelopeSchema.safeParse(env);
  assert.ok(r.success, `invalid envelope: ${JSON.stringify(r.error?.issues)}\n${JSON.stringify(env).slice(0, 400)}`);
  return env as unknown as Env;
}

describe('profile_table and get_example_queries over the SDK client (Chinook SQLite)', function () {
  let h: Harness;
  let home: string;
  const previousHome = process.env.SCHEMABRAIN_HOME;
  const call = async (name: string, args: Record<string, unknown>): Promise<Env> => assertEnvelope(await h.call(name, args));

  before(async () => {
    const dir = tempDir('sb-prof-');
    home = path.join(dir, 'home');
    process.env.SCHEMABRAIN_HOME = home;
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, CHINOOK_SQLITE, 'chinook');
    h = await startHarness({ catalogPath: catalog });
  });
  after(async () => {
    await h?.close();
    if (previousHome === undefined) delete process.env.SCHEMABRAIN_HOME;
    else process.env.SCHEMABRAIN_HOME = previousHome;
  });

  it('profiles a small table whole: exact figures, HIGH confidence, artifacts under SCHEMABRAIN_HOME and a succeeded job', async () => {
    const env = await call('profile_table', { qualified_name: 'main.Customer' });
    assert.equal(env.status, 'success');
    assert.equal(env.confidence, 'HIGH');
    const d = env.data!;
    assert.deepEqual(d.sample, { method: 'full_table', requested_rows: 1000, rows: 59, complete: true });
    const cols = d.columns as Column[];
    const company = cols.find((c) => c.name === 'Company')!;
    assert.equal(company.origin, 'sample');
    assert.ok(company.null_fraction! > 0.8 && company.null_fraction! < 0.9, `Company null fraction ${company.null_fraction}`);
    const country = cols.find((c) => c.name === 'Country')!;
    assert.equal(country.distinct_estimate, 24);
    assert.equal(country.top_values?.[0]?.value, 'USA');
    const job = d.job as { job_id: string; state: string; progress: number };
    assert.equal(job.state, 'succeeded');
    assert.equal(job.progress, 100);
    const artifacts = d.artifacts as Record<string, string>;
    for (const key of ['profile_html', 'profile_json', 'quality_html', 'quality_json']) {
      const p = artifacts[key]!;
      assert.ok(path.isAbsolute(p), `${key} is absolute`);
      assert.ok(p.startsWith(path.join(home, 'artifacts', job.job_id)), `${key} lives under the job folder: ${p}`);
      assert.ok(fs.statSync(p).size > 100);
    }
    const profileDoc = JSON.parse(fs.readFileSync(artifacts.profile_json!, 'utf8')) as { job: { job_id: string }; columns: Column[] };
    assert.equal(profileDoc.job.job_id, job.job_id);
    assert.equal(profileDoc.columns.length, cols.length);
    const qualityDoc = JSON.parse(fs.readFileSync(artifacts.quality_json!, 'utf8')) as { findings: Finding[] };
    assert.deepEqual(qualityDoc.findings.map((f) => f.kind), (d.findings as Finding[]).map((f) => f.kind));
    const html = fs.readFileSync(artifacts.profile_html!, 'utf8');
    assert.match(html, /prefers-color-scheme: dark/);
    assert.doesNotMatch(html, /<script/i);
  });

  it('never shows values of PII-tagged columns: counts only, no min/max or top values, in the response and the artifacts', async () => {
    const env = await call('profile_table', { qualified_name: 'main.Customer', response_format: 'detailed' });
    const cols = env.data!.columns as Column[];
    const tagged = cols.filter((c) => (c.pii_categories ?? []).length > 0);
    assert.ok(tagged.some((c) => c.name === 'Email'), `Email is PII-tagged: ${JSON.stringify(tagged.map((c) => c.name))}`);
    for (const c of tagged) {
      assert.equal(c.min, undefined, `${c.name} has no min`);
      assert.equal(c.max, undefined, `${c.name} has no max`);
      assert.equal(c.top_values, undefined, `${c.name} has no top values`);
      assert.equal(typeof c.null_fraction, 'number');
    }
    const email = cols.find((c) => c.name === 'Email')!;
    assert.equal(email.distinct_estimate, 59);
    const artifacts = env.data!.artifacts as Record<string, string>;
    const all = ['profile_html', 'profile_json', 'quality_html', 'quality_json'].map((k) => fs.readFileSync(artifacts[k]!, 'utf8')).join('\n');
    assert.doesNotMatch(all, /@[a-z0-9-]+\.(com|org|net|de|br|fr|no|ca|it|au|se|cz|pl|hu|pt|uk|in|ar|cl|fi|dk|nl|ie|es)\b/i, 'no e-mail address in any artifact');
    assert.doesNotMatch(JSON.stringify(env.data), /luisg@embraer\.com\.br/);
  });

  it('samples a larger table in random order and marks the figures as a sample (MEDIUM confidence)', async () => {
    const env = await call('profile_table', { qualified_name: 'main.Track', sample_rows: 500 });
    assert.equal(env.status, 'success');
    assert.equal(env.confidence, 'MEDIUM');
    const s = env.data!.sample as { method: string; rows: number; complete: boolean };
    assert.equal(s.method, 'random_order');
    assert.equal(s.rows, 500);
    assert.equal(s.complete, false);
    const cols = env.data!.columns as Column[];
    // Catalog statistics from index time describe the whole table; the merge prefers them over a partial sample.
    assert.ok(cols.every((c) => c.origin === 'catalog_stats' || c.origin === 'sample'));
    const findings = env.data!.findings as Finding[];
    assert.ok(!findings.some((f) => f.kind === 'orphaned_reference'), 'Chinook references are intact');
  });

  it('with sample_rows 0 answers from catalog statistics alone and reads nothing from the source', async () => {
    const env = await call('profile_table', { qualified_name: 'main.Invoice', sample_rows: 0 });
    assert.equal(env.status, 'success');
    assert.equal(env.confidence, 'LOW');
    assert.equal((env.data!.sample as { method: string }).method, 'none');
    assert.ok((env.data!.columns as Column[]).some((c) => c.origin === 'catalog_stats'));
    assert.deepEqual(env.data!.findings, []);
  });

  it('turns bad arguments and unknown tables into envelopes with a recovery', async () => {
    const bad = await call('profile_table', { qualified_name: 'main.Customer', sample_rows: 100_000 });
    assert.equal(bad.status, 'error');
    assert.equal(bad.error!.kind, 'invalid_argument');
    assert.match(bad.error!.message, /sample_rows/);
    const unknown = await call('profile_table', { qualified_name: 'main.Custmer' });
    assert.equal(unknown.error!.kind, 'unknown_name');
    assert.ok((unknown.error!.recovery.fuzzy_matches as string[]).includes('main.Customer'));
  });

  it('get_example_queries says plainly that SQLite has no query log (empty, not an error)', async () => {
    const env = await call('get_example_queries', { qualified_name: 'main.Invoice' });
    assert.equal(env.status, 'empty');
    assert.deepEqual(env.data!.queries, []);
    assert.match(String(env.data!.note), /SQLite keeps no query log/);
    const bad = await call('get_example_queries', { qualified_name: 'main.Invoice', limit: 21 });
    assert.equal(bad.error!.kind, 'invalid_argument');
  });
});

describe('profile_table when the source is gone', function () {
  let h: Harness;
  const previousHome = process.env.SCHEMABRAIN_HOME;

  before(async () => {
    const dir = tempDir('sb-prof-gone-');
    process.env.SCHEMABRAIN_HOME = path.join(dir, 'home');
    const copy = path.join(dir, 'chinook-copy.sqlite');
    fs.copyFileSync(CHINOOK_SQLITE, copy);
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, copy, 'gone');
    fs.rmSync(copy);
    h = await startHarness({ catalogPath: catalog });
  });
  after(async () => {
    await h?.close();
    if (previousHome === undefined) delete process.env.SCHEMABRAIN_HOME;
    else process.env.SCHEMABRAIN_HOME = previousHome;
  });

  it('falls back to catalog statistics with status partial, LOW confidence and a note saying why', async () => {
    const env = assertEnvelope(await h.call('profile_table', { qualified_name: 'main.Genre' }));
    assert.equal(env.status, 'partial');
    assert.equal(env.confidence, 'LOW');
    assert.equal((env.data!.sample as { method: string }).method, 'none');
    assert.match((env.data!.notes as string[]).join(' '), /could not be reached .*missing/);
    const cols = env.data!.columns as Column[];
    assert.equal(cols.find((c) => c.name === 'Name')!.origin, 'catalog_stats');
    assert.equal(cols.find((c) => c.name === 'Name')!.distinct_estimate, 25);
  });
});
