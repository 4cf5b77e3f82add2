import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MAX_SUBSCRIPTIONS } from '../../src/server/create-server';
import { MAX_CONNECTIONS_PER_PEER, MAX_SESSIONS_PER_OWNER } from '../../src/server/http';
import { ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, indexInto, tempDir } from '../support/server-harness';
import { serveHttp, type HttpServerProcess } from '../support/serve-http';

/**
 * What an HTTP client can make the server hold is bounded: sessions (a client that never closes them displaces only
 * its own), the size of its self-description, resource subscriptions per session, and connections per peer.
 */

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; session: string | undefined }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: u.host, ...headers } }, (res) => {
      const sid = res.headers['mcp-session-id'];
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, session: Array.isArray(sid) ? sid[0] : sid }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function postText(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: u.host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const init = (name = 'limits-test'): unknown => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } } });

describe('HTTP server limits', function () {
  this.timeout(120_000);
  let srv: HttpServerProcess;

  before(async () => {
    ensureBuilt();
    const dir = tempDir('sb-http-limits-');
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, CHINOOK_SQLITE, 'chinook');
    srv = await serveHttp(['--http', '0', '--catalog', catalog, '--no-audit']);
  });
  after(() => srv?.child.kill('SIGKILL'));

  it('keeps at most its cap of sessions per owner, ending the least recently used', async () => {
    const ids: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_OWNER + 8; i++) {
      const r = await post(srv.url, init());
      assert.equal(r.status, 200);
      ids.push(r.session!);
    }
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    assert.equal((await post(srv.url, list, { 'mcp-session-id': ids[0]! })).status, 404, 'the oldest session was ended');
    assert.equal((await post(srv.url, list, { 'mcp-session-id': ids.at(-1)! })).status, 200, 'the newest answers');
  });

  it('refuses an initialize whose clientInfo is outsized', async () => {
    assert.equal((await post(srv.url, init('x'.repeat(200_000)))).status, 400);
  });

  it('holds a bounded number of resource subscriptions per session, of bounded URIs', async () => {
    const client = new Client({ name: 'subs', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    try {
      await assert.rejects(client.subscribeResource({ uri: `schemabrain://chinook/main/${'x'.repeat(40_000)}` }), /at most 2048/);
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await client.subscribeResource({ uri: `schemabrain://chinook/main/t${i}` });
      await assert.rejects(client.subscribeResource({ uri: 'schemabrain://chinook/main/one_more' }), /at most 1000 resource subscriptions/);
      await client.subscribeResource({ uri: 'schemabrain://chinook/main/t0' }); // again: already held
      await client.unsubscribeResource({ uri: 'schemabrain://chinook/main/t0' });
      await client.subscribeResource({ uri: 'schemabrain://chinook/main/one_more' });
    } finally {
      await client.close();
    }
  });

  it('refuses a request whose id is in flight in its session, and answers the first one', async () => {
    const session = (await post(srv.url, init())).session!;
    const h = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    await post(srv.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, h);
    const slow = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'run_query', arguments: { sql: 'SELECT count(*) FROM Track a, Track b, Genre c' } } };
    const first = postText(srv.url, slow, h);
    await new Promise((r) => setTimeout(r, 150));
    const second = await postText(srv.url, slow, h);
    assert.equal(second.status, 409, second.text.slice(0, 300));
    assert.match(second.text, /-32600/);
    assert.match(second.text, /already used/);
    const answered = await first;
    assert.equal(answered.status, 200);
    assert.match(answered.text, /"id":7/);
    // Once answered, the id may be used again.
    const again = await postText(srv.url, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, h);
    assert.equal(again.status, 200, again.text.slice(0, 200));
  });

  it('refuses params that hold too many values before checking them one by one', async () => {
    const session = (await post(srv.url, init())).session!;
    const h = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const args: Record<string, unknown> = { sql: 'SELECT 1' };
    for (let i = 0; i < 20_000; i++) args[`k${i}`] = i;
    const started = Date.now();
    const r = await postText(srv.url, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'run_query', arguments: args } }, h);
    assert.equal(r.status, 200);
    assert.match(r.text, /invalid_argument/);
    assert.match(r.text, /more than 5000 values/);
    assert.ok(Date.now() - started < 2000, `answered in ${Date.now() - started} ms`);
    const prompt = await postText(srv.url, { jsonrpc: '2.0', id: 10, method: 'prompts/get', params: { name: 'explain_metric', arguments: args } }, h);
    assert.equal(prompt.status, 400);
    assert.match(prompt.text, /-32602/);
  });

  it('cuts a client that sends its headers a line at a time within seconds of the header timeout', async () => {
    const u = new URL(srv.url);
    const s = net.connect(Number(u.port), u.hostname);
    s.on('error', () => undefined);
    const opened = Date.now();
    const closed = new Promise<number>((r) => s.on('close', () => r(Date.now() - opened)));
    s.write(`GET /healthz HTTP/1.1\r\nHost: ${u.host}\r\n`);
    const drip = setInterval(() => s.write('X-a: b\r\n'), 2000);
    try {
      const ms = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 25_000))]);
      assert.ok(ms > 0 && ms < 15_000, `held ${ms < 0 ? 'over 25 s' : `${ms} ms`}`);
    } finally {
      clearInterval(drip);
      s.destroy();
    }
  });

  it('closes connections from one peer past its share, and serves again once they go', async () => {
    const u = new URL(srv.url);
    const sockets: net.Socket[] = [];
    let closedEarly = 0;
    for (let i = 0; i < MAX_CONNECTIONS_PER_PEER + 20; i++) {
      const s = net.connect(Number(u.port), u.hostname);
      s.on('error', () => undefined);
      s.on('close', () => closedEarly++);
      sockets.push(s);
    }
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(closedEarly >= 20, `${closedEarly} connections closed`);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await post(srv.url, init())).status, 200);
  });
});
