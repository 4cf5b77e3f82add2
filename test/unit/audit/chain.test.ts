import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { AuditError, openAuditLog } from '../../../src/core/audit/log';
import { GENESIS_HASH } from '../../../src/core/audit/record';
import { anchorPath, listAudit, readAnchorFile, readHead, verifyAudit, writeAnchorFile } from '../../../src/core/audit/verify';
import { canonicalJson, sha256Hex } from '../../../src/core/audit/canonical';
import { readLines, rechain, row, tempDir, writeLines } from './helpers';

async function makeLog(dir: string, n: number): Promise<string> {
  const file = path.join(dir, 'audit.log');
  const log = openAuditLog(file);
  for (let i = 0; i < n; i++) await log.append(row({ tool: `tool_${i + 1}`, rowCount: i }));
  await log.close();
  return file;
}

describe('audit log chain', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('chain');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes one canonical line per row, chained from the genesis hash, and verifies intact', async () => {
    const file = await makeLog(dir, 5);
    const lines = readLines(file);
    assert.equal(lines.length, 5);
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    assert.equal(first.seq, 1);
    assert.equal(first.prev_hash, GENESIS_HASH);
    assert.match(first.time as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    for (const key of ['server_session_id', 'client_name', 'client_version', 'tool', 'status', 'error_kind', 'pii_categories', 'args_fingerprint', 'sql_fingerprint', 'row_count', 'truncated', 'duration_ms', 'catalog_generation']) {
      assert.ok(key in first, `row has ${key}`);
    }
    // hash = sha256(prev_hash + canonical JSON of the row without hash)
    const { hash, ...rest } = first;
    assert.equal(hash, sha256Hex(GENESIS_HASH + canonicalJson(rest)));
    assert.equal(JSON.parse(lines[1]).prev_hash, hash);
    const r = await verifyAudit(file);
    assert.equal(r.ok, true);
    assert.equal(r.rows, 5);
    assert.equal(r.headSeq, 5);
    assert.deepEqual(readHead(file), { seq: 5, hash: r.headHash });
  });

  it('creates the log 0600 in a 0700 directory', async () => {
    const file = path.join(dir, 'nested', 'audit.log');
    const log = openAuditLog(file);
    await log.append(row());
    await log.close();
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
  });

  it('detects an edited field as hash_mismatch at its line', async () => {
    const file = await makeLog(dir, 6);
    const lines = readLines(file);
    lines[2] = lines[2].replace('"status":"success"', '"status":"refused"');
    writeLines(file, lines);
    const r = await verifyAudit(file);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([r.breakAt.line, r.breakAt.seq, r.breakAt.reason], [3, 3, 'hash_mismatch']);
  });

  it('detects an edited row whose own hash was recomputed as prev_mismatch on the next row', async () => {
    const file = await makeLog(dir, 6);
    const lines = readLines(file);
    const obj = JSON.parse(lines[2]) as Record<string, unknown>;
    delete obj.hash;
    obj.status = 'error';
    const body = canonicalJson(obj);
    lines[2] = `${body.slice(0, -1)},"hash":"${sha256Hex((obj.prev_hash as string) + body)}"}`;
    writeLines(file, lines);
    const r = await verifyAudit(file);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([r.breakAt.line, r.breakAt.seq, r.breakAt.reason], [4, 4, 'prev_mismatch']);
  });

  it('detects a deleted row as seq_gap', async () => {
    const file = await makeLog(dir, 6);
    const lines = readLines(file);
    lines.splice(3, 1);
    writeLines(file, lines);
    const r = await verifyAudit(file);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([r.breakAt.line, r.breakAt.seq, r.breakAt.reason], [4, 5, 'seq_gap']);
  });

  it('detects two swapped rows as reordered', async () => {
    const file = await makeLog(dir, 6);
    const lines = readLines(file);
    [lines[2], lines[3]] = [lines[3], lines[2]];
    writeLines(file, lines);
    const r = await verifyAudit(file);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([r.breakAt.line, r.breakAt.seq, r.breakAt.reason], [3, 4, 'reordered']);
  });

  it('detects a forged row inserted with a valid hash of its own', async () => {
    const file = await makeLog(dir, 6);
    const lines = readLines(file);
    const prev = JSON.parse(lines[1]) as Record<string, unknown>;
    const forged: Record<string, unknown> = { ...prev, seq: 3, prev_hash: prev.hash, tool: 'run_query' };
    delete forged.hash;
    const body = canonicalJson(forged);
    lines.splice(2, 0, `${body.slice(0, -1)},"hash":"${sha256Hex((prev.hash as string) + body)}"}`);
    writeLines(file, lines);
    const r = await verifyAudit(file);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.breakAt.line, 4, 'the first genuine row after the forgery no longer fits');
    assert.equal(r.breakAt.reason, 'reordered');
  });

  it('reports a non-JSON line as malformed', async () => {
    const file = await makeLog(dir, 3);
    const lines = readLines(file);
    lines[1] = lines[1].slice(0, 40);
    writeLines(file, lines);
    const r = await verifyAudit(file);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([r.breakAt.line, r.breakAt.seq, r.breakAt.reason], [2, null, 'malformed']);
  });

  it('with full reports a malformed line once and resumes the chain after it', async () => {
    const file = await makeLog(dir, 5);
    const lines = readLines(file);
    lines[1] = 'scribbled over';
    writeLines(file, lines);
    const r = await verifyAudit(file, { full: true });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.breaks.map((b) => [b.line, b.reason]), [[2, 'malformed']]);
    assert.equal(r.headSeq, 5);
  });

  it('with full reports every break instead of stopping at the first', async () => {
    const file = await makeLog(dir, 8);
    const lines = readLines(file);
    lines[1] = lines[1].replace('"tool":"tool_2"', '"tool":"tool_x"');
    lines[5] = lines[5].replace('"tool":"tool_6"', '"tool":"tool_y"');
    writeLines(file, lines);
    const first = await verifyAudit(file);
    const full = await verifyAudit(file, { full: true });
    assert.equal(first.ok, false);
    assert.equal(full.ok, false);
    if (first.ok || full.ok) return;
    assert.equal(first.breaks.length, 1);
    assert.deepEqual(full.breaks.map((b) => [b.line, b.reason]), [[2, 'hash_mismatch'], [6, 'hash_mismatch']]);
  });

  it('detects removed final rows as truncated against an anchor', async () => {
    const file = await makeLog(dir, 6);
    const anchor = readHead(file)!;
    writeLines(file, readLines(file).slice(0, 4));
    assert.equal((await verifyAudit(file)).ok, true, 'without an anchor a clean cut is indistinguishable from a shorter log');
    const r = await verifyAudit(file, { anchor });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([r.breakAt.line, r.breakAt.seq, r.breakAt.reason], [5, 6, 'truncated']);
  });

  it('detects a coherent rewrite of the whole log with recomputed hashes only through the anchor', async () => {
    const file = await makeLog(dir, 6);
    const anchor = readHead(file)!;
    const lines = readLines(file);
    lines.splice(1, 1); // drop row 2 and rebuild a perfectly consistent chain
    writeLines(file, rechain(lines.concat(lines[lines.length - 1])));
    assert.equal((await verifyAudit(file)).ok, true, 'the rewritten chain is internally consistent');
    const r = await verifyAudit(file, { anchor });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual([r.breakAt.line, r.breakAt.seq, r.breakAt.reason], [6, 6, 'anchor_mismatch']);
  });

  it('reports an in-place edit of the anchored row as hash_mismatch, the more precise reason', async () => {
    const file = await makeLog(dir, 4);
    const anchor = readHead(file)!;
    const lines = readLines(file);
    lines[3] = lines[3].replace('"tool":"tool_4"', '"tool":"tool_9"');
    writeLines(file, lines);
    const r = await verifyAudit(file, { anchor, full: true });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.breaks.map((b) => [b.line, b.reason]), [[4, 'hash_mismatch']]);
  });

  it('accepts the anchor when the log only grew since it was taken', async () => {
    const file = await makeLog(dir, 3);
    const anchor = readHead(file)!;
    const log = openAuditLog(file);
    await log.append(row());
    await log.close();
    const r = await verifyAudit(file, { anchor });
    assert.equal(r.ok, true);
    assert.equal(r.anchorChecked, true);
    assert.equal(r.headSeq, 4);
  });

  it('reports a torn final line precisely without failing, and the next append discards it into .torn', async () => {
    const file = await makeLog(dir, 3);
    const good = fs.readFileSync(file);
    fs.appendFileSync(file, '{"args_fingerprint":"abc","seq":4');
    const r = await verifyAudit(file);
    assert.equal(r.ok, true);
    assert.deepEqual(r.torn, { line: 4, offset: good.length, bytes: 33 });
    assert.equal(readHead(file)!.seq, 3, 'the head ignores an unacknowledged fragment');
    const log = openAuditLog(file);
    const rec = await log.append(row());
    await log.close();
    assert.equal(rec.seq, 4);
    const after = await verifyAudit(file);
    assert.equal(after.ok, true);
    assert.equal(after.torn, undefined);
    assert.equal(after.rows, 4);
    const torn = JSON.parse(fs.readFileSync(`${file}.torn`, 'utf8')) as { offset: number; fragment_base64: string };
    assert.equal(torn.offset, good.length);
    assert.equal(Buffer.from(torn.fragment_base64, 'base64').toString(), '{"args_fingerprint":"abc","seq":4');
  });

  it('verifies from --since on, trusting the first row at or after it', async () => {
    const file = path.join(dir, 'audit.log');
    const log = openAuditLog(file);
    for (let i = 0; i < 3; i++) await log.append(row({ time: `2024-01-0${i + 1}T00:00:00.000000Z` }));
    for (let i = 0; i < 3; i++) await log.append(row({ time: `2024-02-0${i + 1}T00:00:00.000000Z` }));
    await log.close();
    const lines = readLines(file);
    lines[0] = lines[0].replace('describe_table', 'describe_tablX');
    writeLines(file, lines);
    assert.equal((await verifyAudit(file)).ok, false);
    const r = await verifyAudit(file, { since: '2024-02-01T00:00:00.000000Z' });
    assert.equal(r.ok, true);
    assert.equal(r.rows, 3);
  });

  it('lists rows with filters, paging and newest-first order', async () => {
    const file = path.join(dir, 'audit.log');
    const log = openAuditLog(file);
    await log.append(row({ tool: 'run_query', status: 'refused', errorKind: 'pii_blocked', piiCategories: ['contact', 'contact', 'credential'] }));
    await log.append(row({ tool: 'describe_table' }));
    await log.append(row({ tool: 'run_query', status: 'success', rowCount: 10, truncated: true }));
    await log.close();
    const all = await listAudit(file);
    assert.deepEqual(all.map((r) => r.seq), [1, 2, 3]);
    assert.deepEqual(all[0].piiCategories, ['contact', 'credential']);
    assert.deepEqual((await listAudit(file, { tool: 'run_query' })).map((r) => r.seq), [1, 3]);
    assert.deepEqual((await listAudit(file, { status: 'refused' })).map((r) => r.errorKind), ['pii_blocked']);
    assert.deepEqual((await listAudit(file, { newestFirst: true, limit: 2 })).map((r) => r.seq), [3, 2]);
    assert.deepEqual((await listAudit(file, { newestFirst: true, limit: 2, offset: 2 })).map((r) => r.seq), [1]);
    assert.deepEqual((await listAudit(file, { limit: 1, offset: 1 })).map((r) => r.seq), [2]);
    assert.deepEqual((await listAudit(file, { since: '2999-01-01' })).length, 0);
  });

  it('writes and reads the anchor file atomically, 0600', async () => {
    const file = await makeLog(dir, 2);
    const head = readHead(file)!;
    writeAnchorFile(file, head);
    assert.deepEqual(readAnchorFile(file), head);
    assert.equal(fs.statSync(anchorPath(file)).mode & 0o777, 0o600);
    assert.equal(readAnchorFile(path.join(dir, 'none.log')), undefined);
  });

  it('rejects an append to an unwritable location with a typed error and no row content', async () => {
    const blocker = path.join(dir, 'file-not-dir');
    fs.writeFileSync(blocker, 'x');
    const log = openAuditLog(path.join(blocker, 'audit.log'));
    await assert.rejects(log.append(row({ tool: 'secret_tool_name' })), (err: unknown) => {
      assert.ok(err instanceof AuditError);
      assert.equal(err.kind, 'unwritable');
      assert.doesNotMatch(err.message, /secret_tool_name/);
      return true;
    });
    await log.close();
  });

  it('refuses to chain onto a last line that is not an audit row', async () => {
    const file = await makeLog(dir, 2);
    fs.appendFileSync(file, 'garbage\n');
    const log = openAuditLog(file);
    await assert.rejects(log.append(row()), (err: unknown) => err instanceof AuditError && err.kind === 'corrupt_tail');
    await log.close();
  });

  it('commits concurrent appends from one process as one gap-free chain', async () => {
    const file = path.join(dir, 'audit.log');
    const log = openAuditLog(file);
    const recs = await Promise.all(Array.from({ length: 300 }, (_, i) => log.append(row({ rowCount: i }))));
    await log.close();
    assert.deepEqual(recs.map((r) => r.seq), Array.from({ length: 300 }, (_, i) => i + 1));
    const r = await verifyAudit(file);
    assert.equal(r.ok, true);
    assert.equal(r.rows, 300);
  });

  it('continues the chain across reopen and picks up rows other writers added meanwhile', async () => {
    const file = await makeLog(dir, 2);
    const a = openAuditLog(file);
    const b = openAuditLog(file);
    assert.equal((await a.append(row())).seq, 3);
    assert.equal((await b.append(row())).seq, 4);
    assert.equal((await a.append(row())).seq, 5);
    await a.close();
    await b.close();
    assert.equal((await verifyAudit(file)).ok, true);
  });

  it('rejects appends after close', async () => {
    const log = openAuditLog(path.join(dir, 'audit.log'));
    await log.close();
    await assert.rejects(log.append(row()), (err: unknown) => err instanceof AuditError && err.kind === 'closed');
  });

  it('returns no head for a missing file and the genesis head for an empty one', () => {
    const file = path.join(dir, 'audit.log');
    assert.equal(readHead(file), undefined);
    fs.writeFileSync(file, '');
    assert.deepEqual(readHead(file), { seq: 0, hash: GENESIS_HASH });
  });
});
