import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { DIST_CLI, ensureBuilt } from '../support/build';
import { CHINOOK_SQLITE, tempDir } from '../support/server-harness';
import { serveHttp } from '../support/serve-http';

/** `schemabrain serve --http` as a process: sessions, the GET notification stream, Host and Origin checks, --host. */

/** A raw POST (node:http, so a test can send any Host header as a rebinding page would); resolves with the status. */
function post(url: string, headers: Record<string, string>, body: unknown): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

/**
 * Reads server-sent events from a response until the stream ends, `stop` matches an event, or `ms` pass; then drops
 * the connection (as a client that loses it would).
 */
async function readSse(res: Response, stop?: (e: SseEvent) => boolean, ms = 5000): Promise<SseEvent[]> {
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/, `status ${res.status}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buf = '';
  const deadline = Date.now() + ms;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
      if (!next || next.done) break;
      buf += decoder.decode(next.value, { stream: true });
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const e: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          const [k, ...v] = line.split(':');
          const val = v.join(':').replace(/^ /, '');
          if (k === 'id') e.id = val;
          else if (k === 'retry') e.retry = val;
          else if (k === 'data') e.data += val;
        }
        events.push(e);
        if (stop?.(e)) return events;
      }
    }
    return events;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

describe('Streamable HTTP sessions of schemabrain serve --http', function () {
  let catalog: string;
  let dir: string;
  const children: ChildProcessWithoutNullStreams[] = [];

  before(() => {
    ensureBuilt();
    dir = tempDir('sb-http-');
    catalog = path.join(dir, 'catalog.sqlite');
    const r = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--catalog', catalog], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
  });

  after(() => {
    for (const c of children) c.kill('SIGTERM');
  });

  it('gives each client a session whose GET stream carries log messages and list_changed; checks Host, Origin and session ids', async () => {
    const s = await serveHttp(['--http', '0', '--catalog', catalog, '--no-audit']);
    children.push(s.child);
    const client = new Client({ name: 'http-sessions', version: '1' });
    const logs: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    const transport = new StreamableHTTPClientTransport(new URL(s.url));
    await client.connect(transport);
    assert.match(transport.sessionId ?? '', /^[0-9a-f-]{36}$/, 'a session id');
    assert.ok(client.getServerCapabilities()?.resources?.listChanged);
    const first = await client.listResources();
    assert.ok(first.resources.length > 10);
    // The start-up warning reaches the client over the session's GET stream.
    const deadline = Date.now() + 8000;
    while (!logs.some((l) => /auditing is off/.test(l)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(logs.some((l) => /auditing is off/.test(l)), `log messages: ${JSON.stringify(logs)}`);
    // A re-index adds a source: list_changed arrives on the GET stream.
    const r = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', CHINOOK_SQLITE, '--name', 'chinook2', '--catalog', catalog], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const until = Date.now() + 8000;
    while (listChanged === 0 && Date.now() < until) await new Promise((res) => setTimeout(res, 100));
    assert.ok(listChanged > 0, 'list_changed received');

    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const port = new URL(s.url).port;
    assert.equal(await post(s.url, { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' }, list), 200);
    assert.equal(await post(s.url, { 'mcp-session-id': '00000000-0000-0000-0000-000000000000', 'mcp-protocol-version': '2025-06-18' }, list), 404, 'unknown session');
    assert.equal(await post(s.url, {}, list), 400, 'no session and not initialize');
    assert.equal(await post(s.url, { host: `evil.example:${port}` }, init), 403, 'DNS rebinding: foreign Host');
    assert.equal(await post(s.url, { origin: 'https://evil.example' }, init), 403, 'foreign Origin');
    assert.equal(await post(s.url, { origin: `http://localhost:${port}` }, init), 200, 'own Origin');
    await transport.terminateSession();
    assert.equal(await post(s.url, { 'mcp-session-id': transport.sessionId ?? 'gone', 'mcp-protocol-version': '2025-06-18' }, list), 404, 'a deleted session is gone');
    await client.close();
  });

  it('resumes streams: SSE events carry ids, and a GET with Last-Event-ID replays what the client missed', async () => {
    const s = await serveHttp(['--http', '0', '--catalog', catalog, '--no-audit']);
    children.push(s.child);
    const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const init = await fetch(s.url, { method: 'POST', headers: base, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'resume', version: '1' } } }) });
    const sid = init.headers.get('mcp-session-id')!;
    assert.ok(sid, 'a session');
    await readSse(init);
    const h = { ...base, 'mcp-session-id': sid };
    assert.equal((await fetch(s.url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status, 202);

    // A POST stream: a priming event (an id, no data, a retry hint) first, then the response with an id.
    const call = await fetch(s.url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_indexed_schemas', arguments: {} } }) });
    const postEvents = await readSse(call);
    assert.equal(postEvents[0]!.data, '', 'priming event first');
    assert.equal(postEvents[0]!.retry, '1000');
    const response = postEvents.find((e) => e.data.includes('"id":2'));
    assert.ok(response?.id && /^\d+\./.test(response.id), `the response has an event id: ${JSON.stringify(postEvents)}`);
    // A client that lost that stream after the priming event gets the response by reconnecting with its id.
    const resumedPost = await readSse(await fetch(s.url, { headers: { ...h, 'last-event-id': postEvents[0]!.id! } }), (e) => e.data.includes('"id":2'));
    assert.ok(resumedPost.some((e) => e.id === response.id && e.data.includes('chinook')), JSON.stringify(resumedPost).slice(0, 500));

    // The GET stream: the start-up warning arrives with an id; the client drops the stream, the catalog changes,
    // and the reconnect with Last-Event-ID gets the list_changed sent meanwhile.
    const first = await readSse(await fetch(s.url, { headers: h }), (e) => e.data.includes('auditing is off'));
    const seen = first.find((e) => e.data.includes('auditing is off'));
    assert.ok(seen?.id, `the log message on the GET stream has an id: ${JSON.stringify(first)}`);
    const r = spawnSync(process.execPath, [DIST_CLI, 'index', '--source', CHINOOK_SQLITE, '--name', 'chinook_resume', '--catalog', catalog], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const missed = await readSse(await fetch(s.url, { headers: { ...h, 'last-event-id': seen.id } }), (e) => e.data.includes('list_changed'), 10_000);
    const changed = missed.find((e) => e.data.includes('notifications/resources/list_changed'));
    assert.ok(changed, `list_changed replayed: ${JSON.stringify(missed)}`);
    assert.ok(Number(changed.id!.split('.')[0]) > Number(seen.id.split('.')[0]), 'ids increase');
    assert.ok(!missed.some((e) => e.data.includes('auditing is off')), 'nothing before Last-Event-ID is sent again');
    // An id the server never issued (or one that left the bounded buffer) is refused: the client must start over.
    assert.equal((await fetch(s.url, { headers: { ...h, 'last-event-id': '999999._GET_stream' } })).status, 400);
  });

  it('warns clearly when --host binds beyond loopback', async () => {
    const s = await serveHttp(['--http', '0', '--host', '0.0.0.0', '--catalog', catalog, '--no-audit']);
    children.push(s.child);
    assert.match(s.stderr(), /no authentication, so anyone who can reach this port can read the catalog/);
    const port = new URL(s.url).port;
    assert.equal(await post(`http://127.0.0.1:${port}/mcp`, { host: `evil.example:${port}` }, { jsonrpc: '2.0', id: 1, method: 'ping' }), 403, 'Host still checked');
  });
});
