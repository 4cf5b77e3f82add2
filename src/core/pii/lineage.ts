import type { ColumnInfo, PiiTag } from '../catalog/model';
import { propagate } from './propagate';

/**
 * A generated column is computed from other columns of its row (`ssn_last4 text GENERATED ALWAYS AS (right(ssn, 4))`,
 * a `tsvector` over a name and an SSN): it holds what they hold, under another name. Each generated column takes the
 * tags of the columns its expression names, merged with its own (`propagate`), so whatever blocks, masks or scrubs a
 * source column does the same to every column computed from it — in the catalog's statistics, in masking, in
 * profiles and in search.
 *
 * The expression is read for identifiers only; a word that merely looks like a column name (a string literal, a
 * function named like a column) adds that column's tags too, which can only block more. A generated column whose
 * expression the catalog does not hold (SQLite keeps it in the table's DDL only) takes the tags of every tagged
 * column of its table. Generated columns built on generated columns (MySQL allows it) are followed to a fixed point.
 */
export function withGeneratedLineage<C extends ColumnInfo>(columns: readonly C[]): readonly C[] {
  if (!columns.some((c) => c.isGenerated)) return columns;
  const byName = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  const sources: number[][] = columns.map((c, i) => {
    if (!c.isGenerated) return [];
    const expr = generationExpression(c.defaultExpr);
    if (expr === null) return columns.map((_, j) => j).filter((j) => j !== i);
    const out = new Set<number>();
    for (const word of identifiers(expr)) {
      const j = byName.get(word);
      if (j !== undefined && j !== i) out.add(j);
    }
    return [...out];
  });
  const tags: Array<PiiTag | null> = columns.map((c) => c.pii);
  for (let round = 0; round < columns.length; round++) {
    let moved = false;
    sources.forEach((from, i) => {
      const tagged = from.filter((j) => tags[j] !== null);
      if (tagged.length === 0) return;
      const merged = withSignal(propagate([tags[i], ...tagged.map((j) => tags[j])]), `generated_from:${tagged.map((j) => columns[j]!.name).join(',')}`);
      if (sameTag(tags[i], merged)) return;
      tags[i] = merged;
      moved = true;
    });
    if (!moved) break;
  }
  if (tags.every((t, i) => t === columns[i]!.pii)) return columns;
  return columns.map((c, i) => (tags[i] === c.pii ? c : { ...c, pii: tags[i] }));
}

/**
 * The expression of a generated column as introspection reports it: PostgreSQL gives the bare expression, MySQL
 * `GENERATED ALWAYS AS (expr) STORED`; null when there is none (SQLite).
 */
function generationExpression(defaultExpr: string | null): string | null {
  if (defaultExpr === null || defaultExpr.trim() === '') return null;
  return defaultExpr;
}

const IDENTIFIER = /"((?:[^"]|"")+)"|`((?:[^`]|``)+)`|\[([^\]]+)\]|([A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*)/g;

function identifiers(expr: string): Set<string> {
  const out = new Set<string>();
  for (const m of expr.matchAll(IDENTIFIER)) {
    const word = m[1]?.replace(/""/g, '"') ?? m[2]?.replace(/``/g, '`') ?? m[3] ?? m[4]!;
    out.add(word.toLowerCase());
  }
  return out;
}

function withSignal(tag: PiiTag, signal: string): PiiTag {
  return tag.signals.includes(signal) ? tag : { ...tag, signals: [...tag.signals.filter((s) => !s.startsWith('generated_from:')), signal] };
}

function sameTag(a: PiiTag | null, b: PiiTag): boolean {
  if (a === null) return false;
  return a.sensitivity === b.sensitivity && a.categories.length === b.categories.length && a.categories.every((c, i) => c === b.categories[i]) && a.signals.some((s) => s.startsWith('generated_from:'));
}
