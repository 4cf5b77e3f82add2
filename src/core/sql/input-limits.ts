import type { SqlToken } from './tokens';

/**
 * Input shapes refused before any parse or tree walk, for both dialects: a NUL byte (PostgreSQL's parser stops
 * reading at it, so what is checked would differ from what a driver sends), nesting deeper than any honest query
 * needs, and more set-operation arms than any honest query has. Refused as `invalid_input`, which `run_query`
 * reports as `invalid_argument`.
 */
export const MAX_NESTING = 256;
export const MAX_SET_OPERATIONS = 1000;

const SET_OPS = new Set(['union', 'intersect', 'except']);

export function hasNul(sql: string): boolean {
  return sql.includes('\u0000');
}

/** A message when the token stream is too deep or too wide, else null. */
export function inputShapeProblem(tokens: readonly SqlToken[]): string | null {
  let depth = 0;
  let maxDepth = 0;
  let setOps = 0;
  for (const t of tokens) {
    if (t.kind === 'comment' || t.kind === 'constant') continue;
    if (t.text === '(' || t.text === '[') {
      depth++;
      if (depth > maxDepth) maxDepth = depth;
    } else if (t.text === ')' || t.text === ']') depth--;
    else if (t.kind === 'keyword' && SET_OPS.has(t.text.toLowerCase())) setOps++;
  }
  if (maxDepth > MAX_NESTING) return `argument 'sql' nests parentheses/brackets ${maxDepth} deep; at most ${MAX_NESTING} levels are accepted — flatten the expression`;
  if (setOps >= MAX_SET_OPERATIONS) return `argument 'sql' has ${setOps + 1} set-operation arms; at most ${MAX_SET_OPERATIONS} are accepted — use VALUES or a table instead`;
  return null;
}
