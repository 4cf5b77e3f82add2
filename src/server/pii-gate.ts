import { CATASTROPHIC_PII, PII_CATEGORIES } from '../core/envelope';
import type { PiiCategory } from '../core/envelope';
import type { PiiGate } from './deps';

/** The always-on floor (credential, payment_card, government_id) plus the operator's block list. */
export function createPiiGate(block: readonly PiiCategory[] = []): PiiGate {
  const blocked = new Set<PiiCategory>([...CATASTROPHIC_PII, ...block]);
  return {
    blockedCategories(tag) {
      if (!tag) return [];
      return tag.categories.filter((c): c is PiiCategory => blocked.has(c as PiiCategory));
    },
  };
}

export function parsePiiCategories(csv: string): PiiCategory[] {
  const out: PiiCategory[] = [];
  for (const raw of csv.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!(PII_CATEGORIES as readonly string[]).includes(raw)) {
      throw new Error(`unknown PII category '${raw}'; valid categories: ${PII_CATEGORIES.join(', ')}`);
    }
    out.push(raw as PiiCategory);
  }
  return out;
}
