import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { Readable } from 'node:stream';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CatalogStore } from '../../src/core/catalog/store';
import { EnvelopeSchema } from '../../src/core/envelope';
import { DIST_CLI, DIST_SERVER, ROOT, ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, tempDir } from '../support/server-harness';

const INSPECTOR = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');

interface CliRun {
  readonly code: number | null;
  readonly lines: Array<Record<string, unknown>>;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}, input?: string): CliRun {
  const r = spawnSync(process.execPath, [DIST_CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, input, timeout: 120_000 });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code: r.status, lines, stdout: r.stdout, stderr: r.stderr };
}

/** The URL an HTTP server started with `--http 0` logs on stderr once it listens. */
function listeningUrl(child: { readonly stderr: Readable }): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let err = '';
    const t = setTimeout(() => reject(new Error(`no listening line: ${err}`)), 20_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = err.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
  });
}

describe('the real processes: CLI, stdio server, HTTP server, MCP inspector', function () {
  let home: string;
  let catalog: string;

  before(() => {
    ensureBuilt();
    home = tempDir();
    catalog = path.join(home, 'catalog.sqlite');
  });

  it('indexes a SQLite file, printing JSON-lines progress and a result', () => {
    const r = cli(['index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog], { SCHEMABRAIN_HOME: home });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.ok(r.lines.some((l) => l.type === 'progress'));
    const result = r.lines.find((l) => l.type === 'result')!;
    assert.equal(result.tables, 11);
    assert.equal(result.mode, 'full');
    assert.equal(result.generation, 1);
  });

  it('re-indexing an unchanged source writes nothing and keeps the generation; --full re-reads it', () => {
    const before = fs.readFileSync(catalog);
    const r = cli(['index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog]);
    const result = r.lines.find((l) => l.type === 'result')!;
    assert.equal(result.mode, 'unchanged');
    assert.equal(result.changed, 0);
    assert.equal(result.generation, 1);
    assert.ok(fs.readFileSync(catalog).equals(before), 'the catalog file was not rewritten');
    const full = cli(['index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog, '--full']).lines.find((l) => l.type === 'result')!;
    assert.equal(full.mode, 'unchanged', 'a full re-read finds no structural change either');
    assert.equal(full.generation, 2, 'but it rewrites the catalog with fresh statistics');
  });

  it('the server and the CLI start from their code caches: a cache written by one start is taken as it is by the next', async () => {
    // A copy of the bundles, so that these caches are written by this test alone.
    const dist = path.join(home, 'dist-copy');
    fs.mkdirSync(dist);
    for (const f of ['server.js', 'server.bundle.js', 'cli.js', 'cli.bundle.js', 'cli-index.bundle.js', 'sql-wasm.wasm', 'libpg-query.wasm']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(dist, f));
    const cacheDir = path.join(dist, '.cache');
    const caches = (): Map<string, number> => new Map(fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((f) => f.endsWith('.v8')).map((f) => [f, fs.statSync(path.join(cacheDir, f)).mtimeMs]) : []);
    const serverStart = async (): Promise<void> => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(dist, 'server.js'), '--catalog', catalog, '--no-audit'], env: { ...(process.env as Record<string, string>), SCHEMABRAIN_HOME: home }, stderr: 'ignore' });
      const client = new Client({ name: 'code-cache', version: '1' });
      await client.connect(transport);
      const res = await client.callTool({ name: 'find_relevant_tables', arguments: { query: 'invoices of a customer' } });
      assert.equal((res.structuredContent as { status: string }).status, 'success');
      await client.close();
    };
    const copyCatalog = path.join(home, 'cache-test.sqlite');
    const index = (...extra: string[]): Record<string, unknown> => {
      const r = spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', copyCatalog, '--json', ...extra], { encoding: 'utf8', env: { ...process.env, SCHEMABRAIN_HOME: home }, timeout: 120_000 });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    };
    const settle = async (want: number): Promise<void> => {
      // A process writes its cache when it exits; the server's stdio client may return before it has.
      for (let i = 0; i < 100 && caches().size < want; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
    };
    // First starts: the server's cache, the quick index bundle's and the CLI's `index` (one full run hands over).
    await serverStart();
    assert.equal(index().mode, 'full');
    await settle(3);
    const written = caches();
    const kinds = [...written.keys()].map((f) => ['server.bundle.js.', 'cli-index.bundle.js.index.', 'cli.bundle.js.index.'].find((p) => f.startsWith(p)) ?? f).sort();
    assert.deepEqual(kinds, ['cli-index.bundle.js.index.', 'cli.bundle.js.index.', 'server.bundle.js.']);
    await new Promise((r) => setTimeout(r, 20));
    // Second starts of each: a cache V8 rejects (made under other flags than this start's) is written again after it.
    await serverStart();
    assert.equal(index('--full').mode, 'unchanged', 'a full re-read through both bundles');
    assert.equal(index().mode, 'unchanged', 'the quick bundle alone');
    await settle(3);
    assert.deepEqual(caches(), written, 'every start took its cache as it was');
  });


  it('a stdio server does not load the HTTP stack: Node\'s fetch internals stay unloaded through a call, and --http loads them', async () => {
    // A preload that writes, at exit, whether Node compiled its fetch implementation (undici) in this process.
    const probe = path.join(home, 'undici-probe.cjs');
    fs.writeFileSync(probe, "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, String(process.moduleLoadList.some((m) => m.includes('undici')))));\n");
    const stdioOut = path.join(home, 'probe-stdio.txt');
    const env = { ...(process.env as Record<string, string>), SCHEMABRAIN_HOME: home, PROBE_OUT: stdioOut };
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-r', probe, DIST_SERVER, '--catalog', catalog, '--no-audit'], env, stderr: 'ignore' });
    const client = new Client({ name: 'undici-probe', version: '1' });
    await client.connect(transport);
    const res = await client.callTool({ name: 'find_relevant_tables', arguments: { query: 'invoices of a customer' } });
    assert.equal((res.structuredContent as { status: string }).status, 'success');
    await client.close();
    for (let i = 0; i < 100 && !fs.existsSync(stdioOut); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(fs.readFileSync(stdioOut, 'utf8'), 'false', 'the stdio server compiled undici');
    // The same probe sees it when the HTTP transport is started.
    const httpOut = path.join(home, 'probe-http.txt');
    const child = spawn(process.execPath, ['-r', probe, DIST_SERVER, '--catalog', catalog, '--no-audit', '--http', '0'], { env: { ...env, PROBE_OUT: httpOut }, stdio: ['ignore', 'ignore', 'pipe'] });
    await listeningUrl(child);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    assert.equal(fs.readFileSync(httpOut, 'utf8'), 'true', 'the probe did not see the HTTP server load undici');
  });

  it('the server handles SIGTERM before it announces itself: stdio before its first answer, HTTP before its listening line', async () => {
    // A preload that notes, when the server first writes its answer (stdout) or its listening line (stderr), whether a
    // SIGTERM handler is in place: a signal sent the moment a client sees either must drain, not kill.
    const probe = path.join(home, 'signal-probe.cjs');
    fs.writeFileSync(
      probe,
      [
        "const fs = require('node:fs');",
        'for (const [name, re] of [["stdout", /"result"/], ["stderr", /listening on/]]) {',
        '  const s = process[name]; const write = s.write.bind(s);',
        "  s.write = (chunk, ...rest) => { if (re.test(String(chunk))) fs.appendFileSync(process.env.PROBE_OUT, `${name} ${process.listenerCount('SIGTERM')}\\n`); return write(chunk, ...rest); };",
        '}',
        '',
      ].join('\n'),
    );
    const stdioOut = path.join(home, 'signal-stdio.txt');
    const env = { ...(process.env as Record<string, string>), SCHEMABRAIN_HOME: home };
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-r', probe, DIST_SERVER, '--catalog', catalog, '--no-audit'], env: { ...env, PROBE_OUT: stdioOut }, stderr: 'ignore' });
    const client = new Client({ name: 'signal-probe', version: '1' });
    await client.connect(transport);
    await client.close();
    assert.equal(fs.readFileSync(stdioOut, 'utf8').split('\n')[0], 'stdout 1', 'the first answer went out before a SIGTERM handler was in place');
    // Over HTTP, SIGTERM sent the moment the listening line is read: the server drains and exits 0, every time.
    const httpOut = path.join(home, 'signal-http.txt');
    for (let i = 0; i < 5; i++) {
      const child = spawn(process.execPath, ['-r', probe, DIST_SERVER, '--catalog', catalog, '--no-audit', '--http', '0'], { env: { ...env, PROBE_OUT: httpOut }, stdio: ['ignore', 'ignore', 'pipe'] });
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('exit', (code, signal) => r([code, signal])));
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/listening on/.test(err) && child.exitCode === null && !child.killed) child.kill('SIGTERM');
      });
      assert.deepEqual(await exited, [0, null], `run ${i}: ${err}`);
    }
    assert.deepEqual(fs.readFileSync(httpOut, 'utf8').trim().split('\n'), Array(5).fill('stderr 1'));
  });
  it('the MCP inspector CLI lists the tools of dist/server.js and calls one', () => {
    const env = { ...process.env, SCHEMABRAIN_HOME: home };
    const list = spawnSync(process.execPath, [INSPECTOR, '--cli', process.execPath, DIST_SERVER, '--catalog', catalog, '--method', 'tools/list'], { encoding: 'utf8', env, timeout: 60_000 });
    assert.equal(list.status, 0, list.stderr);
    const tools = (JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    for (const name of ['list_indexed_schemas', 'find_relevant_tables', 'describe_table', 'describe_column', 'suggest_joins', 'get_index_status', 'run_query']) assert.ok(tools.includes(name), name);
    const call = spawnSync(
      process.execPath,
      [INSPECTOR, '--cli', process.execPath, DIST_SERVER, '--catalog', catalog, '--method', 'tools/call', '--tool-name', 'describe_table', '--tool-arg', 'qualified_name=main.Album'],
      { encoding: 'utf8', env, timeout: 60_000 },
    );
    assert.equal(call.status, 0, call.stderr);
    const res = JSON.parse(call.stdout) as { structuredContent: Record<string, unknown>; content: Array<{ text: string }> };
    assert.ok(EnvelopeSchema.safeParse(res.structuredContent).success);
    assert.equal(res.structuredContent.status, 'success');
    assert.deepEqual(JSON.parse(res.content[0]!.text), res.structuredContent, 'content[0].text mirrors structuredContent');
  });

  it('serves Streamable HTTP on loopback with --http', async () => {
    const child = spawn(process.execPath, [DIST_SERVER, '--catalog', catalog, '--http', '0'], { env: { ...process.env, SCHEMABRAIN_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listeningUrl(child);
      const client = new Client({ name: 'http-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'describe_table'));
      const res = await client.callTool({ name: 'list_indexed_schemas', arguments: {} });
      assert.equal((res.structuredContent as { status: string }).status, 'success');
      await client.close();
      // A page on another origin that rebinds its DNS name to 127.0.0.1 still sends its own Host header.
      const u = new URL(url);
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
      });
      assert.equal(status, 403);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('a stdio client that closes the server\'s output stops the server cleanly (no uncaught EPIPE, a recorded stop)', async () => {
    const own = tempDir();
    const child = spawn(process.execPath, [DIST_SERVER, '--catalog', catalog], { env: { ...process.env, SCHEMABRAIN_HOME: own }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    // The input stays open: only the closed output can end the server.
    const code = await Promise.race([exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 20_000))]);
    child.kill('SIGKILL');
    assert.equal(code, 0, `the server did not stop on its closed output: ${stderr}`);
    assert.doesNotMatch(stderr, /uncaught|EPIPE/);
    const events = fs.readFileSync(path.join(own, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event_subtype?: string; message?: string });
    const stopEvent = events.find((e) => e.event_subtype === 'server_stop');
    assert.equal((JSON.parse(stopEvent?.message ?? '{}') as { reason?: string }).reason, 'stdout EPIPE');
  });

  it('SIGHUP drains and stops the stdio server as SIGTERM does, with the stop recorded', async function () {
    if (process.platform === 'win32') this.skip();
    const own = tempDir();
    const client = new Client({ name: 'hup', version: '1' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [DIST_SERVER, '--catalog', catalog], env: { ...process.env, SCHEMABRAIN_HOME: own } as Record<string, string>, stderr: 'ignore' });
    await client.connect(transport);
    await client.listTools();
    const pid = transport.pid!;
    const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
    process.kill(pid, 'SIGHUP');
    await closed;
    const events = fs.readFileSync(path.join(own, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event_subtype?: string; message?: string });
    const stopEvent = events.find((e) => e.event_subtype === 'server_stop');
    assert.equal((JSON.parse(stopEvent?.message ?? '{}') as { reason?: string }).reason, 'SIGHUP', 'the server stopped through its drain, not by the default action');
  });

  it('over HTTP, a request body past the limit is answered 413 and the server goes on serving', async () => {
    const own = tempDir();
    const child = spawn(process.execPath, [DIST_SERVER, '--catalog', catalog, '--http', '0'], { env: { ...process.env, SCHEMABRAIN_HOME: own }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listeningUrl(child);
      const post = (body: Buffer, headers: Record<string, string> = {}): Promise<number> =>
        new Promise((resolve, reject) => {
          const u = new URL(url);
          const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end(body);
        });
      assert.equal(await post(Buffer.alloc(5 * 1024 * 1024, 0x20)), 413);
      const client = new Client({ name: 'after-413', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('reports bad input as typed errors with exit code 2 and leaves the catalog intact', () => {
    const gen = (): number => {
      const bytes = fs.readFileSync(catalog);
      assert.ok(bytes.length > 0);
      return bytes.length;
    };
    const before = gen();
    const missing = cli(['index', '--source', path.join(home, 'nope.sqlite'), '--catalog', catalog]);
    assert.equal(missing.code, 2);
    assert.equal(missing.lines[missing.lines.length - 1]!.kind, 'file_missing');
    const notSqlite = path.join(home, 'notes.sqlite');
    fs.writeFileSync(notSqlite, 'plain text, not a database\n'.repeat(10));
    assert.equal(cli(['index', '--source', notSqlite, '--catalog', catalog]).lines.pop()!.kind, 'not_sqlite');
    const unreachable = cli(['index', '--source', 'postgres://postgres@127.0.0.1:1/test', '--catalog', catalog]);
    assert.equal(unreachable.code, 2);
    assert.equal(unreachable.lines.pop()!.kind, 'unreachable');
    const unset = cli(['index', '--source', 'postgres://u:${SCHEMABRAIN_SURELY_UNSET_VAR}@127.0.0.1:5432/test', '--catalog', catalog]);
    assert.equal(unset.lines.pop()!.kind, 'missing_credential');
    assert.doesNotMatch(unset.stdout + unset.stderr, /SURELY_UNSET_VAR\}@/);
    const usage = cli(['index', '--catalog', catalog, '--bogus']);
    assert.equal(usage.code, 2);
    // Another database under a name the catalog already gives to Chinook: the name is the problem, not the file.
    const other = path.join(home, 'other.sqlite');
    fs.copyFileSync(CHINOOK_SQLITE, other);
    const taken = cli(['index', '--source', other, '--name', 'chinook', '--catalog', catalog, '--json']);
    assert.equal(taken.code, 2, taken.stderr);
    assert.equal(taken.lines.at(-1)!.kind, 'catalog_name_taken');
    assert.match(String(taken.lines.at(-1)!.hint), /another --name/);
    assert.equal(gen(), before, 'failed runs never touched the catalog');
  });

  it('a catalog or policy path that is a pipe or a directory is refused at once: nothing blocks, nothing is moved or written beside it', async function () {
    if (process.platform === 'win32') this.skip(); // mkfifo
    const dir = tempDir();
    const fifo = path.join(dir, 'catalog.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    const folder = path.join(dir, 'folder');
    fs.mkdirSync(folder);
    const own = tempDir();
    const short = (args: string[]): CliRun => {
      // A read of the pipe would wait for a writer for good: the run is bounded, and a timeout fails the check.
      const r = spawnSync(process.execPath, [DIST_CLI, ...args], { encoding: 'utf8', env: { ...process.env, SCHEMABRAIN_HOME: own }, timeout: 20_000 });
      return { code: r.status, lines: r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>), stdout: r.stdout, stderr: r.stderr };
    };
    for (const target of [fifo, folder]) {
      for (const extra of [[], ['--rebuild'], ['--full']]) {
        const r = short(['index', '--source', CHINOOK_SQLITE, '--catalog', target, '--json', ...extra]);
        assert.equal(r.code, 2, `${target} ${extra.join(' ')}: ${r.stderr}`);
        const last = r.lines.at(-1)!;
        assert.equal(last.kind, 'catalog_io');
        assert.match(String(last.message), /not a regular file/);
        assert.doesNotMatch(JSON.stringify(last), /--rebuild/, 'no advice to move it aside');
      }
      const q = short(['query', 'SELECT 1', '--catalog', target]);
      assert.equal(q.code, 2, q.stderr);
      assert.match(q.stderr, /not a regular file/);
    }
    assert.ok(fs.statSync(fifo).isFIFO(), 'the pipe is where it was');
    assert.deepEqual(fs.readdirSync(folder), [], 'nothing was written into the directory');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['catalog.fifo', 'folder'], 'no lock, job status or moved-aside file beside them');
    // A PII policy that is a pipe: a typed refusal, not a wait.
    const withPolicy = short(['query', 'SELECT 1', '--catalog', catalog, '--pii-policy', fifo]);
    assert.equal(withPolicy.code, 2, withPolicy.stderr);
    assert.match(withPolicy.stderr, /not a regular file/);
    // The server keeps serving and answers a typed error.
    const client = new Client({ name: 'fifo', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [DIST_SERVER, '--catalog', fifo], env: { ...process.env, SCHEMABRAIN_HOME: own } as Record<string, string>, stderr: 'ignore' }));
    try {
      const res = await client.callTool({ name: 'list_indexed_schemas', arguments: {} });
      const env = EnvelopeSchema.parse(res.structuredContent);
      assert.equal(env.status, 'error');
      assert.match(env.error?.message ?? '', /not a regular file/);
    } finally {
      await client.close();
    }
  });

  it('refuses a damaged catalog, and --rebuild moves it aside instead of deleting it', async () => {
    const dir = tempDir();
    const bad = path.join(dir, 'catalog.sqlite');
    fs.writeFileSync(bad, 'garbage'.repeat(100));
    const r = cli(['index', '--source', CHINOOK_SQLITE, '--catalog', bad]);
    assert.equal(r.code, 2);
    assert.equal(r.lines.pop()!.kind, 'catalog_corrupt');
    const ok = cli(['index', '--source', CHINOOK_SQLITE, '--catalog', bad, '--rebuild']);
    assert.equal(ok.code, 0, ok.stderr);
    const aside = fs.readdirSync(dir).filter((f) => f.includes('.corrupt-'));
    assert.equal(aside.length, 1);
    assert.equal(fs.readFileSync(path.join(dir, aside[0]!), 'utf8'), 'garbage'.repeat(100));
    const store = await CatalogStore.open(bad);
    assert.equal(store.listSources().length, 1);
    store.close();
  });

  it('check passes clean definitions and exits 1 on drift against the catalog', () => {
    const ws = tempDir();
    fs.mkdirSync(path.join(ws, '.schemabrain'));
    for (const f of ['entities.yaml', 'joins.yaml', 'metrics.yaml']) {
      fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'semantic', 'chinook', f), path.join(ws, '.schemabrain', f));
    }
    const clean = cli(['check', '--workspace', ws, '--catalog', catalog]);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /0 error\(s\)/);
    const file = path.join(ws, '.schemabrain', 'entities.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('main.Album', 'main.Albums'));
    const drift = cli(['check', '--workspace', ws, '--catalog', catalog]);
    assert.equal(drift.code, 1, drift.stdout + drift.stderr);
    assert.match(drift.stdout, /entities\.yaml:\d+:\d+: error/);
    assert.match(drift.stdout, /main\.Albums/);
  });

  it('check reports unreadable definitions as such: an alias bomb is invalid YAML, a metrics.yaml folder an error, a .schemabrain file exit 2', () => {
    const ws = tempDir();
    const dir = path.join(ws, '.schemabrain');
    fs.mkdirSync(path.join(dir, 'metrics.yaml'), { recursive: true });
    const lines = ['version: 1', 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
    fs.writeFileSync(path.join(dir, 'bomb.yaml'), `${lines.join('\n')}\nentities: *a8\n`);
    const broken = cli(['check', '--workspace', ws, '--catalog', catalog]);
    assert.equal(broken.code, 1, broken.stdout + broken.stderr);
    assert.match(broken.stdout, /bomb\.yaml:1:1: error yaml_syntax: not valid YAML: Excessive alias count/);
    assert.match(broken.stdout, /metrics\.yaml:1:1: error not_a_file: is a directory, not a definitions file/);
    assert.doesNotMatch(broken.stdout + broken.stderr, /unexpected failure|ReferenceError/);
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, '');
    const file = cli(['check', '--workspace', ws, '--catalog', catalog]);
    assert.equal(file.code, 2, file.stdout + file.stderr);
    assert.equal(file.stderr.split('\n')[0], `schemabrain check: definitions folder ${dir} is not a directory`);
  });

  it('profile and metric exit 2 with one typed message, no stack trace, when SCHEMABRAIN_HOME or the workspace is a regular file', () => {
    const file = path.join(tempDir(), 'homefile');
    fs.writeFileSync(file, '');
    const profile = cli(['profile', 'main.Track', '--catalog', catalog, '--no-audit'], { SCHEMABRAIN_HOME: file });
    assert.equal(profile.code, 2, profile.stdout + profile.stderr);
    const profileLine = profile.stderr.split('\n').find((l) => l.startsWith('schemabrain profile: '));
    assert.ok(profileLine?.startsWith(`schemabrain profile: error (index_not_ready): Cannot profile 'main.Track': cannot write the profile reports under ${path.join(file, 'artifacts')}: ${file} is not a directory`), profile.stderr);
    const metric = cli(['metric', 'invoice_total', '--workspace', file, '--catalog', catalog, '--no-audit'], { SCHEMABRAIN_HOME: home });
    assert.equal(metric.code, 2, metric.stdout + metric.stderr);
    const metricLine = metric.stderr.split('\n').find((l) => l.startsWith('schemabrain metric: '));
    assert.ok(metricLine?.startsWith('schemabrain metric: error (index_not_ready): ') && metricLine.includes(`${file} is not a directory`), metric.stderr);
    for (const r of [profile, metric]) assert.doesNotMatch(r.stderr, /ENOTDIR|internal_error|\n\s+at /);
  });

  it('demo indexes the bundled sample and runs the scripted agent session end to end', () => {
    const demoHome = tempDir();
    const r = cli(['demo', '--home', demoHome]);
    assert.equal(r.code, 0, r.stderr + r.stdout.slice(-2000));
    for (const tool of ['list_indexed_schemas', 'find_relevant_tables', 'describe_table', 'suggest_joins', 'run_query', 'list_metrics', 'get_metric', 'get_index_status']) {
      assert.match(r.stdout, new RegExp(`→ ${tool} `), tool);
    }
    assert.match(r.stdout, /← status: refused/);
    assert.match(r.stdout, /\["Rock",1639\.03\]/, 'fan-out-safe invoice total for Rock');
    assert.ok(fs.existsSync(path.join(demoHome, 'catalog.sqlite')));
  });

  it('init prints a client configuration and merges it into an existing file', () => {
    // Pretty-printed JSON (for people to paste), so it is read whole rather than as JSON lines.
    const printed = spawnSync(process.execPath, [DIST_CLI, 'init', '--client', 'vscode', '--catalog', catalog], { encoding: 'utf8' });
    assert.equal(printed.status, 0, printed.stderr);
    const cfg = JSON.parse(printed.stdout) as { servers: { schemabrain: { type: string; command: string; args: string[] } } };
    assert.equal(cfg.servers.schemabrain.type, 'stdio');
    assert.deepEqual(cfg.servers.schemabrain.args, [DIST_SERVER, '--catalog', catalog]);
    const file = path.join(tempDir(), 'mcp.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
    assert.equal(cli(['init', '--client', 'cursor', '--catalog', catalog, '--write', file]).code, 0);
    const merged = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(Object.keys(merged.mcpServers).sort(), ['other', 'schemabrain']);
    fs.writeFileSync(file, '{ not json');
    const broken = cli(['init', '--write', file]);
    assert.equal(broken.code, 2);
    assert.equal(fs.readFileSync(file, 'utf8'), '{ not json', 'a broken file is left as it was');
    assert.equal(cli(['init', '--client', 'emacs']).code, 2);
  });

  it('init --write refuses a file whose JSON is not an object, or whose server map is not one, and leaves it byte for byte', () => {
    const file = path.join(tempDir(), 'mcp.json');
    for (const [client, text, why] of [
      ['vscode', '[1,2]', /holds an array at the top level, not an object/],
      ['cursor', 'null', /holds null at the top level, not an object/],
      ['claude', ' "servers"\n', /holds a string at the top level, not an object/],
      ['vscode', '{"servers":5}', /has "servers" as a number, not an object of servers/],
      ['vscode', '{"servers":[{"command":"x"}]}', /has "servers" as an array, not an object of servers/],
      ['cursor', '{"mcpServers":null,"other":1}', /has "mcpServers" as null, not an object of servers/],
      ['generic', '{"mcpServers":"x"}', /has "mcpServers" as a string, not an object of servers/],
    ] as const) {
      fs.writeFileSync(file, text);
      const r = cli(['init', '--client', client, '--catalog', catalog, '--write', file]);
      assert.equal(r.code, 2, `${client} ${text}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^schemabrain init: .*mcp\\.json ${why.source}; fix or move it, nothing was written\n$`));
      assert.equal(fs.readFileSync(file, 'utf8'), text, 'the file is left as it was');
    }
    // A member of another client's format is not this client's to judge: it is kept as it is.
    fs.writeFileSync(file, '{"mcpServers":[]}');
    assert.equal(cli(['init', '--client', 'vscode', '--catalog', catalog, '--write', file]).code, 0);
    assert.deepEqual(Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { servers: object }).servers), ['schemabrain']);
    const dir = path.dirname(file);
    const notFile = cli(['init', '--write', dir]);
    assert.equal(notFile.code, 2);
    assert.match(notFile.stderr, /is not a regular file; fix or move it, nothing was written/);
  });

  it('the CLI answers unknown verbs and --help clearly', () => {
    const unknown = cli(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
    const help = cli(['index', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--password-stdin/);
  });

  it('text for a person carries no control character from a name, a path or a database message: each is shown escaped', () => {
    const evil = 'x\u001b[2J\u001b]0;owned\u0007\r\u202e';
    const shown = 'x\\x1b[2J\\x1b]0;owned\\x07\\x0d\\u202e';
    const runs = [
      cli([`bad${evil}verb`]),
      cli(['query', 'select 1', '--catalog', path.join(home, evil, 'cat.sqlite')]),
      cli(['index', '--source', path.join(home, `${evil}.sqlite`), '--catalog', path.join(home, 'evil-index.sqlite')], { SCHEMABRAIN_HOME: home }),
      // An error raised by the database driver, with the database name the URL gave it.
      cli(['token', 'list', '--store', `postgres://postgres@127.0.0.1:1/${encodeURIComponent(evil)}`]),
    ];
    for (const r of runs) {
      assert.equal(r.code, 2, r.stderr);
      const text = r.stderr + r.stdout.split('\n').filter((l) => !l.startsWith('{')).join('\n');
      assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, text);
    }
    assert.ok(runs[0]!.stderr.includes(`bad${shown}verb`), runs[0]!.stderr);
    assert.ok(runs[1]!.stderr.includes(shown), runs[1]!.stderr);
    // Not a terminal: the index error is a JSON line, where JSON escapes the control characters itself.
    assert.ok(runs[2]!.lines.some((l) => l.type === 'error' && String(l.message).includes(evil)), runs[2]!.stdout);
  });
});
