import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createTelemetry, otlpTracesUrl } from '../../../src/core/telemetry/telemetry';
import { captureLogger } from '../events/helpers';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpSpan {
  name: string;
  kind: number;
  parentSpanId?: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes: { key: string; value: OtlpValue }[];
  status: { code?: number; message?: string };
}

/** A loopback OTLP/HTTP receiver that keeps every JSON export request. */
async function receiver(): Promise<{ url: string; bodies: string[]; contentTypes: string[]; headers: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const headers: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        bodies.push(body);
        contentTypes.push(String(req.headers['content-type']));
        headers.push(String(req.headers['x-team']));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, contentTypes, headers, close: () => new Promise((r) => server.close(() => r())) };
}

function spansOf(bodies: readonly string[]): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const b of bodies) {
    const msg = JSON.parse(b) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
    for (const rs of msg.resourceSpans) for (const ss of rs.scopeSpans) out.push(...ss.spans);
  }
  return out;
}

function attrs(span: OtlpSpan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of span.attributes) {
    const v = a.value;
    out[a.key] = v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue;
  }
  return out;
}

describe('OpenTelemetry export', function () {
  this.timeout(30_000);

  it('sends one execute_tool span per call over OTLP/HTTP JSON with the seed 002 attributes and no arguments', async () => {
    const rx = await receiver();
    const logger = captureLogger();
    const t = createTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_EXPORTER_OTLP_HEADERS: 'x-team=data%20platform' }, logger);
    assert.equal(t.enabled, true);
    t.recordToolCall({ sessionId: 'sess-9', tool: 'describe_table', status: 'success', durationMs: 12.5, resultSummary: { columns: 7, truncated: false, fingerprint: 'ab12' }, callId: 'f'.repeat(64) });
    t.recordToolCall({ sessionId: 'sess-9', tool: 'get_metric', status: 'refused', errorKind: 'pii_blocked', durationMs: 2 });
    t.recordToolCall({ sessionId: 'sess-9', tool: 'run_query', status: 'partial', durationMs: 1 });
    await t.shutdown();
    await rx.close();
    assert.ok(rx.contentTypes.every((c) => c.startsWith('application/json')), rx.contentTypes.join());
    assert.ok(rx.headers.every((h) => h === 'data platform'), 'OTEL_EXPORTER_OTLP_HEADERS from the given environment');
    const spans = spansOf(rx.bodies);
    assert.equal(spans.length, 3);
    const [ok, refused, partial] = ['describe_table', 'get_metric', 'run_query'].map((n) => spans.find((s) => attrs(s)['gen_ai.tool.name'] === n)!);
    assert.equal(ok.name, 'execute_tool');
    assert.equal(ok.parentSpanId || undefined, undefined, 'an orphan span');
    assert.deepEqual(attrs(ok), {
      'gen_ai.system': 'schemabrain',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'describe_table',
      'gen_ai.tool.call.id': 'f'.repeat(64),
      'schemabrain.session.id': 'sess-9',
      'schemabrain.status': 'success',
      'schemabrain.duration_ms': 12.5,
      'schemabrain.result.columns': 7,
      'schemabrain.result.truncated': false,
      'schemabrain.result.fingerprint': 'ab12',
    });
    // Span status: OK = 1, ERROR = 2 (https://opentelemetry.io/docs/specs/otel/trace/api/#set-status)
    assert.equal(ok.status.code, 1);
    assert.equal(partial.status.code, 1);
    assert.equal(refused.status.code, 2);
    assert.equal(refused.status.message, 'pii_blocked');
    assert.equal(attrs(refused)['schemabrain.error_kind'], 'pii_blocked');
    const durationNs = Number(BigInt(ok.endTimeUnixNano) - BigInt(ok.startTimeUnixNano));
    assert.ok(Math.abs(durationNs - 12.5e6) < 1e6, `span lasts the call's duration (${durationNs} ns)`);
    for (const s of spans) assert.ok(!s.attributes.some((a) => /arg/i.test(a.key)), 'no argument attributes');
    assert.deepEqual(logger.lines, []);
  });

  it('reduces exporter failures to a single stderr line and never throws', async () => {
    const rx = await receiver();
    await rx.close(); // nothing listens on this port any more
    const logger = captureLogger();
    const t = createTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_EXPORTER_OTLP_TIMEOUT: '300' }, logger);
    for (let i = 0; i < 3; i++) {
      t.recordToolCall({ sessionId: 's', tool: 'describe_table', status: 'success', durationMs: 1 });
      await t.flush();
    }
    await t.shutdown();
    assert.equal(logger.lines.length, 1, logger.lines.join('\n'));
    assert.match(logger.lines[0], /^telemetry: exporting spans failed/);
  });

  it('derives the traces URL from the standard variables and is off without them', () => {
    assert.equal(otlpTracesUrl({}), undefined);
    assert.equal(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318/' }), 'http://h:4318/v1/traces');
    assert.equal(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/x' }), 'http://t/x');
    assert.equal(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318', OTEL_SDK_DISABLED: 'true' }), undefined);
    assert.equal(createTelemetry({}, captureLogger()).enabled, false);
  });

  it('loads no OpenTelemetry module at all when no endpoint is set', () => {
    const root = path.resolve(__dirname, '../../..');
    const script = `
      const { createTelemetry } = require('./src/core/telemetry/telemetry.ts');
      const t = createTelemetry({}, { debug() {}, info() {}, warn() {}, error() {} });
      t.recordToolCall({ sessionId: 's', tool: 'x', status: 'success', durationMs: 1 });
      const loaded = Object.keys(require.cache).filter((k) => k.includes('@opentelemetry'));
      process.stdout.write(JSON.stringify({ enabled: t.enabled, loaded: loaded.length }));
    `;
    const r = spawnSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: root, env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' } });
    assert.equal(r.status, 0, r.stderr.toString());
    assert.deepEqual(JSON.parse(r.stdout.toString()), { enabled: false, loaded: 0 });
  });
});
