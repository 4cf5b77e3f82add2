import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvelopeSchema } from '../../src/core/envelope';
import { DIST_CLI, DIST_SERVER, ROOT, ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, tempDir } from '../support/server-harness';

/**
 * The external malformed-call corpus (test/fixtures/sql-corpus/external/malformed-calls.json, written against the
 * public tool list only) sent as raw JSON-RPC lines to the real stdio server (dist/server.js): every call gets a
 * response with its id, non-object `arguments` and prototype-pollution keys are `invalid_argument` envelopes, no
 * answer is an `internal_error` ("a bug"), only an unknown tool name may be a protocol error, and the process is
 * alive and answering at the end.
 */
interface MalformedCall {
  readonly id: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly note: string;
}

const CORPUS = path.join(ROOT, 'test', 'fixtures', 'sql-corpus', 'external', 'malformed-calls.json');
const TOOLS = new Set(fs.readdirSync(path.join(ROOT, 'test', 'server', 'snapshots', 'tools')).map((f) => f.replace(/\.json$/, '')));

/** Serialises a corpus value to JSON text, expanding `{$repeat, times}` and `{$nest: n}` without building deep objects. */
function toJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.$repeat === 'string' && typeof o.times === 'number') return JSON.stringify(o.$repeat.repeat(o.times));
    if (typeof o.$nest === 'number') return `${'{"a":'.repeat(o.$nest)}{}${'}'.repeat(o.$nest)}`;
    return `{${Object.entries(o).map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * `constructor`/`prototype` keys reach the tool as unknown arguments and must be refused by name. A `__proto__` key is
 * dropped by the SDK's request parsing before any tool sees it (it never becomes a prototype), so it is only held to
 * the general rules.
 */
function hasPollutionKey(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((k) => k === 'constructor' || k === 'prototype');
}

interface RpcResponse {
  readonly id: number;
  readonly result?: { structuredContent?: unknown; isError?: boolean };
  readonly error?: { code: number; message: string };
}

class RawStdioClient {
  private buf = '';
  private nextId = 0;
  private readonly waiters = new Map<number, (m: RpcResponse) => void>();
  stderr = '';

  constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    proc.stderr.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    proc.stdout.on('data', (d: Buffer) => {
      this.buf += d.toString('utf8');
      for (let i = this.buf.indexOf('\n'); i >= 0; i = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        if (!line.trim()) continue;
        const m = JSON.parse(line) as RpcResponse;
        this.waiters.get(m.id)?.(m);
        this.waiters.delete(m.id);
      }
    });
  }

  /** Sends `{"jsonrpc","id","method","params": <paramsJson>}` as one line; resolves with the response or rejects after 30 s. */
  request(method: string, paramsJson: string): Promise<RpcResponse> {
    const id = ++this.nextId;
    this.proc.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${paramsJson}}\n`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response to ${method} #${id} within 30 s`)), 30_000);
      this.waiters.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  }

  notify(method: string): void {
    this.proc.stdin.write(`{"jsonrpc":"2.0","method":${JSON.stringify(method)}}\n`);
  }
}

describe('malformed tool calls from the external corpus against the real stdio server', function () {
  this.timeout(300_000);
  let home: string;
  let proc: ChildProcessWithoutNullStreams;
  let client: RawStdioClient;
  const calls = JSON.parse(fs.readFileSync(CORPUS, 'utf8')) as MalformedCall[];

  before(async function () {
    ensureBuilt();
    home = tempDir('sb-malformed-');
    const catalog = path.join(home, 'catalog.sqlite');
    const indexed = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog], {
      env: { ...process.env, SCHEMABRAIN_HOME: home },
      encoding: 'utf8',
    });
    assert.equal(indexed.status, 0, indexed.stderr);
    proc = spawn(process.execPath, [DIST_SERVER, '--catalog', catalog], { env: { ...process.env, SCHEMABRAIN_HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
    client = new RawStdioClient(proc);
    const init = await client.request('initialize', JSON.stringify({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'malformed', version: '1' } }));
    assert.ok(init.result, 'initialize answered');
    client.notify('notifications/initialized');
  });

  after(() => {
    proc?.kill();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('has a corpus of at least 150 calls over every tool', () => {
    assert.ok(calls.length >= 150, `${calls.length} calls`);
    for (const t of TOOLS) assert.ok(calls.some((c) => c.tool === t), `a call for ${t}`);
  });

  it('answers every call with a typed result and keeps serving', async () => {
    const problems: string[] = [];
    for (const c of calls) {
      const r = await client.request('tools/call', `{"name":${JSON.stringify(c.tool)},"arguments":${toJson(c.arguments)}}`);
      const label = `${c.id} ${c.tool} (${c.note})`;
      if (r.error) {
        // A protocol error is the spec's answer to an unknown tool name, and only to that.
        if (TOOLS.has(c.tool)) problems.push(`${label}: protocol error ${r.error.code} ${r.error.message.slice(0, 120)}`);
        else if (r.error.code !== -32602) problems.push(`${label}: unknown tool answered with ${r.error.code}, expected -32602`);
        continue;
      }
      const env = EnvelopeSchema.safeParse(r.result?.structuredContent);
      if (!env.success) {
        problems.push(`${label}: no charter envelope in the result`);
        continue;
      }
      const e = env.data;
      if (e.status === 'error' && e.error?.kind === 'internal_error') problems.push(`${label}: internal_error ${e.error.message.slice(0, 120)}`);
      const notObject = c.arguments === null || typeof c.arguments !== 'object' || Array.isArray(c.arguments);
      if ((notObject || hasPollutionKey(c.arguments)) && e.error?.kind !== 'invalid_argument') {
        problems.push(`${label}: expected invalid_argument, got ${e.status}${e.error ? `/${e.error.kind}` : ''}`);
      }
    }
    assert.equal(problems.length, 0, `${problems.length} calls answered wrongly:\n${problems.map((x) => x.replace(/\s+/g, ' ')).join('\n')}`);
    assert.equal(proc.exitCode, null, 'the server process is still running');
    assert.doesNotMatch(client.stderr, /this is a bug|RangeError|uncaught/i);
  });

  it('still answers an ordinary call after the whole corpus', async () => {
    const r = await client.request('tools/call', JSON.stringify({ name: 'list_indexed_schemas', arguments: {} }));
    const env = EnvelopeSchema.parse(r.result?.structuredContent);
    assert.equal(env.status, 'success');
  });
});
