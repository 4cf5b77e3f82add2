import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson, sha256Hex } from '../../../src/core/audit/canonical';
import { openAuditLog } from '../../../src/core/audit/log';
import { argsFingerprint, createCallRecorder, openRecorder, type ToolCallRecord } from '../../../src/core/audit/recorder';
import { normalizeSql, sqlFingerprint } from '../../../src/core/audit/sql-fingerprint';
import { listAudit, verifyAudit } from '../../../src/core/audit/verify';
import { createEventBus } from '../../../src/core/events/bus';
import type { ServerEvent, ToolCallEvent } from '../../../src/core/events/event';
import { readEvents } from '../../../src/core/events/tail';
import type { Telemetry, ToolCallSummary } from '../../../src/core/telemetry/telemetry';
import { captureLogger } from '../events/helpers';
import { tempDir } from './helpers';

/** A Telemetry that keeps what it is given (the OTLP path itself is tested against a real receiver). */
function keepingTelemetry(): Telemetry & { spans: ToolCallSummary[] } {
  const spans: ToolCallSummary[] = [];
  return { enabled: true, spans, recordToolCall: (s) => spans.push(s), flush: async () => {}, shutdown: async () => {} };
}

function call(overrides: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return {
    sessionId: 'sess-r',
    client: { name: 'Visual Studio Code', version: '1.101.0' },
    tool: 'get_metric',
    args: { metric: 'revenue', filters: { email: 'jane@example.org' }, dsn: 'postgres://u:pw@h/db' },
    status: 'success',
    errorKind: null,
    piiCategories: ['contact'],
    sql: "SELECT sum(amount) FROM orders WHERE email = 'jane@example.org'",
    rowCount: 1,
    truncated: false,
    durationMs: 8.5,
    generation: 4,
    resultSummary: { rows: 1 },
    ...overrides,
  };
}

describe('call recorder', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('rec');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the audit row durably, then the redacted event, then the span keyed by the audit hash', async () => {
    const auditPath = path.join(dir, 'audit.log');
    const eventsPath = path.join(dir, 'events.jsonl');
    const telemetry = keepingTelemetry();
    const logger = captureLogger();
    const rec = createCallRecorder({ audit: openAuditLog(auditPath), events: createEventBus({ path: eventsPath, logger }), telemetry, logger, sessionId: 'sess-r' });
    const outcome = await rec.record(call());
    // durable before record resolves: readable now, with no close
    const [row] = await listAudit(auditPath);
    assert.equal(outcome.auditHash, row.hash);
    assert.equal(outcome.auditSeq, 1);
    assert.equal(row.clientName, 'Visual Studio Code');
    assert.equal(row.tool, 'get_metric');
    assert.deepEqual(row.piiCategories, ['contact']);
    assert.equal(row.argsFingerprint, sha256Hex(canonicalJson({ metric: 'revenue', filters: { email: '<value>' }, dsn: '<redacted-connection-url>' })));
    assert.equal(row.sqlFingerprint, sqlFingerprint('select SUM(amount)  from orders where email = $$someone@else.org$$'));
    assert.equal(row.catalogGeneration, 4);
    const auditText = fs.readFileSync(auditPath, 'utf8');
    assert.doesNotMatch(auditText, /jane|pw@h|revenue|orders/, 'no argument or SQL text in the audit log');
    const [event] = readEvents(eventsPath) as ToolCallEvent[];
    assert.deepEqual(event.args_summary, { metric: 'revenue', filters: { email: '<value>' }, dsn: '<redacted-connection-url>' });
    assert.deepEqual(event.result_summary, { rows: 1, audit_seq: 1 });
    assert.equal(event.timestamp, row.time);
    assert.equal(telemetry.spans.length, 1);
    assert.equal(telemetry.spans[0].callId, row.hash);
    assert.equal((telemetry.spans[0] as unknown as Record<string, unknown>).args, undefined);
    rec.serverEvent('server_stop', { reason: 'stdin closed' });
    await rec.close();
    const stop = readEvents(eventsPath)[1] as ServerEvent;
    assert.equal(stop.event_subtype, 'server_stop');
    assert.equal(stop.server_session_id, 'sess-r');
    assert.equal(stop.message, '{"reason":"stdin closed"}');
    // At close the head is offered as a checkpoint candidate (seq and hash) for a witness or SIEM.
    const candidate = readEvents(eventsPath)[2] as ServerEvent;
    assert.equal(candidate.event_subtype, 'audit_checkpoint');
    assert.deepEqual(JSON.parse(candidate.message!), { seq: 1, hash: row.hash, path: auditPath });
  });

  it('fails closed when the audit log is unwritable: every call gets an auditFailure, logged once', async () => {
    const blocker = path.join(dir, 'file');
    fs.writeFileSync(blocker, '');
    const eventsPath = path.join(dir, 'events.jsonl');
    const logger = captureLogger();
    const telemetry = keepingTelemetry();
    const rec = createCallRecorder({ audit: openAuditLog(path.join(blocker, 'audit.log')), events: createEventBus({ path: eventsPath, logger }), telemetry, logger });
    for (let i = 0; i < 3; i++) assert.equal((await rec.record(call())).auditFailure?.kind, 'unwritable');
    await rec.close();
    assert.equal(logger.lines.length, 1);
    assert.match(logger.lines[0], /^audit: cannot write .*\((?:ENOTDIR|EEXIST)\); tool calls are answered with a retryable audit_unavailable error/);
    // The temporary directory's random name may hold any two letters ("…dPzpwN"): only the rest of the line is checked for the call's values.
    assert.doesNotMatch(logger.lines[0].split(dir).join('<dir>'), /jane|pw/);
    const events = readEvents(eventsPath);
    assert.equal(events.filter((e) => e.kind === 'tool_call').length, 3, 'events still flow');
    assert.equal(events.filter((e) => e.kind === 'server_event' && e.event_subtype === 'audit_unavailable').length, 1);
    assert.equal(telemetry.spans[0].callId, undefined);
  });

  it('with failOpen answers unaudited calls and records the mode and the gap in the log once it recovers', async () => {
    const auditDir = path.join(dir, 'home');
    const auditPath = path.join(auditDir, 'audit.log');
    fs.writeFileSync(auditDir, ''); // a file where the directory should be: unwritable
    const logger = captureLogger();
    const rec = createCallRecorder({ audit: openAuditLog(auditPath), events: null, telemetry: null, logger, sessionId: 'sess-o', failOpen: true });
    for (let i = 0; i < 3; i++) assert.deepEqual(await rec.record(call()), {});
    fs.rmSync(auditDir);
    const ok = await rec.record(call());
    await rec.close();
    assert.equal(ok.auditSeq, 3, 'fail-open marker, gap marker, then the call');
    const rows = await listAudit(auditPath, { newestFirst: false });
    assert.deepEqual(rows.map((r) => r.tool), ['audit:fail_open', 'audit:gap', 'get_metric']);
    assert.equal(rows[1].rowCount, 3, 'the gap says how many calls were answered without a row');
    assert.equal(rows[1].errorKind, 'audit_unavailable');
    assert.ok((await verifyAudit(auditPath)).ok);
  });

  it('wires all three sinks from paths with openRecorder, and skips the ones turned off', async () => {
    const auditPath = path.join(dir, 'audit.log');
    const on = openRecorder({ sessionId: 's1', auditPath, eventsPath: path.join(dir, 'events.jsonl'), env: {}, logger: captureLogger() });
    await on.record(call());
    await on.close();
    assert.equal((await verifyAudit(auditPath)).rows, 1);
    const off = openRecorder({ sessionId: 's2', auditPath: null, eventsPath: null, env: {}, logger: captureLogger() });
    assert.deepEqual(await off.record(call()), {});
    await off.close();
    assert.deepEqual(fs.readdirSync(dir).sort(), ['audit.log', 'events.jsonl'], 'the recorder with sinks off wrote nothing');
  });

  it('keeps a client self-description redacted and short, and argument values under secret names out of events', async () => {
    const auditPath = path.join(dir, 'audit.log');
    const eventsPath = path.join(dir, 'events.jsonl');
    const logger = captureLogger();
    const rec = createCallRecorder({ audit: openAuditLog(auditPath), events: createEventBus({ path: eventsPath, logger }), telemetry: keepingTelemetry(), logger, sessionId: 'sess-c' });
    await rec.record(
      call({
        client: { name: 'postgres://u:HunterPwdB1@h/db', version: `password=HunterPwdB2 ${'x'.repeat(5000)}` },
        args: { password: 'HunterPwdA2', extra: { auth_token: 'HunterPwdA3' }, tables: ['a', 'token=HunterPwdA0'], query: 'PGPASSWORD=HunterPwd94 psql' },
      }),
    );
    await rec.close();
    const audit = fs.readFileSync(auditPath, 'utf8');
    const events = fs.readFileSync(eventsPath, 'utf8');
    for (const secret of ['HunterPwdB1', 'HunterPwdB2', 'HunterPwdA2', 'HunterPwdA3', 'HunterPwdA0', 'HunterPwd94']) {
      assert.ok(!audit.includes(secret), `audit holds ${secret}`);
      assert.ok(!events.includes(secret), `events hold ${secret}`);
    }
    const [row] = await listAudit(auditPath);
    assert.ok((row.clientVersion ?? '').length <= 256, 'cut to 256 characters');
  });

  it('fingerprints arguments after redaction, so filter values and e-mails do not change it', () => {
    assert.equal(argsFingerprint({ filters: { id: 1 } }), argsFingerprint({ filters: { id: 2 } }));
    assert.equal(argsFingerprint({ who: 'a@b.co' }), argsFingerprint({ who: 'c@d.org' }));
    assert.notEqual(argsFingerprint({ table: 'a' }), argsFingerprint({ table: 'b' }));
  });
});

describe('SQL fingerprint', () => {
  it('normalises case, whitespace, comments and literals', () => {
    assert.equal(normalizeSql("SELECT  a, b\nFROM t -- c\nWHERE x = 'it''s' AND y > 3.5e2 /* note */"), 'select a,b from t where x=? and y>?');
    assert.equal(normalizeSql('select * from "MixedCase" where id in (1, 2, 3);'), 'select*from "MixedCase" where id in(?)');
    assert.equal(normalizeSql('select t1.c from t1 where c = $1'), 'select t1.c from t1 where c=$1');
    assert.equal(normalizeSql("select E'a\\'b', $tag$x$tag$"), 'select ?,?');
  });

  it('gives equal fingerprints to the same shape and null without SQL', () => {
    assert.equal(sqlFingerprint("select * from u where email='a@b.co'"), sqlFingerprint("SELECT *\n  FROM u WHERE email = 'x@y.org'"));
    assert.notEqual(sqlFingerprint('select a from u'), sqlFingerprint('select b from u'));
    assert.equal(sqlFingerprint(null), null);
    assert.equal(sqlFingerprint('  '), null);
  });
});
