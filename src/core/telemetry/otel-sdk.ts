/**
 * The only module that imports the OpenTelemetry SDK; telemetry.ts requires it lazily, and only when
 * an OTLP endpoint is configured.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ToolCallSummary } from './telemetry';
import { errorLabel } from './telemetry';

export interface SpanSink {
  record(summary: ToolCallSummary): void;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Charter statuses that count as a successful call (seed 002's status mapping). */
const OK_STATUSES = new Set(['success', 'empty', 'partial', 'degraded']);

interface ExportResultLike {
  readonly code: number;
  readonly error?: Error;
}

/** Passes spans through and turns an export failure into the caller's single warning. */
class ReportingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly onFailure: (label: string) => void,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResultLike) => void): void {
    this.inner.export(spans, (result: ExportResultLike) => {
      // ExportResultCode.SUCCESS is 0: https://github.com/open-telemetry/opentelemetry-js/blob/main/packages/opentelemetry-core/src/ExportResult.ts
      if (result.code !== 0) this.onFailure(`exporting spans failed (${errorLabel(result.error)})`);
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush ? this.inner.forceFlush() : Promise.resolve();
  }
}

/** The span attributes for one call, per seed 002 and the GenAI semantic conventions (execute_tool). */
export function spanAttributes(s: ToolCallSummary): Attributes {
  const attrs: Attributes = {
    'gen_ai.system': 'schemabrain',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': s.tool,
    'schemabrain.session.id': s.sessionId,
    'schemabrain.status': s.status,
    'schemabrain.duration_ms': s.durationMs,
  };
  if (s.callId) attrs['gen_ai.tool.call.id'] = s.callId;
  if (s.errorKind) attrs['schemabrain.error_kind'] = s.errorKind;
  for (const [k, v] of Object.entries(s.resultSummary ?? {})) {
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') attrs[`schemabrain.result.${k}`] = v;
  }
  return attrs;
}

/**
 * Headers and timeout from the given environment (not necessarily process.env), per
 * https://opentelemetry.io/docs/languages/sdk-configuration/otlp-exporter/ — signal-specific variables win.
 */
export function exporterSettings(env: NodeJS.ProcessEnv): { headers: Record<string, string>; timeoutMillis?: number } {
  const headers: Record<string, string> = {};
  for (const raw of [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS]) {
    for (const pair of (raw ?? '').split(',')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      try {
        headers[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim());
      } catch {
        // a malformed escape: skip that header rather than fail the exporter
      }
    }
  }
  const timeout = Number(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT);
  return Number.isFinite(timeout) && timeout > 0 ? { headers, timeoutMillis: timeout } : { headers };
}

export function createSpanSink(url: string, env: NodeJS.ProcessEnv, warn: (msg: string) => void): SpanSink {
  // The JS OTLP/HTTP exporter speaks the JSON encoding (the protobuf one is a separate package).
  const exporter = new ReportingExporter(new OTLPTraceExporter({ url, ...exporterSettings(env) }), warn);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'schemabrain' }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('schemabrain');
  return {
    record(s: ToolCallSummary): void {
      const end = s.endTimeMs ?? Date.now();
      const start = end - Math.max(0, s.durationMs);
      // ROOT_CONTEXT: spans are orphans by design (no trace context crosses the stdio transport).
      const span = tracer.startSpan('execute_tool', { kind: SpanKind.INTERNAL, startTime: start, attributes: spanAttributes(s) }, ROOT_CONTEXT);
      if (OK_STATUSES.has(s.status)) span.setStatus({ code: SpanStatusCode.OK });
      else span.setStatus({ code: SpanStatusCode.ERROR, message: s.errorKind ?? s.status });
      span.end(end);
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
