import type { Confidence, InferenceMethod, ProvenanceSource, ValidationState } from './kinds';

/** Charter §4 buckets: HIGH ≥ 0.8, MEDIUM 0.5–0.8, LOW < 0.5. */
export function confidenceFromScore(score: number): Confidence {
  if (score >= 0.8) return 'HIGH';
  if (score >= 0.5) return 'MEDIUM';
  return 'LOW';
}

const STRONG_METHODS: ReadonlySet<InferenceMethod> = new Set(['manually_authored', 'fk_constraint', 'dbt_import']);

/** Charter v1.2 2-D trust signal → 1-D bucket (reference §3.4). */
export function deriveConfidence(method: InferenceMethod, state: ValidationState): Confidence {
  if (state === 'confirmed') return 'HIGH';
  const strong = STRONG_METHODS.has(method);
  if (state === 'applied') return strong ? 'HIGH' : 'MEDIUM';
  return strong ? 'MEDIUM' : 'LOW';
}

export function provenanceSourceFor(method: InferenceMethod): ProvenanceSource {
  if (method === 'llm_suggested') return 'llm';
  if (method === 'observed_in_query_log' || method === 'name_inferred') return 'inferred';
  return 'schema';
}

const ORDER: Record<Confidence, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };

/** Weakest-link aggregation used by list tools and multi-edge results. */
export function weakest(values: readonly Confidence[]): Confidence | null {
  if (values.length === 0) return null;
  return values.reduce((a, b) => (ORDER[a] <= ORDER[b] ? a : b));
}

export function capAt(value: Confidence | null, cap: Confidence): Confidence | null {
  if (value === null) return null;
  return ORDER[value] > ORDER[cap] ? cap : value;
}
