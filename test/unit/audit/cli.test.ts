import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { auditListCommand, auditVerifyCommand } from '../../../src/cli/commands/audit';
import { openAuditLog } from '../../../src/core/audit/log';
import { anchorPath, readAnchorFile } from '../../../src/core/audit/verify';
import { readLines, rechain, row, tempDir, writeLines } from './helpers';

function io(env: NodeJS.ProcessEnv): { io: { stdout: PassThrough; stderr: PassThrough; env: NodeJS.ProcessEnv; isTTY: boolean }; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  stdout.on('data', (d: Buffer) => (o += d.toString()));
  stderr.on('data', (d: Buffer) => (e += d.toString()));
  return { io: { stdout, stderr, env, isTTY: false }, out: () => o, err: () => e };
}

describe('schemabrain audit verify and audit list', () => {
  let dir: string;
  let file: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    dir = tempDir('cli');
    file = path.join(dir, 'audit.log');
    env = { SCHEMABRAIN_HOME: dir };
    const log = openAuditLog(file);
    await log.append(row({ tool: 'describe_table' }));
    await log.append(row({ tool: 'run_query', status: 'refused', errorKind: 'pii_blocked', piiCategories: ['credential'] }));
    await log.append(row({ tool: 'run_query', rowCount: 50, truncated: true }));
    await log.close();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 on an intact log under SCHEMABRAIN_HOME and anchors its head', async () => {
    const t = io(env);
    assert.equal(await auditVerifyCommand.run([], t.io), 0);
    assert.match(t.out(), /audit chain intact: 3 rows verified/);
    assert.equal(readAnchorFile(file)?.seq, 3);
  });

  it('exits 1 and names the line, seq and reason of a break', async () => {
    const lines = readLines(file);
    lines[1] = lines[1].replace('pii_blocked', 'unknown_name');
    writeLines(file, lines);
    const t = io(env);
    assert.equal(await auditVerifyCommand.run(['--path', file], t.io), 1);
    assert.match(t.out(), /BROKEN .* at line 2, seq 2: hash_mismatch/);
    assert.ok(!fs.existsSync(anchorPath(file)), 'a broken log does not move the anchor');
  });

  it('catches a coherent rewrite between two runs through the anchor file', async () => {
    assert.equal(await auditVerifyCommand.run([], io(env).io), 0);
    const lines = readLines(file);
    writeLines(file, rechain([lines[0], lines[2], lines[2]]));
    const t = io(env);
    assert.equal(await auditVerifyCommand.run(['--json'], t.io), 1);
    const out = JSON.parse(t.out()) as { ok: boolean; breaks: { reason: string; seq: number }[] };
    assert.equal(out.ok, false);
    assert.deepEqual([out.breaks[0].reason, out.breaks[0].seq], ['anchor_mismatch', 3]);
    assert.equal(await auditVerifyCommand.run(['--no-anchor'], io(env).io), 0, 'without the anchor the rewrite looks intact');
  });

  it('prints JSON with --json and every break with --full', async () => {
    const lines = readLines(file);
    lines[0] = lines[0].replace('describe_table', 'describe_tablX');
    lines[2] = lines[2].replace('run_query', 'run_querX');
    writeLines(file, lines);
    const t = io(env);
    assert.equal(await auditVerifyCommand.run(['--full', '--json'], t.io), 1);
    const out = JSON.parse(t.out()) as { breaks: { line: number }[] };
    assert.deepEqual(out.breaks.map((b) => b.line), [1, 3]);
  });

  it('exits 2 with a message for a missing log and for bad flags, never a stack trace', async () => {
    for (const [argv, pattern] of [
      [['--path', path.join(dir, 'nope.log')], /no audit log at/],
      [['--since', 'last tuesday'], /--since 'last tuesday' is neither/],
      [['--bogus'], /unknown option '--bogus'/],
      [['--path'], /--path needs a value/],
    ] as const) {
      const t = io(env);
      assert.equal(await auditVerifyCommand.run(argv, t.io), 2, argv.join(' '));
      assert.match(t.err(), pattern);
      assert.doesNotMatch(t.err(), /\n\s+at /);
    }
    const t = io(env);
    assert.equal(await auditListCommand.run(['--limit', '0'], t.io), 2);
    assert.match(t.err(), /--limit must be an integer between 1 and 100000/);
    const s = io(env);
    assert.equal(await auditListCommand.run(['--status', 'weird'], s.io), 2);
    assert.match(s.err(), /--status must be one of success, empty/);
  });

  it('lists a row whose fields carry control characters with them escaped, and as stored with --json', async () => {
    const log = openAuditLog(file);
    await log.append(row({ tool: '\x1b[2J\x1b]0;owned\x07x', status: 'error', errorKind: 'internal\u202e\r' }));
    await log.close();
    const t = io(env);
    assert.equal(await auditListCommand.run(['--limit', '1'], t.io), 0);
    assert.doesNotMatch(t.out(), /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, 'nothing drives the terminal');
    assert.match(t.out().split('\n')[1]!, /^4\s+.*\\x1b\[2J\\x1b\]0;owned\\x07x\s+error\s+internal\\u202e\\x0d\s+1\.3$/);
    const j = io(env);
    assert.equal(await auditListCommand.run(['--limit', '1', '--json'], j.io), 0);
    assert.equal((JSON.parse(j.out()) as { tool: string }).tool, '\x1b[2J\x1b]0;owned\x07x');
  });

  it('lists newest first as a table, with filters, and as stored rows with --json', async () => {
    const t = io(env);
    assert.equal(await auditListCommand.run([], t.io), 0);
    const table = t.out().trim().split('\n');
    assert.match(table[0], /^SEQ\s+TIME \(UTC\)\s+TOOL\s+STATUS\s+ERROR\s+MS\s+ROWS\s+PII$/);
    assert.deepEqual(table.slice(1).map((l) => l.split(/\s+/)[0]), ['3', '2', '1']);
    assert.match(table[1], /run_query\s+success\s+1\.3\s+50\+/);
    const j = io(env);
    assert.equal(await auditListCommand.run(['--json', '--tool', 'run_query', '--status', 'refused'], j.io), 0);
    const rows = j.out().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].error_kind, 'pii_blocked');
    assert.deepEqual(rows[0].pii_categories, ['credential']);
    const o = io(env);
    assert.equal(await auditListCommand.run(['--oldest-first', '--limit', '1', '--json'], o.io), 0);
    assert.equal((JSON.parse(o.out()) as { seq: number }).seq, 1);
  });

  it('says so when lines are not audit rows: a file with none is not an audit log (exit 2), a few are skipped with a count', async () => {
    const other = path.join(dir, 'notes.jsonl');
    fs.writeFileSync(other, 'hello\n{"a":1}\n');
    const none = io(env);
    assert.equal(await auditListCommand.run(['--path', other], none.io), 2);
    assert.equal(none.out(), '');
    assert.match(none.err(), /notes\.jsonl is not an audit log: none of its lines is an audit row/);
    // The same with filters that match nothing: still not "no matching rows".
    const filtered = io(env);
    assert.equal(await auditListCommand.run(['--path', other, '--tool', 'run_query', '--json'], filtered.io), 2);
    fs.appendFileSync(file, 'garbage\n{"seq":"x"}\n');
    const mixed = io(env);
    assert.equal(await auditListCommand.run(['--json'], mixed.io), 0);
    assert.equal(mixed.out().trim().split('\n').length, 3);
    assert.match(mixed.err(), /2 line\(s\) of .* are not audit rows and were skipped/);
    // A log whose every line is a row says nothing on standard error.
    fs.writeFileSync(file, '');
    const log = openAuditLog(file);
    await log.append(row({ tool: 'describe_table' }));
    await log.close();
    const clean = io(env);
    assert.equal(await auditListCommand.run([], clean.io), 0);
    assert.equal(clean.err(), '');
  });
});
