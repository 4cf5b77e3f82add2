import { firstFloorSecretAt } from '../pii/secrets';

/**
 * Sampled text as the indexer keeps it for classification. The database is asked for the first
 * `SAMPLE_SCAN_CHARS` characters of a value, and `SAMPLE_VALUE_CHARS` of them are kept: its start, or, when a floor
 * secret (a card, an SSN, a key, a token) sits further in, the stretch around it, so that a long note with a card
 * number at its end is classified as holding one. Memory stays bounded by the kept length.
 */
export const SAMPLE_VALUE_CHARS = 200;
export const SAMPLE_SCAN_CHARS = 4096;

export function keptSample(value: string): string {
  if (value.length <= SAMPLE_VALUE_CHARS) return value;
  const scanned = value.length > SAMPLE_SCAN_CHARS ? value.slice(0, SAMPLE_SCAN_CHARS) : value;
  const at = firstFloorSecretAt(scanned);
  if (at < 0 || at < SAMPLE_VALUE_CHARS - 60) return value.slice(0, SAMPLE_VALUE_CHARS);
  const from = Math.max(0, at - 20);
  return scanned.slice(from, from + SAMPLE_VALUE_CHARS);
}
