import { CHARTER_VERSION, REFUSAL_KINDS } from './kinds';
import type { Confidence, DegradationReason, ErrorKind, InferenceMethod, PiiCategory, ValidationState } from './kinds';
import type { Envelope, Provenance, Recovery } from './schema';

/** Builders for the charter envelope. Tools never assemble envelopes by hand. */

export interface SuccessOptions {
  readonly confidence?: Confidence | null;
  readonly provenance?: Provenance | null;
  readonly hints?: readonly string[];
}

function hints(h: readonly string[] | undefined): string[] | null {
  return h && h.length > 0 ? h.slice(0, 3) : null;
}

/** Fields in wire order: status first, so a reader of the JSON sees the outcome before anything else. */
function envelope<T>(status: Envelope['status'], data: T | null, opts: SuccessOptions, error: Envelope['error'] = null, reason: DegradationReason | null = null): Envelope<T> {
  return {
    status,
    data,
    error,
    confidence: opts.confidence ?? null,
    provenance: opts.provenance ?? null,
    follow_up_hints: hints(opts.hints),
    degradation_reason: reason,
    charter_version: CHARTER_VERSION,
  };
}

export function success<T>(data: T, opts: SuccessOptions = {}): Envelope<T> {
  return envelope('success', data, opts);
}

export function empty<T>(data: T, opts: SuccessOptions = {}): Envelope<T> {
  return envelope('empty', data, opts);
}

/** Some data with caveats, e.g. rows cut at a cap (`truncated: true` lives in `data`). */
export function partial<T>(data: T, opts: SuccessOptions = {}): Envelope<T> {
  return envelope('partial', data, opts);
}

export function degraded<T>(data: T, reason: DegradationReason, opts: SuccessOptions = {}): Envelope<T> {
  return envelope('degraded', data, opts, null, reason);
}

export interface ErrorOptions {
  readonly recovery?: Recovery;
  readonly hints?: readonly string[];
  readonly piiCategories?: readonly PiiCategory[];
}

export function failure(kind: ErrorKind, message: string, opts: ErrorOptions = {}): Envelope<never> {
  const refusal = REFUSAL_KINDS.has(kind);
  const error = {
    kind,
    message,
    recovery: opts.recovery ?? {},
    ...(refusal && opts.piiCategories && opts.piiCategories.length > 0 ? { pii_categories: [...opts.piiCategories] } : {}),
  };
  return envelope<never>(refusal ? 'refused' : 'error', null, { hints: opts.hints }, error);
}

export function schemaProvenance(method: InferenceMethod | null = null, state: ValidationState | null = null): Provenance {
  const p: Provenance = { source: 'schema' };
  return method ? { ...p, inference_method: method, validation_state: state ?? 'applied' } : p;
}
