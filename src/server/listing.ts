import { STATUSES } from '../core/envelope';

/**
 * What tools/list costs an agent's context on every turn, kept small (budget: 4,000 o200k tokens for all tools,
 * measured in bench/). Descriptions keep their charter guidance; the schemas lose what only the server needs:
 *
 * - string and array length bounds and `additionalProperties: false`: the server validates every argument and
 *   answers a typed `invalid_argument` with the limit, so an agent learns them the one time they matter;
 * - the envelope's fields in every tool's outputSchema: each tool returns the same charter envelope, so the
 *   listing names only the required members; the statuses are in the server instructions, sent once.
 */

const DROPPED_KEYS = new Set(['minLength', 'maxLength', 'maxItems', 'additionalProperties', '$schema']);

export function compactInputSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactInputSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (DROPPED_KEYS.has(k) && (k !== 'additionalProperties' || v === false)) continue;
    // `properties` maps names to schemas: compact each value, keep every name.
    out[k] = k === 'properties' && v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([n, s]) => [n, compactInputSchema(s)])) : compactInputSchema(v);
  }
  return out;
}

/**
 * Every tool's outputSchema in tools/list: an object with the envelope's required members. The statuses to branch
 * on are named once, in the server instructions (see ENVELOPE_STATUSES_TEXT), not sixteen times here.
 */
export function listedEnvelopeSchema(): Record<string, unknown> {
  return { type: 'object', required: ['status', 'charter_version'] };
}

export const ENVELOPE_STATUSES_TEXT = STATUSES.join(', ');
