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
