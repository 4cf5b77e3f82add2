import { rawColumnRefs } from '../sql/projections';
import type { SqlGuard } from '../sql';
import { scrubText } from '../pii/redact';
import { replaceIdentifiers } from './normalize';
import type { ExampleQuery } from './types';

/**
 * Serving example queries for one table under the PII policy of the moment:
 * - a statement that would return raw values of a PII-blocked column (the column itself, MIN/MAX/ARRAY_AGG and
 *   friends over it, or `*` over a table that has one) is withheld — the same line run_query draws, so an example
 *   never shows an agent a query it would be refused;
 * - in every other statement, blocked column names are replaced by the placeholders describe_table shows, and
 *   anything shaped like a secret or a card number left in the text is scrubbed.
 */

export interface RelationRef {
  readonly schema: string;
  readonly name: string;
}

export interface ColumnGate {
  /** Real column name → placeholder, for the blocked columns of this relation. */
  readonly placeholders: ReadonlyMap<string, string>;
  /** Real column name → blocked categories. */
  readonly categories: ReadonlyMap<string, readonly string[]>;
}

export interface ServeInput {
  readonly queries: readonly ExampleQuery[];
  readonly target: RelationRef;
  /** Resolves a relation as written in a statement to the catalog relation, or undefined (not indexed). */
  readonly resolve: (written: string) => RelationRef | undefined;
  /** Blocked columns of a catalog relation. */
  readonly gate: (rel: RelationRef) => ColumnGate;
  readonly guard: SqlGuard;
  readonly limit: number;
}

export interface ServedQuery {
  readonly sql: string;
  readonly calls: number;
  readonly meanMs: number | null;
  readonly rows: number | null;
  readonly tables: readonly string[];
  /** True when blocked column names or values were replaced in the text. */
  readonly redacted: boolean;
}

export interface ServeResult {
  readonly queries: readonly ServedQuery[];
  /** Statements about the table that were withheld because they project a blocked column raw. */
  readonly withheld: number;
  readonly withheldCategories: readonly string[];
  /** Statements about the table before withholding and the limit. */
  readonly matched: number;
}

function same(a: RelationRef, b: RelationRef): boolean {
  return a.schema === b.schema && a.name === b.name;
}

function key(r: RelationRef): string {
  return `${r.schema}\u0000${r.name}`;
}

export function examplesForTable(input: ServeInput): ServeResult {
  const out: ServedQuery[] = [];
  let withheld = 0;
  let matched = 0;
  const withheldCats = new Set<string>();
  const sorted = [...input.queries].sort((a, b) => b.calls - a.calls || a.sql.localeCompare(b.sql));
  for (const q of sorted) {
    const rels = q.tables.map((t) => input.resolve(t));
    if (!rels.some((r) => r && same(r, input.target))) continue;
    const g = input.guard.guard(q.sql, 'postgres');
    if (!g.ok) continue;
    matched++;
    const known = rels.filter((r): r is RelationRef => !!r);
    const gates = new Map(known.map((r) => [key(r), { rel: r, gate: input.gate(r) }]));
    // Which relations an unqualified or alias-qualified column reference can belong to.
    const byQualifier = new Map<string, RelationRef>();
    for (const [alias, written] of Object.entries(g.aliases)) {
      const r = input.resolve(written);
      if (r) byQualifier.set(alias.replace(/"/g, '').toLowerCase(), r);
    }
    for (const r of known) byQualifier.set(r.name.toLowerCase(), r);
    const rawBlocked: string[] = [];
    for (const { qualifier, column: col } of rawColumnRefs(g)) {
      const candidates = qualifier ? [byQualifier.get(qualifier)].filter((r): r is RelationRef => !!r) : known;
      for (const r of candidates) {
        const gate = gates.get(key(r))?.gate ?? input.gate(r);
        for (const [name, cats] of gate.categories) {
          if (col === '*' || name.toLowerCase() === col.toLowerCase()) {
            rawBlocked.push(name);
            cats.forEach((c) => withheldCats.add(c));
          }
        }
      }
    }
    if (rawBlocked.length > 0) {
      withheld++;
      continue;
    }
    if (out.length >= input.limit) continue;
    const placeholders = new Map<string, string>();
    for (const { gate } of gates.values()) for (const [name, ph] of gate.placeholders) if (!placeholders.has(name)) placeholders.set(name, ph);
    const renamed = replaceIdentifiers(q.sql, placeholders);
    const sql = scrubText(renamed, { blockedColumns: [...placeholders.keys()] });
    out.push({ sql, calls: q.calls, meanMs: q.meanMs, rows: q.rows, tables: q.tables, redacted: sql !== q.sql });
  }
  return { queries: out, withheld, withheldCategories: [...withheldCats], matched };
}
