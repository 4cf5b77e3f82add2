/**
 * Propagation of PII tags to derived values (a metric, a join, a query's output): the MAX sensitivity and the
 * UNION of categories of every input column.
 *
 * Decision on empty input: `propagate([])` FAILS CLOSED. It returns {@link PROPAGATE_EMPTY_INPUT}, a sentinel tag
 * carrying the catastrophic categories and the signal `propagate:fail_closed`, which `isBlocked` treats as blocked
 * under every policy (even one that force-removed the floor). A caller that derived a value without knowing
 * which columns fed it must not be told "public" (the original's SF-002 returned `public` and failed open).
 */
import { CATASTROPHIC_PII, PII_CATEGORIES, type PiiCategory } from '../envelope/kinds';
import type { PiiTag } from '../catalog/model';

export type Sensitivity = PiiTag['sensitivity'];
export const SENSITIVITIES: readonly Sensitivity[] = ['public', 'internal', 'confidential', 'pii'];
const RANK: Readonly<Record<Sensitivity, number>> = { public: 0, internal: 1, confidential: 2, pii: 3 };

export function maxSensitivity(a: Sensitivity, b: Sensitivity): Sensitivity {
  return RANK[a] >= RANK[b] ? a : b;
}

export const FAIL_CLOSED_SIGNAL = 'propagate:fail_closed';

/**
 * Signals that decide whether a column is blocked by themselves, whatever its categories: what is derived from such a
 * column carries them on (a view, a generated column or a row type over a column the operator blocked by name is
 * blocked as that column is). `override:block` is policy.ts's OPERATOR_BLOCK_SIGNAL (named here, where the merge is).
 */
const BLOCKING_SIGNALS: readonly string[] = [FAIL_CLOSED_SIGNAL, 'override:block'];

export const PROPAGATE_EMPTY_INPUT: PiiTag = Object.freeze({
  categories: Object.freeze(PII_CATEGORIES.filter((c) => CATASTROPHIC_PII.has(c))),
  sensitivity: 'pii' as const,
  confidence: 0,
  signals: Object.freeze([FAIL_CLOSED_SIGNAL]),
  origin: 'classifier' as const,
});

/** The signals of `BLOCKING_SIGNALS` a tag carries, in that order (what a lineage fixed point must also compare). */
export function blockingSignals(tag: PiiTag | null | undefined): string {
  return tag ? BLOCKING_SIGNALS.filter((b) => tag.signals.includes(b)).join(',') : '';
}

/** True for the fail-closed sentinel (or anything propagated from it). */
export function isFailClosed(tag: PiiTag | null | undefined): boolean {
  return tag !== null && tag !== undefined && tag.signals.includes(FAIL_CLOSED_SIGNAL);
}

/**
 * Combines the tags of the input columns; `null` stands for an input column with no tag (public). The result's
 * confidence is the highest input confidence (the evidence that PII is present), its origin `override` only when
 * every tagged input was an operator override.
 */
export function propagate(tags: readonly (PiiTag | null | undefined)[]): PiiTag {
  if (tags.length === 0) return PROPAGATE_EMPTY_INPUT;
  const categories = new Set<string>();
  const signals = new Set<string>();
  let sensitivity: Sensitivity = 'public';
  let confidence = 0;
  let tagged = 0;
  let overrides = 0;
  for (const t of tags) {
    if (!t) continue;
    tagged++;
    if (t.origin === 'override') overrides++;
    for (const c of t.categories) categories.add(c);
    for (const b of BLOCKING_SIGNALS) if (t.signals.includes(b)) signals.add(b);
    sensitivity = maxSensitivity(sensitivity, t.sensitivity);
    confidence = Math.max(confidence, t.confidence);
  }
  signals.add(`propagate:${tagged}/${tags.length} inputs tagged`);
  const ordered = [...PII_CATEGORIES.filter((c: PiiCategory) => categories.has(c)), ...[...categories].filter((c) => !(PII_CATEGORIES as readonly string[]).includes(c)).sort()];
  return {
    categories: ordered,
    sensitivity,
    confidence: tagged === 0 ? 1 : confidence,
    signals: [...signals],
    origin: tagged > 0 && overrides === tagged ? 'override' : 'classifier',
  };
}
