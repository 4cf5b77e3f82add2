import { blockedCategories } from '../core/pii';
import type { PiiPolicy } from '../core/pii';
import type { PiiGate } from './deps';

/** The always-on floor (credential, payment_card, government_id) plus the operator's policy. */
export function createPiiGate(policy: PiiPolicy): PiiGate {
  return {
    blockedCategories: (tag) => (tag ? blockedCategories([tag], policy) : []),
  };
}
