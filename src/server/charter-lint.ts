/**
 * Charter Principle 2 / enforcement level 1: each description leads with "Use this when", says when to use another
 * tool instead, names a composition with a sibling tool, and stays within 500 characters.
 */
export interface LintFinding {
  readonly tool: string;
  readonly rule: 'use_this_when' | 'instead_when' | 'composition' | 'max_length';
  readonly message: string;
}

export function lintDescription(tool: string, description: string, siblings: readonly string[]): LintFinding[] {
  const out: LintFinding[] = [];
  if (!description.startsWith('Use this when')) out.push({ tool, rule: 'use_this_when', message: 'must start with "Use this when"' });
  if (!/\binstead when\b|Don't use when|\binstead\b/.test(description)) out.push({ tool, rule: 'instead_when', message: 'must say when to use another tool instead' });
  const others = siblings.filter((s) => s !== tool);
  const named = others.filter((s) => new RegExp(`\\b${s}\\b`).test(description));
  if (named.length === 0 || !/Composition|→/.test(description)) out.push({ tool, rule: 'composition', message: 'must name at least one composition with a sibling tool' });
  if (description.length > 500) out.push({ tool, rule: 'max_length', message: `is ${description.length} characters; the limit is 500` });
  return out;
}
