import type { Logger } from '../util/logger';
import type { ResultSummary } from '../events/event';
import type { SpanSink } from './otel-sdk';

/** What one tool call contributes to its span. Arguments are deliberately absent: seed 002 keeps them off spans. */
export interface ToolCallSummary {
  readonly sessionId: string;
  readonly tool: string;
  readonly status: string;
  readonly errorKind?: string | null;
  readonly durationMs: number;
  readonly resultSummary?: ResultSummary;
  /** `gen_ai.tool.call.id`: the audit row hash (or fingerprint) when there is one. */
  readonly callId?: string;
  /** Wall-clock end of the call in epoch ms; defaults to now. */
  readonly endTimeMs?: number;
}

export interface Telemetry {
  /** False when OTLP is not configured: recordToolCall is a no-op and no OpenTelemetry module was loaded. */
  readonly enabled: boolean;
  /** Never throws; failures end up as a single stderr line. */
  recordToolCall(summary: ToolCallSummary): void;
  /** Exports what is buffered (tests, and before a short-lived process exits). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const NOOP: Telemetry = {
  enabled: false,
  recordToolCall() {},
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/**
 * The OTLP/HTTP traces URL from the standard variables, or undefined when tracing is off. The SDK itself reads the
 * remaining OTEL_* variables (headers, timeout, sampler, batch settings).
 * https://opentelemetry.io/docs/specs/otel/protocol/exporter/#endpoint-urls-for-otlphttp
 */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return undefined;
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base && !specific) return undefined;
  if (specific) return specific;
  return `${base!.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Optional OpenTelemetry: one `execute_tool` span per tool call, exported over OTLP/HTTP by a private tracer
 * provider (never registered globally, so a host's own provider is untouched). With no endpoint configured it
 * returns a no-op and the SDK modules are never loaded, so the server's cold start is unaffected; otherwise they
 * are loaded then, with a lazy require.
 */
export function createTelemetry(env: NodeJS.ProcessEnv, logger: Logger): Telemetry {
  const url = otlpTracesUrl(env);
  if (!url) return NOOP;
  let warned = false;
  const warnOnce = (msg: string): void => {
    if (warned) return;
    warned = true;
    logger.warn(`telemetry: ${msg}; further telemetry failures are not reported`);
  };
  let sink: SpanSink | null = null;
  try {
    // A lazy require rather than a static import: with tracing off these modules are never read from disk.
    const sdk = require('./otel-sdk') as typeof import('./otel-sdk');
    sink = sdk.createSpanSink(url, env, warnOnce);
  } catch (err) {
    warnOnce(`OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry SDK could not be loaded (${errorLabel(err)})`);
    return NOOP;
  }
  const live: SpanSink = sink;

  return {
    enabled: true,
    recordToolCall(summary: ToolCallSummary): void {
      try {
        live.record(summary);
      } catch (err) {
        warnOnce(`recording a span failed (${errorLabel(err)})`);
      }
    },
    async flush(): Promise<void> {
      await live.flush().catch((err: unknown) => warnOnce(`flushing spans failed (${errorLabel(err)})`));
    },
    async shutdown(): Promise<void> {
      await live.shutdown().catch((err: unknown) => warnOnce(`shutting down the exporter failed (${errorLabel(err)})`));
    },
  };
}
/** A code or class name, never a message: exporter messages can echo URLs or headers. */
export function errorLabel(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; name?: unknown };
    if (typeof e.code === 'string' || typeof e.code === 'number') return `${typeof e.name === 'string' ? `${e.name} ` : ''}${e.code}`;
    if (typeof e.name === 'string') return e.name;
  }
  return 'unknown error';
}
