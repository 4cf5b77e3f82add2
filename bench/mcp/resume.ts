/**
 * The cost of resumable Streamable HTTP streams (src/server/event-store.ts): what storing each SSE event adds to
 * the send path, for the messages a session really sends (a progress notification, a list_changed, a tool result,
 * a page of resources/list), what a Last-Event-ID replay of a full buffer takes, and the memory the bounded buffer
 * holds at most. In process, no HTTP: the numbers are the store's own work.
 *
 *   node --expose-gc --import tsx bench/mcp/resume.ts [--quick]
 *
 * Writes bench/results/mcp.resume.{json,md}.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { REPLAY_BUFFER_BYTES, REPLAY_BUFFER_EVENTS, SessionEventStore } from '../../src/server/event-store';
import { loadAvg, machineFacts, percentile, round, writeResults } from '../core/measure';

const quick = process.argv.includes('--quick');
const N = quick ? 2_000 : 20_000;

function toolResult(bytes: number): JSONRPCMessage {
  const text = JSON.stringify({ status: 'success', data: { rows: Array.from({ length: Math.ceil(bytes / 64) }, (_, i) => ({ id: i, code: `c${i}`.padEnd(40, 'x') })) } });
  return { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> } };
}

const MESSAGES: Array<[string, JSONRPCMessage]> = [
  ['notifications/progress', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'a1b2', progress: 3, message: 'profile_table running (3 s)' } }],
  ['notifications/resources/list_changed', { jsonrpc: '2.0', method: 'notifications/resources/list_changed' }],
  ['tools/call result, ~8 KB (text and structuredContent)', toolResult(4_000)],
  ['resources/list page of 500, ~120 KB', { jsonrpc: '2.0', id: 9, result: { resources: Array.from({ length: 500 }, (_, i) => ({ uri: `schemabrain://musicbrainz/musicbrainz/table_${i}`, name: `musicbrainz.table_${i}`, title: `musicbrainz.table_${i} (musicbrainz)`, description: 'table with 12 columns, ~10,000 rows, referenced by 3 tables', mimeType: 'text/markdown' })) } }],
];

interface Row {
  message: string;
  bytes: number;
  storeP50Us: number;
  storeP99Us: number;
  iterations: number;
}

async function main(): Promise<void> {
  const machine = machineFacts();
  const rows: Row[] = [];
  for (const [name, msg] of MESSAGES) {
    const store = new SessionEventStore();
    for (let i = 0; i < 200; i++) await store.storeEvent('_GET_stream', msg); // warm-up
    const times: number[] = [];
    const n = JSON.stringify(msg).length > 50_000 ? N / 20 : N;
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      await store.storeEvent('_GET_stream', msg);
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    rows.push({ message: name, bytes: JSON.stringify(msg).length, storeP50Us: round(percentile(times, 50), 2), storeP99Us: round(percentile(times, 99), 2), iterations: n });
  }

  // A full buffer of small notifications, replayed from its oldest id (the worst case for a reconnect).
  const store = new SessionEventStore();
  let firstId = '';
  for (let i = 0; i < REPLAY_BUFFER_EVENTS; i++) {
    const id = await store.storeEvent('_GET_stream', MESSAGES[0]![1]);
    if (i === 0) firstId = id;
  }
  const replays: number[] = [];
  let sent = 0;
  for (let i = 0; i < (quick ? 50 : 500); i++) {
    sent = 0;
    const t0 = process.hrtime.bigint();
    await store.replayEventsAfter(firstId, { send: async () => void sent++ });
    replays.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }

  // Memory: the buffer under the largest message (the byte bound, not the count, is what stops it).
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const big = new SessionEventStore();
  const page = MESSAGES[3]![1];
  // Distinct objects, as real responses are (one shared object would make the heap figure meaningless).
  for (let i = 0; i < REPLAY_BUFFER_EVENTS; i++) await big.storeEvent('_GET_stream', structuredClone(page));
  global.gc?.();
  const heapMiB = round((process.memoryUsage().heapUsed - heap0) / 2 ** 20, 1);

  const loadEnd = loadAvg();
  const json = { machine: { ...machine, loadAvgEnd: loadEnd }, iterations: N, bounds: { events: REPLAY_BUFFER_EVENTS, bytes: REPLAY_BUFFER_BYTES }, store: rows, replay: { events: sent, p50Ms: round(percentile(replays, 50), 3), p99Ms: round(percentile(replays, 99), 3) }, largePages: { kept: big.size, heapMiB } };
  const md = `# Resumable Streamable HTTP streams (bench/mcp/resume.ts)

Machine: ${machine.nproc} cores (${machine.cpu}), ${machine.memGiB} GiB, node ${machine.node}; commit ${machine.commit} (+${machine.srcFilesModified} modified src files); load average ${machine.loadAvgStart.join(' ')} → ${loadEnd.join(' ')} (shared machine: p99 values mostly measure waiting for a core).

Every SSE event of an HTTP session is stored in a bounded per-session buffer (${REPLAY_BUFFER_EVENTS} events, ${REPLAY_BUFFER_BYTES / 2 ** 20} MiB) so a client that reconnects with \`Last-Event-ID\` gets what it missed. What that adds per event sent:

| message | bytes | stores timed | store p50 | store p99 |
| --- | ---: | ---: | ---: | ---: |
${rows.map((r) => `| ${r.message} | ${r.bytes} | ${r.iterations} | ${r.storeP50Us} µs | ${r.storeP99Us} µs |`).join('\n')}

The store serialises each message once to count its bytes (the transport serialises it again to write it), so its cost grows with the message: small beside a tool call, but for a 500-entry resources/list page it is a noticeable share of a warm list's server time (about 1 ms p50 in bench/results/mcp.md). Only HTTP sessions pay it; stdio sessions (the editor's) store nothing.

Replay of a full buffer (${sent} progress notifications after the oldest id): p50 ${json.replay.p50Ms} ms, p99 ${json.replay.p99Ms} ms.

Bound under large messages: ${REPLAY_BUFFER_EVENTS} resources/list pages of ${rows[3]!.bytes} bytes leave ${big.size} in the buffer (the byte bound counts JSON characters; the parsed objects take more), ${heapMiB} MiB of heap${global.gc ? '' : ' (without --expose-gc: an upper estimate)'}.
`;
  writeResults('mcp.resume', json, md);
  console.log(md);
}

void main();
