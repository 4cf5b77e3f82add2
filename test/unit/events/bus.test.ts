import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEventBus, serverEvent, toolCallEvent } from '../../../src/core/events/bus';
import type { BusEvent, ToolCallEvent } from '../../../src/core/events/event';
import { redactArgs } from '../../../src/core/events/redact';
import { readEvents, resolveEventsPath } from '../../../src/core/events/tail';
import { captureLogger } from './helpers';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sb-events-'));
}

function call(overrides: Partial<Parameters<typeof toolCallEvent>[0]> = {}): ToolCallEvent {
  return toolCallEvent({ sessionId: 'sess-1', tool: 'describe_table', args: { table: 'orders' }, status: 'success', durationMs: 3.5, ...overrides });
}

describe('event bus', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never appends to, or narrows the mode of, a file a symbolic link at its path names', () => {
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep\n');
    fs.chmodSync(victim, 0o644);
    const file = path.join(dir, 'events.jsonl');
    fs.symlinkSync(victim, file);
    const logger = captureLogger();
    const bus = createEventBus({ path: file, logger });
    bus.emit(call());
    bus.close();
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep\n');
    assert.equal(fs.statSync(victim).mode & 0o777, 0o644);
    assert.ok(fs.lstatSync(file).isSymbolicLink());
  });

  it('writes a tool_call event with every seed 002 field', () => {
    const file = path.join(dir, 'events.jsonl');
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(
      toolCallEvent({
        sessionId: '0b6f0d7e-1111-4222-8333-444455556666',
        tool: 'find_relevant_tables',
        args: { question: 'orders per customer', limit: 5 },
        status: 'refused',
        errorKind: 'pii_blocked',
        durationMs: 12.3456789,
        resultSummary: { matches: 4, audit_seq: 9 },
      }),
    );
    bus.close();
    const [line] = fs.readFileSync(file, 'utf8').split('\n');
    const e = JSON.parse(line) as Record<string, unknown>;
    assert.deepEqual(Object.keys(e).sort(), ['args_summary', 'duration_ms', 'error_kind', 'kind', 'result_summary', 'server_session_id', 'status', 'timestamp', 'tool_name']);
    assert.match(e.timestamp as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    assert.equal(e.server_session_id, '0b6f0d7e-1111-4222-8333-444455556666');
    assert.equal(e.kind, 'tool_call');
    assert.equal(e.tool_name, 'find_relevant_tables');
    assert.deepEqual(e.args_summary, { question: 'orders per customer', limit: 5 });
    assert.equal(e.status, 'refused');
    assert.equal(e.error_kind, 'pii_blocked');
    assert.equal(e.duration_ms, 12.346);
    assert.deepEqual(e.result_summary, { matches: 4, audit_seq: 9 });
  });

  it('writes server_event lifecycle events with their subtype', () => {
    const file = path.join(dir, 'events.jsonl');
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(serverEvent('sess-1', 'server_start', 'stdio'));
    bus.emit(serverEvent('sess-1', 'server_stop'));
    bus.close();
    const events = readEvents(file);
    assert.deepEqual(events.map((e) => (e.kind === 'server_event' ? e.event_subtype : e.kind)), ['server_start', 'server_stop']);
    assert.equal((events[0] as { message: string }).message, 'stdio');
  });

  it('creates the directory 0700 and the file 0600', () => {
    const file = path.join(dir, 'deep', 'er', 'events.jsonl');
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(call());
    bus.close();
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(dir, 'deep')).mode & 0o777, 0o700);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  it('narrows an existing file with looser permissions to 0600', () => {
    const file = path.join(dir, 'events.jsonl');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(call());
    bus.close();
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  it('rotates exactly when the next line would pass maxBytes, keeping a single .1', () => {
    const file = path.join(dir, 'events.jsonl');
    const fixed = (n: number): BusEvent => ({ ...call({ args: { n } }), timestamp: '2025-01-01T00:00:00.000000Z' });
    const lineBytes = Buffer.byteLength(`${JSON.stringify(fixed(1))}\n`);
    const bus = createEventBus({ path: file, logger: captureLogger(), maxBytes: 3 * lineBytes });
    for (let n = 1; n <= 3; n++) bus.emit(fixed(n));
    assert.equal(fs.statSync(file).size, 3 * lineBytes, 'exactly at the limit: no rotation yet');
    assert.ok(!fs.existsSync(`${file}.1`));
    bus.emit(fixed(4));
    assert.equal(fs.statSync(`${file}.1`).size, 3 * lineBytes);
    assert.equal(fs.statSync(file).size, lineBytes);
    for (let n = 5; n <= 7; n++) bus.emit(fixed(n));
    bus.close();
    const args = (f: string): number[] => readEvents(f, { includeRotated: false }).map((e) => ((e as ToolCallEvent).args_summary as { n: number }).n);
    assert.deepEqual(args(`${file}.1`), [4, 5, 6], 'the older generation (1-3) was dropped');
    assert.deepEqual(args(file), [7]);
    assert.equal(fs.statSync(`${file}.1`).mode & 0o777, 0o600);
  });

  it('is lossy: an unwritable path drops events, never throws, and logs one stderr line per error kind', () => {
    const blocker = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocker, 'x');
    const logger = captureLogger();
    const bus = createEventBus({ path: path.join(blocker, 'events.jsonl'), logger });
    for (let i = 0; i < 5; i++) assert.doesNotThrow(() => bus.emit(call()));
    bus.close();
    assert.equal(logger.lines.length, 1);
    assert.match(logger.lines[0], /dropping events/);
  });

  it('follows a rotation done by another bus on the same file instead of writing into .1', () => {
    const file = path.join(dir, 'events.jsonl');
    const a = createEventBus({ path: file, logger: captureLogger() });
    const b = createEventBus({ path: file, logger: captureLogger(), maxBytes: 1 });
    a.emit(call({ tool: 'a1' }));
    b.emit(call({ tool: 'b1' })); // rotates: a1 goes to .1
    a.emit(call({ tool: 'a2' }));
    a.close();
    b.close();
    assert.deepEqual(readEvents(`${file}.1`, { includeRotated: false }).map((e) => (e as ToolCallEvent).tool_name), ['a1']);
    assert.deepEqual(readEvents(file, { includeRotated: false }).map((e) => (e as ToolCallEvent).tool_name), ['b1', 'a2']);
  });

  it('redacts args even when an emitter hands over raw arguments', () => {
    const file = path.join(dir, 'events.jsonl');
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit({ ...call(), args_summary: { dsn: 'postgres://u:pw@h/db' } });
    bus.close();
    const text = fs.readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /pw@h/);
    assert.match(text, /<redacted-connection-url>/);
  });
});

describe('event path precedence', () => {
  it('prefers --events-path, then SCHEMABRAIN_EVENTS_PATH, then SCHEMABRAIN_HOME/events.jsonl', () => {
    const env = { SCHEMABRAIN_EVENTS_PATH: '/tmp/from-env.jsonl', SCHEMABRAIN_HOME: '/tmp/sbhome' };
    assert.equal(resolveEventsPath('/tmp/from-flag.jsonl', env), '/tmp/from-flag.jsonl');
    assert.equal(resolveEventsPath(undefined, env), '/tmp/from-env.jsonl');
    assert.equal(resolveEventsPath(undefined, { SCHEMABRAIN_HOME: '/tmp/sbhome' }), '/tmp/sbhome/events.jsonl');
    assert.equal(resolveEventsPath(undefined, {}), path.join(os.homedir(), '.schemabrain', 'events.jsonl'));
  });
});

describe('event redaction', () => {
  it('replaces connection URLs of every listed scheme, with or without a driver suffix', () => {
    for (const url of ['postgresql://u:secret@db/x', 'postgres://db', 'postgresql+psycopg://u@h/d', 'mysql://root:pw@h', 'sqlite:///tmp/x.db', 'SQLITE://x']) {
      assert.deepEqual(redactArgs({ url }), { url: '<redacted-connection-url>' }, url);
    }
    assert.deepEqual(redactArgs({ url: 'https://example.com' }), { url: 'https://example.com' });
  });

  it('replaces strings over 2 KiB with their byte length, counting UTF-8 bytes', () => {
    assert.deepEqual(redactArgs({ s: 'a'.repeat(2048) }), { s: 'a'.repeat(2048) });
    assert.deepEqual(redactArgs({ s: 'a'.repeat(2049) }), { s: '<truncated:2049 bytes>' });
    assert.deepEqual(redactArgs({ s: 'é'.repeat(1025) }), { s: '<truncated:2050 bytes>' });
  });

  it('replaces every value inside filters, at any depth, keeping keys and operators', () => {
    const args = { metric: 'revenue', filters: { email: 'a@b.co', customer_id: 42, region: ['EU', 'US'], range: { gte: 1, lt: 9 }, active: true }, limit: 10 };
    assert.deepEqual(redactArgs(args), {
      metric: 'revenue',
      filters: { email: '<value>', customer_id: '<value>', region: ['<value>', '<value>'], range: { gte: '<value>', lt: '<value>' }, active: '<value>' },
      limit: 10,
    });
    assert.deepEqual(redactArgs({ filters: [{ column: 'x', op: '=', value: 3 }] }), { filters: [{ column: '<value>', op: '<value>', value: '<value>' }] });
  });

  it('replaces email-shaped strings, and addresses inside longer strings, but nothing that merely contains an @', () => {
    assert.deepEqual(redactArgs({ who: 'jane.doe@example.org', handle: '@jane', text: 'mail jane@example.org now' }), {
      who: '<email>',
      handle: '@jane',
      text: 'mail <email> now',
    });
  });

  it('applies the rules recursively to values in arrays and nested objects, never to keys', () => {
    const args = { 'x@y.zz': 1, 'postgres://k': 2, nested: [{ deep: { u: 'postgres://h/db', e: 'p@q.rs' } }] };
    assert.deepEqual(redactArgs(args), { 'x@y.zz': 1, 'postgres://k': 2, nested: [{ deep: { u: '<redacted-connection-url>', e: '<email>' } }] });
  });

  it('bounds the walk on cyclic input instead of hanging', () => {
    const a: Record<string, unknown> = { name: 'x' };
    a.self = a;
    const out = JSON.stringify(redactArgs(a));
    assert.match(out, /<truncated:depth>/);
  });
});
