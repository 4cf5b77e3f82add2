import { CHARTER_VERSION, REFUSAL_KINDS } from './kinds';
import type { Confidence, DegradationReason, ErrorKind, InferenceMethod, PiiCategory, ValidationState } from './kinds';
import type { Envelope, Provenance, Recovery } from './schema';

/** Builders for the charter envelope. Tools never assemble envelopes by hand. */

export interface SuccessOptions {
  readonly confidence?: Confidence | null;
  readonly provenance?: Provenance | null;
  readonly hints?: readonly string[];
}

function base(): Pick<Envelope, 'charter_version' | 'degradation_reason' | 'error' | 'confidence' | 'provenance' | 'follow_up_hints'> {
  return {
    charter_version: CHARTER_VERSION,
    degradation_reason: null,
    error: null,
    confidence: null,
    provenance: null,
    follow_up_hints: null,
  };
}

function hints(h: readonly string[] | undefined): string[] | null {
  return h && h.length > 0 ? h.slice(0, 3) : null;
}

export function success<T>(data: T, opts: SuccessOptions = {}): Envelope<T> {
  return {
    ...base(),
    status: 'success',
    data,
    confidence: opts.confidence ?? null,
    provenance: opts.provenance ?? null,
    follow_up_hints: hints(opts.hints),
  };
}

export function empty<T>(data: T, opts: SuccessOptions = {}): Envelope<T> {
  return { ...success(data, opts), status: 'empty' };
}

/** Some data with caveats, e.g. rows cut at a cap (`truncated: true` lives in `data`). */
export function partial<T>(data: T, opts: SuccessOptions = {}): Envelope<T> {
  return { ...success(data, opts), status: 'partial' };
}

export function degraded<T>(data: T, reason: DegradationReason, opts: SuccessOptions = {}): Envelope<T> {
  return { ...success(data, opts), status: 'degraded', degradation_reason: reason };
}

export interface ErrorOptions {
  readonly recovery?: Recovery;
  readonly hints?: readonly string[];
  readonly piiCategories?: readonly PiiCategory[];
}

export function failure(kind: ErrorKind, message: string, opts: ErrorOptions = {}): Envelope<never> {
  const refusal = REFUSAL_KINDS.has(kind);
  return {
    ...base(),
    status: refusal ? 'refused' : 'error',
    data: null,
    error: {
      kind,
      message,
      recovery: opts.recovery ?? {},
      ...(refusal && opts.piiCategories && opts.piiCategories.length > 0 ? { pii_categories: [...opts.piiCategories] } : {}),
    },
    follow_up_hints: hints(opts.hints),
  };
}

export function schemaProvenance(method: InferenceMethod | null = null, state: ValidationState | null = null): Provenance {
  const p: Provenance = { source: 'schema' };
  return method ? { ...p, inference_method: method, validation_state: state ?? 'applied' } : p;
}
