import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadSqlJs } from '../../src/core/catalog/sqljs';
import { EnvelopeSchema } from '../../src/core/envelope';
import type { CliIO } from '../../src/cli/command';
import { main } from '../../src/cli/main';
import { parseFilter } from '../../src/cli/commands/metric';
import { CHINOOK_SQLITE, tempDir } from '../support/server-harness';

const WORKSPACE = path.join(__dirname, '..', '..', 'samples', 'chinook-workspace');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The envelope, when --json printed one. */
  readonly env: { status: string; data: Record<string, unknown> | null; error: { kind: string; message: string; recovery: Record<string, unknown> } | null } | undefined;
}

function sink(): { stream: NodeJS.WritableStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { stream, text: () => text };
}

describe('schemabrain metric and schemabrain profile (the CLI verbs the editor runs)', function () {
  let home: string;
  let catalog: string;
  let savedHome: string | undefined;

  async function cli(...argv: string[]): Promise<Run> {
    const out = sink();
    const err = sink();
    const io: CliIO = { stdout: out.stream, stderr: err.stream, env: { ...process.env, SCHEMABRAIN_HOME: home, SCHEMABRAIN_LOG_LEVEL: 'warn' }, isTTY: false };
    const code = await main(argv, io);
    const line = out.text().split('\n').find((l) => l.startsWith('{"status"'));
    return { code, stdout: out.text(), stderr: err.text(), env: line ? JSON.parse(line) : undefined };
  }

  before(async () => {
    home = tempDir('sb-cli-metric-');
    catalog = path.join(home, 'catalog.sqlite');
    // profile_table writes its reports under $SCHEMABRAIN_HOME/artifacts of the process, as the spawned CLI does.
    savedHome = process.env.SCHEMABRAIN_HOME;
    process.env.SCHEMABRAIN_HOME = home;
    const r = await cli('index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog, '--json');
    assert.equal(r.code, 0, r.stderr);
  });

  after(() => {
    if (savedHome === undefined) delete process.env.SCHEMABRAIN_HOME;
    else process.env.SCHEMABRAIN_HOME = savedHome;
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('computes a metric grouped by a joined column and bucketed by year, matching the raw sum', async () => {
    const r = await cli('metric', 'invoice_total', '--group-by', 'customer.Country', '--grain', 'year', '--workspace', WORKSPACE, '--catalog', catalog, '--json');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(EnvelopeSchema.safeParse(r.env).success, 'a charter envelope');
    assert.equal(r.env!.status, 'success');
    const d = r.env!.data!;
    assert.deepEqual((d.columns as { name: string }[]).map((c) => c.name), ['invoice.InvoiceDate__year', 'customer.Country', 'invoice_total']);
    const rows = d.rows as [string, string, number][];
    assert.ok(rows.length > 20, `${rows.length} rows`);
    for (const [year] of rows) assert.match(year, /^\d{4}-01-01$/);
    const SQL = await loadSqlJs();
    const db = new SQL.Database(fs.readFileSync(CHINOOK_SQLITE));
    const raw = Number(db.exec('SELECT SUM(Total) FROM Invoice')[0]!.values[0]![0]);
    db.close();
    const total = rows.reduce((s, r) => s + r[2], 0);
    assert.ok(Math.abs(total - raw) < 0.01, `grouped sum ${total} vs raw ${raw}`);
    assert.match(String(d.sql), /LEFT JOIN "main"\."Customer"/);
  });

  it('prints a readable table with the status, the SQL and the bound parameters without --json', async () => {
    const r = await cli('metric', 'invoice_total', '--group-by', 'customer.Country', '--filter', 'customer.Country in USA,Canada', '--order-by', 'invoice_total:desc', '--workspace', WORKSPACE, '--catalog', catalog);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0]!, /^invoice_total on chinook \(2 rows\)/);
    assert.match(lines[1]!, /^customer\.Country\s+invoice_total$/);
    assert.match(lines[3]!, /^USA\s+\d+\.\d+$/, 'the larger country first');
    assert.match(r.stdout, /params: \["USA","Canada"/);
    assert.match(r.stdout, /status: success · confidence HIGH/);
  });

  it('refuses a breakdown by a PII column with exit code 1, naming the column and a safe rewrite', async () => {
    const json = await cli('metric', 'invoice_total', '--group-by', 'customer.Email', '--workspace', WORKSPACE, '--catalog', catalog, '--json');
    assert.equal(json.code, 1);
    assert.equal(json.env!.status, 'refused');
    assert.equal(json.env!.error!.kind, 'pii_blocked');
    assert.match(json.env!.error!.message, /group_by over 'customer\.Email'/);
    const text = await cli('metric', 'invoice_total', '--group-by', 'customer.Email', '--workspace', WORKSPACE, '--catalog', catalog);
    assert.equal(text.code, 1);
    assert.equal(text.stdout, '');
    assert.match(text.stderr, /refused \(pii_blocked\): Refused before running: group_by over 'customer\.Email'/);
    assert.match(text.stderr, /try: \{"name":"invoice_total","group_by":\[\]\}/);
  });

  it('exits 2 with a clear message for a malformed filter, an unknown grain and an unknown metric', async () => {
    const text = await cli('metric', 'invoice_total', '--filter', 'invoice.Total', '--workspace', WORKSPACE, '--catalog', catalog);
    assert.equal(text.code, 2);
    assert.match(text.stderr, /--filter 'invoice\.Total' has no operator; write 'entity\.column op value'/);
    const json = await cli('metric', 'invoice_total', '--limit', '0', '--workspace', WORKSPACE, '--catalog', catalog, '--json');
    assert.equal(json.code, 2);
    assert.equal(json.env!.error!.kind, 'invalid_argument');
    assert.match(json.env!.error!.message, /--limit must be an integer between 1 and/);
    const grain = await cli('metric', 'invoice_total', '--grain', 'decade', '--workspace', WORKSPACE, '--catalog', catalog, '--json');
    assert.equal(grain.code, 2);
    assert.equal(grain.env!.status, 'error');
    assert.match(grain.env!.error!.message, /decade/);
    const unknown = await cli('metric', 'invoice_totl', '--workspace', WORKSPACE, '--catalog', catalog);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Metric 'invoice_totl' is not defined/);
  });

  it('exits 2 with "is not a directory" for a workspace that is a file, or whose .schemabrain is a file', async () => {
    const ws = path.join(home, 'ws-file');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, '.schemabrain'), 'not a folder\n');
    for (const [workspace, culprit] of [
      ['/dev/null', '/dev/null'],
      [ws, path.join(ws, '.schemabrain')],
    ]) {
      const text = await cli('metric', 'invoice_total', '--workspace', workspace!, '--catalog', catalog);
      assert.equal(text.code, 2, text.stdout + text.stderr);
      assert.ok(text.stderr.includes(`error (index_not_ready): The semantic definitions cannot be loaded: `), text.stderr);
      assert.ok(text.stderr.includes(`${culprit} is not a directory`), text.stderr);
      assert.doesNotMatch(text.stderr, /ENOTDIR|scandir|\n\s+at /);
      const json = await cli('metric', 'invoice_total', '--workspace', workspace!, '--catalog', catalog, '--json');
      assert.equal(json.code, 2);
      assert.equal(json.env!.error!.kind, 'index_not_ready');
    }
  });

  it('exits 2 with unknown_metric naming the folder when nothing is defined there, and reports a metrics.yaml that is a folder', async () => {
    const missing = path.join(home, 'no-such-workspace');
    const text = await cli('metric', 'invoice_total', '--workspace', missing, '--catalog', catalog);
    assert.equal(text.code, 2, text.stdout + text.stderr);
    assert.equal(text.stdout, '');
    assert.ok(text.stderr.includes(`error (unknown_metric): Metric 'invoice_total' is not defined: no definitions found in ${path.join(missing, '.schemabrain')}`), text.stderr);
    const json = await cli('metric', 'invoice_total', '--workspace', missing, '--catalog', catalog, '--json');
    assert.equal(json.code, 2);
    assert.equal(json.env!.error!.kind, 'unknown_metric');
    assert.equal(json.env!.error!.recovery.suggested_tool, 'list_metrics');
    const ws = path.join(home, 'ws-dir-named-yaml');
    fs.mkdirSync(path.join(ws, '.schemabrain', 'metrics.yaml'), { recursive: true });
    const dir = await cli('metric', 'invoice_total', '--workspace', ws, '--catalog', catalog);
    assert.equal(dir.code, 2);
    assert.ok(dir.stderr.includes(`no definitions found in ${path.join(ws, '.schemabrain')} (the files there have 1 error(s), the first in ${path.join('.schemabrain', 'metrics.yaml')}:1: is a directory, not a definitions file`), dir.stderr);
  });

  it('reports a YAML alias bomb in the definitions as invalid YAML (exit 2), not a stack trace', async () => {
    const ws = path.join(home, 'ws-alias-bomb');
    fs.mkdirSync(path.join(ws, '.schemabrain'), { recursive: true });
    const lines = ['version: 1', 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
    fs.writeFileSync(path.join(ws, '.schemabrain', 'metrics.yaml'), `${lines.join('\n')}\nmetrics: *a8\n`);
    const text = await cli('metric', 'invoice_total', '--workspace', ws, '--catalog', catalog);
    assert.equal(text.code, 2, text.stdout + text.stderr);
    assert.match(text.stderr, /error \(unknown_metric\): .*metrics\.yaml:1: not valid YAML: Excessive alias count/);
    assert.doesNotMatch(text.stderr, /ReferenceError|\n\s+at /);
  });

  it('parses filters written with symbols or words, lists and null tests', () => {
    assert.deepEqual(parseFilter('invoice.Total >= 10'), { column: 'invoice.Total', op: 'gte', value: 10 });
    assert.deepEqual(parseFilter("customer.Country = 'New Zealand'"), { column: 'customer.Country', op: 'eq', value: 'New Zealand' });
    assert.deepEqual(parseFilter('customer.Country not in USA,Canada'), { column: 'customer.Country', op: 'not_in', value: ['USA', 'Canada'] });
    assert.deepEqual(parseFilter('invoice.BillingState is null'), { column: 'invoice.BillingState', op: 'is_null' });
    assert.throws(() => parseFilter('Total > 3'), /without its entity/);
    assert.throws(() => parseFilter('invoice.BillingState is null x'), /gives a value to is_null/);
  });

  it('profiles a table, reports its quality findings and writes the HTML and JSON reports', async () => {
    const r = await cli('profile', 'main.Customer', '--sample-rows', '500', '--catalog', catalog, '--json');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.env!.status, 'success');
    const d = r.env!.data!;
    const findings = d.findings as { kind: string; column: string }[];
    assert.ok(findings.some((f) => f.kind === 'high_null_fraction' && f.column === 'Company'), JSON.stringify(findings));
    const email = (d.columns as { name: string; pii_categories?: string[]; top_values?: unknown }[]).find((c) => c.name === 'Email')!;
    assert.deepEqual(email.pii_categories, ['contact']);
    assert.equal(email.top_values, undefined, 'PII values are not listed');
    const artifacts = d.artifacts as Record<string, string>;
    for (const f of Object.values(artifacts)) assert.ok(fs.existsSync(f) && f.startsWith(home), f);
    assert.match(fs.readFileSync(artifacts.quality_html!, 'utf8'), /Company/);
    const text = await cli('profile', 'main.Customer', '--catalog', catalog);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^main\.Customer on chinook: about 59 rows/);
    assert.match(text.stdout, /findings: 0 high, 0 medium, [1-9] low/);
    assert.match(text.stdout, /\[low\] high_null_fraction Company:/);
    assert.match(text.stdout, /reports: .*profile\.html/);
  });

  it('exits 2 with a typed error naming the artifacts folder when SCHEMABRAIN_HOME is a regular file', async () => {
    const file = path.join(home, 'home-is-a-file');
    fs.writeFileSync(file, 'x');
    // profile_table keeps its reports under the process's SCHEMABRAIN_HOME
    process.env.SCHEMABRAIN_HOME = file;
    try {
      const text = await cli('profile', 'main.Track', '--catalog', catalog);
      assert.equal(text.code, 2, text.stdout + text.stderr);
      assert.ok(text.stderr.includes(`error (index_not_ready): Cannot profile 'main.Track': cannot write the profile reports under ${path.join(file, 'artifacts')}: ${file} is not a directory`), text.stderr);
      assert.doesNotMatch(text.stderr, /ENOTDIR|internal_error|\n\s+at /);
      const json = await cli('profile', 'main.Track', '--catalog', catalog, '--json');
      assert.equal(json.code, 2);
      assert.equal(json.env!.error!.kind, 'index_not_ready');
      assert.equal(json.env!.error!.recovery.suggested_tool, 'describe_table');
      assert.equal(fs.readFileSync(file, 'utf8'), 'x');
    } finally {
      process.env.SCHEMABRAIN_HOME = home;
    }
  });

  it('exits 2 naming the artifacts folder when it is not writable, and leaves no half-written job', async function () {
    if (process.getuid?.() === 0) this.skip(); // root writes anywhere
    const root = path.join(home, 'artifacts');
    fs.mkdirSync(root, { recursive: true });
    const before = fs.readdirSync(root);
    fs.chmodSync(root, 0o500);
    try {
      const text = await cli('profile', 'main.Track', '--catalog', catalog);
      assert.equal(text.code, 2, text.stdout + text.stderr);
      assert.ok(text.stderr.includes(`cannot write the profile reports under ${root}: ${root} is not writable (EACCES)`), text.stderr);
    } finally {
      fs.chmodSync(root, 0o700);
    }
    assert.deepEqual(fs.readdirSync(root), before);
  });

  it('answers an unknown table with exit code 2 and the closest names', async () => {
    const r = await cli('profile', 'main.Custmer', '--catalog', catalog);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /error \(unknown_name\): Table 'main\.Custmer' not found/);
    assert.match(r.stderr, /did you mean: main\.Customer/);
  });

  it('query shows control characters and bidi overrides from the data escaped, never sent to the terminal; --json keeps them exact', async () => {
    const sql = `SELECT char(27)||'[2J'||char(27)||'[31mRED' AS "a${'\x07'}b", char(0)||char(155)||char(127) AS c, 'x'||char(8238)||char(8297)||'y' AS d`;
    const r = await cli('query', sql, '--catalog', catalog);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, 'no control character reaches the terminal');
    const lines = r.stdout.split('\n');
    assert.match(lines[0]!, /^a\\x07b\s+c\s+d$/, 'column names are escaped too');
    assert.match(lines[2]!, /^\\x1b\[2J\\x1b\[31mRED\s+\\x00\\x9b\\x7f\s+x\\u202e\\u2069y$/);
    const json = await cli('query', sql, '--catalog', catalog, '--json');
    assert.equal(json.code, 0);
    assert.deepEqual((json.env!.data!.rows as unknown[][])[0], ['\x1b[2J\x1b[31mRED', '\x00\x9b\x7f', 'x\u202e\u2069y']);
  });

  it('query prints the widening hint of a system-catalog refusal as text (the scope, whether widening helps, why)', async () => {
    const r = await cli('query', 'SELECT * FROM main.sqlite_master', '--catalog', catalog);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stderr, /\[object Object\]/);
    assert.match(r.stderr, /refused \(allowlist_violation\)/);
    assert.match(r.stderr, /\n {2}hint: the query reads system catalogs \(sqlite_schema\).* \(scope schema:sqlite_schema; widening it would not unblock this call\)\n/);
    assert.match(r.stderr, /\n {2}next: list_indexed_schemas\n/);
  });

  it('records each run in the audit log like any tool call, unless --no-audit', async () => {
    const log = fs.readFileSync(path.join(home, 'audit.log'), 'utf8');
    assert.match(log, /"tool":"get_metric"/);
    assert.match(log, /"tool":"profile_table"/);
    const before = log.length;
    await cli('metric', 'invoice_count', '--workspace', WORKSPACE, '--catalog', catalog, '--no-audit', '--json');
    assert.equal(fs.readFileSync(path.join(home, 'audit.log'), 'utf8').length, before);
  });
});
