import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createTailCommand } from '../../../src/cli/commands/tail';
import { createEventBus, serverEvent, toolCallEvent } from '../../../src/core/events/bus';
import type { BusEvent, ToolCallEvent } from '../../../src/core/events/event';
import { formatEventLine } from '../../../src/core/events/format';
import { followEvents, readEvents } from '../../../src/core/events/tail';
import { isoMicros, parseSince } from '../../../src/core/events/time';
import { captureLogger } from './helpers';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sb-tail-'));
}

function call(tool: string, timestamp?: string): ToolCallEvent {
  return toolCallEvent({ sessionId: 's', tool, args: {}, status: 'success', durationMs: 1, ...(timestamp ? { timestamp } : {}) });
}

async function until(pred: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function io(env: NodeJS.ProcessEnv, isTTY = false): { io: { stdout: PassThrough; stderr: PassThrough; env: NodeJS.ProcessEnv; isTTY: boolean }; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  stdout.on('data', (d: Buffer) => (o += d.toString()));
  stderr.on('data', (d: Buffer) => (e += d.toString()));
  return { io: { stdout, stderr, env, isTTY }, out: () => o, err: () => e };
}

describe('event tail', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'events.jsonl');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('follows the active file across a rotation without losing or repeating events', async () => {
    const bus = createEventBus({ path: file, logger: captureLogger(), maxBytes: 900 });
    const seen: string[] = [];
    const ac = new AbortController();
    const following = followEvents(file, { signal: ac.signal, pollMs: 15, onEvent: (e) => seen.push((e as ToolCallEvent).tool_name) });
    await new Promise((r) => setTimeout(r, 40));
    const names = Array.from({ length: 12 }, (_, i) => `tool_${i}`);
    // Lock-step, so that no two rotations fall between two polls (a polling tail cannot see a generation that
    // was created and rotated away between its polls).
    for (const [i, n] of names.entries()) {
      bus.emit(call(n));
      await until(() => seen.length > i);
    }
    ac.abort();
    await following;
    bus.close();
    assert.ok(fs.existsSync(`${file}.1`), 'the bus rotated during the test');
    assert.deepEqual(seen, names);
  });

  it('starts at the end by default and replays from the start with fromStart', async () => {
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(call('old'));
    const live: string[] = [];
    const replay: string[] = [];
    const ac = new AbortController();
    const f1 = followEvents(file, { signal: ac.signal, pollMs: 10, onEvent: (e) => live.push((e as ToolCallEvent).tool_name) });
    const f2 = followEvents(file, { signal: ac.signal, pollMs: 10, fromStart: true, onEvent: (e) => replay.push((e as ToolCallEvent).tool_name) });
    await new Promise((r) => setTimeout(r, 30));
    bus.emit(call('new'));
    await until(() => live.length >= 1 && replay.length >= 2);
    ac.abort();
    await Promise.all([f1, f2]);
    bus.close();
    assert.deepEqual(live, ['new']);
    assert.deepEqual(replay, ['old', 'new']);
  });

  it('reads .1 then the active file for --no-follow, filtered by since', () => {
    const bus = createEventBus({ path: file, logger: captureLogger(), maxBytes: 1 });
    bus.emit(call('a', '2024-01-01T00:00:00.000000Z'));
    bus.emit(call('b', '2024-06-01T00:00:00.000000Z'));
    bus.emit(call('c', '2024-07-01T00:00:00.000000Z'));
    bus.close();
    assert.deepEqual(readEvents(file).map((e) => (e as ToolCallEvent).tool_name), ['b', 'c']);
    assert.deepEqual(readEvents(file, { since: '2024-06-15T00:00:00Z' }).map((e) => (e as ToolCallEvent).tool_name), ['c']);
  });

  it('reports a malformed line and keeps following', async () => {
    fs.writeFileSync(file, '');
    const seen: BusEvent[] = [];
    const errors: string[] = [];
    const ac = new AbortController();
    const f = followEvents(file, { signal: ac.signal, pollMs: 10, onEvent: (e) => seen.push(e), onError: (e) => errors.push(e.message) });
    await new Promise((r) => setTimeout(r, 30));
    fs.appendFileSync(file, `not json\n${JSON.stringify(call('ok'))}\n`);
    await until(() => seen.length === 1);
    ac.abort();
    await f;
    assert.equal(errors.length, 1);
    assert.match(errors[0], /malformed/);
  });

  it('formats one line with time, tool, status, duration, error kind and counts', () => {
    const e = toolCallEvent({ sessionId: 's', tool: 'get_metric', args: {}, status: 'refused', errorKind: 'pii_blocked', durationMs: 4.25, resultSummary: { rows: 0, paths: 2 }, timestamp: '2025-03-04T05:06:07.891234Z' });
    const plain = formatEventLine(e, { color: false });
    assert.match(plain, /^05:06:07\.891\s+get_metric\s+refused\s+4\.3ms\s+pii_blocked\s+rows=0 paths=2$/);
    assert.doesNotMatch(plain, /\x1b\[/);
    const coloured = formatEventLine(e, { color: true });
    assert.match(coloured, /\x1b\[35mrefused/);
    const s = formatEventLine({ ...serverEvent('0123456789abcdef', 'server_start'), timestamp: '2025-03-04T05:06:07.000000Z' }, { color: false });
    assert.equal(s, '05:06:07.000  [server_start]  session=01234567');
  });

  it('parses --since as a duration or an ISO instant', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    assert.equal(parseSince('5m', now), '2025-01-01T11:55:00.000000Z');
    assert.equal(parseSince('24h', now), '2024-12-31T12:00:00.000000Z');
    assert.equal(parseSince('2025-01-01T10:00:00Z', now), '2025-01-01T10:00:00.000000Z');
    assert.equal(parseSince('2025-01-01T10:00:00', now), '2025-01-01T10:00:00.000000Z');
    assert.equal(parseSince('2025-01-01T10:00:00.123456Z', now), '2025-01-01T10:00:00.123456Z');
    assert.equal(parseSince('yesterday', now), undefined);
    assert.match(isoMicros(), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });
});

describe('schemabrain tail', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'events.jsonl');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints recent events and exits when not on a terminal', async () => {
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(call('too_old', '2000-01-01T00:00:00.000000Z'));
    bus.emit(call('describe_table'));
    bus.close();
    const t = io({ SCHEMABRAIN_EVENTS_PATH: file });
    const code = await createTailCommand().run([], t.io);
    assert.equal(code, 0);
    assert.match(t.out(), /describe_table\s+success/);
    assert.doesNotMatch(t.out(), /too_old/);
    assert.match(t.err(), /showing events of the last 5m \(the default\); use --since/, 'the default window is said, not silent');
  });

  it('shows control characters and bidi overrides from an event escaped in the text lines, and as stored with --json', async () => {
    const tool = '\x1b]0;owned\x07x\u202ey';
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(toolCallEvent({ sessionId: 's', tool, args: {}, status: 'error', errorKind: 'internal\r', durationMs: 1, resultSummary: { note: '\x9b2J' } }));
    bus.emit(serverEvent('s', 'server_start', 'up\x00\x1b[2J'));
    bus.close();
    const t = io({ SCHEMABRAIN_EVENTS_PATH: file });
    assert.equal(await createTailCommand().run(['--no-follow', '--since', '1h'], t.io), 0);
    assert.doesNotMatch(t.out(), /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, 'nothing drives the terminal');
    assert.match(t.out(), /\\x1b\]0;owned\\x07x\\u202ey\s+error\s+1\.0ms\s+internal\\x0d\s+note=\\x9b2J\n/);
    assert.match(t.out(), /\[server_start\]  session=s  up\\x00\\x1b\[2J\n/);
    const j = io({ SCHEMABRAIN_EVENTS_PATH: file });
    assert.equal(await createTailCommand().run(['--no-follow', '--since', '1h', '--json'], j.io), 0);
    assert.equal((JSON.parse(j.out().split('\n')[0]!) as ToolCallEvent).tool_name, tool);
  });

  it('prints events as stored with --json, from --events-path over the environment', async () => {
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(call('list_metrics'));
    bus.close();
    const t = io({ SCHEMABRAIN_EVENTS_PATH: path.join(dir, 'other.jsonl') });
    const code = await createTailCommand().run(['--json', '--no-follow', '--events-path', file, '--since', '1h'], t.io);
    assert.equal(code, 0);
    const lines = t.out().trim().split('\n');
    assert.equal(lines.length, 1);
    assert.equal((JSON.parse(lines[0]) as ToolCallEvent).tool_name, 'list_metrics');
  });

  it('follows on a terminal until stopped', async () => {
    fs.writeFileSync(file, '');
    const ac = new AbortController();
    const t = io({ SCHEMABRAIN_EVENTS_PATH: file }, true);
    const running = createTailCommand({ signal: ac.signal, pollMs: 10 }).run([], t.io);
    await new Promise((r) => setTimeout(r, 30));
    const bus = createEventBus({ path: file, logger: captureLogger() });
    bus.emit(call('suggest_joins'));
    bus.close();
    await until(() => t.out().includes('suggest_joins'));
    ac.abort();
    assert.equal(await running, 0);
    assert.match(t.out(), /\x1b\[32msuccess/, 'coloured on a terminal');
  });

  it('rejects bad flags with a message and exit 2', async () => {
    for (const argv of [['--bogus'], ['--since', 'whenever'], ['--follow', '--no-follow'], ['extra']]) {
      const t = io({ SCHEMABRAIN_EVENTS_PATH: file });
      assert.equal(await createTailCommand().run(argv, t.io), 2, argv.join(' '));
      assert.match(t.err(), /^schemabrain tail: .+\nusage: schemabrain tail/);
    }
  });

  it('exits 2 when there is no events file to print', async () => {
    const t = io({ SCHEMABRAIN_EVENTS_PATH: file });
    assert.equal(await createTailCommand().run(['--no-follow'], t.io), 2);
    assert.match(t.err(), /no events file/);
  });
});
