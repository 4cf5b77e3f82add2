import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { checkLine, StdioInput } from '../../src/server/stdio-input';
import type { InputErrorReply } from '../../src/server/stdio-input';
import { DIST_SERVER, ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, indexInto, tempDir } from '../support/server-harness';
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';

/** Runs bytes through the filter: the lines it passes on, and the replies it gives for the others. */
async function filter(chunks: ReadonlyArray<string | Buffer>, maxLineBytes?: number): Promise<{ passed: string[]; replies: InputErrorReply[] }> {
  const replies: InputErrorReply[] = [];
  const input = new StdioInput((reply) => replies.push(reply), maxLineBytes);
  const out: Buffer[] = [];
  input.on('data', (d: Buffer) => out.push(d));
  await new Promise<void>((resolve, reject) => {
    input.on('end', resolve);
    input.on('error', reject);
    Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).pipe(input);
  });
  return { passed: Buffer.concat(out).toString('utf8').split('\n').filter((l) => l !== ''), replies };
}

describe('the stdio server reads its input through a check of its own', function () {
  it('passes valid messages on unchanged, whatever the chunking, and answers each other line with its JSON-RPC error', async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const note = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
    const text = `${ping}\r\n${note}\nnot json\n[${ping}]\n{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping","x":1}\n{"id":3,"method":"ping"}\n{"jsonrpc":"2.0","id":4,"method":"tools/list","params":"s"}\n\n${ping}`;
    // Byte by byte and whole: the same lines out, the same replies.
    for (const chunks of [[text], [...Buffer.from(text)].map((b) => Buffer.from([b]))]) {
      const { passed, replies } = await filter(chunks);
      assert.deepEqual(passed, [`${ping}\r`, note, ping]);
      assert.deepEqual(
        replies.map((r) => [r.id, r.error.code]),
        [
          [null, -32700],
          [null, -32600],
          [null, -32600],
          [2, -32600],
          [3, -32600],
          [4, -32600],
        ],
      );
      assert.match(replies[1]!.error.message, /batch/);
      assert.match(replies[3]!.error.message, /unknown member "x"/);
      assert.match(replies[5]!.error.message, /"params" must be an object/);
    }
  });

  it('skips a line longer than the bound without holding it, answers it under the id at its head, and reads on', async () => {
    const big = `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"run_query","arguments":{"sql":"${'x'.repeat(5000)}"}}}`;
    const { passed, replies } = await filter([big.slice(0, 2000), big.slice(2000), '\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n'], 1024);
    assert.deepEqual(passed, ['{"jsonrpc":"2.0","id":2,"method":"ping"}']);
    assert.equal(replies.length, 1);
    assert.equal(replies[0]!.id, 'big-1');
    assert.match(replies[0]!.error.message, /more than/);
    // An id that is not at the head (inside the params) is never taken for the request's.
    const nested = `{"jsonrpc":"2.0","method":"x","params":{"id":7,"pad":"${'y'.repeat(3000)}"}}\n`;
    assert.equal((await filter([nested], 1024)).replies[0]!.id, null);
  });

  it('answers a message whose params hold too many values with -32602, and leaves tool calls to their envelope', () => {
    const args: Record<string, number> = {};
    for (let i = 0; i < 6000; i++) args[`k${i}`] = i;
    const bad = checkLine(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'explain_metric', arguments: args } }));
    assert.equal(bad?.reply.error.code, -32602);
    assert.equal(bad?.reply.id, 5);
    assert.equal(checkLine(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'run_query', arguments: args } })), null, 'the server answers it with invalid_argument');
    const deep = checkLine(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'suggest_joins', arguments: { tables: Array.from({ length: 300 }, (_, i) => `t${i}`) } } }));
    assert.equal(deep, null, 'a few hundred values are fine');
  });

  it('leaves a byte order mark and blank lines out of the messages', async () => {
    assert.equal(checkLine('   '), null);
    const { passed, replies } = await filter(['\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}\n']);
    assert.deepEqual(passed, ['{"jsonrpc":"2.0","id":1,"method":"ping"}']);
    assert.deepEqual(replies, []);
  });

  it('dist/server.js answers malformed and over-long lines with errors and goes on serving', async function () {
    this.timeout(120_000);
    ensureBuilt();
    const dir = tempDir();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, CHINOOK_SQLITE, 'chinook');
    const child = spawn(process.execPath, [DIST_SERVER, '--catalog', catalog], { env: { ...process.env, SCHEMABRAIN_HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    const answers: Array<{ id?: unknown; error?: { code: number }; result?: unknown }> = [];
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, nl)) as (typeof answers)[number];
        // Responses only: the refusals are also logged to the client as notifications.
        if ('id' in message) answers.push(message);
        buffered = buffered.slice(nl + 1);
      }
    });
    const until = async (n: number): Promise<void> => {
      for (let i = 0; i < 600 && answers.length < n; i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(answers.length >= n, `only ${answers.length} answers`);
    };
    try {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      await until(1);
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"s"}\nnot json\n');
      // Past the SDK's own 10 MiB reader, which closed the transport and left the process deaf.
      child.stdin.write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"${'x'.repeat(11 * 1024 * 1024)}"}}}\n`);
      child.stdin.write('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_indexed_schemas","arguments":{}}}\n');
      await until(5);
      assert.deepEqual(
        answers.slice(1).map((a) => [a.id, a.error?.code ?? 'result']),
        [
          [2, -32600],
          [null, -32700],
          [3, -32600],
          [4, 'result'],
        ],
      );
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('the stdio server under a client that stops reading its answers', function () {
  it('stops reading requests while answers wait, keeps its memory bounded, and answers everything once read again', async function () {
    this.timeout(180_000);
    if (!fs.existsSync('/proc/self/status')) this.skip(); // memory is read from /proc
    ensureBuilt();
    const dir = tempDir();
    const file = path.join(dir, 'wide.sqlite');
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(`CREATE TABLE wide (${Array.from({ length: 1500 }, (_, i) => `column_with_a_long_name_${i} TEXT`).join(', ')})`);
    fs.writeFileSync(file, db.export());
    db.close();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, file, 'wide');
    const child = spawn(process.execPath, [DIST_SERVER, '--catalog', catalog, '--no-audit'], { env: { ...process.env, SCHEMABRAIN_HOME: dir }, stdio: ['pipe', 'pipe', 'ignore'] });
    const rss = (): number => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    let answered = 0;
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        if (!line.includes('"method":')) answered++; // a response (notifications carry a method)
        buffered = buffered.slice(nl + 1);
      }
    });
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      for (let i = 0; i < 100 && answered < 1; i++) await wait(100);
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      child.stdout.pause(); // the client stops reading
      await wait(500);
      const base = rss();
      const total = 1500;
      let sent = 0;
      const started = Date.now();
      // As fast as stdin takes them, for at most 10 s: a server that reads everything takes them all.
      while (sent < total && Date.now() - started < 10_000) {
        const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1000 + sent, method: 'tools/call', params: { name: 'describe_table', arguments: { qualified_name: 'main.wide', response_format: 'detailed' } } })}\n`;
        sent++;
        if (!child.stdin.write(line)) {
          await new Promise<void>((resolve) => {
            const done = (): void => {
              clearTimeout(timer);
              child.stdin.off('drain', done);
              resolve();
            };
            const timer = setTimeout(done, 200);
            child.stdin.once('drain', done);
          });
        }
      }
      await wait(3000);
      const grown = rss() - base;
      assert.equal(child.exitCode, null, 'the server is alive');
      assert.ok(grown < 400 * 1024 ** 2, `memory grew by ${(grown / 1024 ** 2).toFixed(0)} MiB while answers waited`);
      child.stdout.resume();
      for (let i = 0; i < 1200 && answered < sent + 1; i++) await wait(100);
      assert.equal(answered, sent + 1, `every request sent is answered once read again (${answered - 1} of ${sent})`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
