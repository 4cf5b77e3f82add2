/**
 * Merges the column inventory with the hand labels into labelled-columns.jsonl. Run with
 * `npx tsx bench/pii/build-labels.ts`. Fails on a label that names a column missing from the inventory, so a
 * typo cannot silently turn a positive into `none`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PII_CATEGORIES, type PiiCategory } from '../../src/core/envelope/kinds';

const DIR = __dirname;

interface InventoryColumn {
  readonly source: string;
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  readonly dataType: string;
  readonly comment: string | null;
  readonly tableComment: string | null;
}

/** FNV-1a 32-bit: a stable split that does not depend on file order. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function splitOf(source: string, table: string): 'tune' | 'heldout' {
  return fnv1a(`${source}|${table}`) % 10 < 3 ? 'heldout' : 'tune';
}

function main(): void {
  const inventory = readFileSync(join(DIR, 'columns.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as InventoryColumn);
  const labels = new Map<string, PiiCategory[]>();
  const valid = new Set<string>(PII_CATEGORIES);
  for (const raw of readFileSync(join(DIR, 'labels-positive.txt'), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(\S+) ([^:]+): (.+)$/.exec(line);
    if (!m) throw new Error(`bad label line: ${line}`);
    for (const item of m[3]!.split(';')) {
      const [col, cats] = item.split('=').map((s) => s.trim());
      const list = cats!.split(',').map((c) => c.trim());
      for (const c of list) if (!valid.has(c)) throw new Error(`unknown category ${c} in: ${line}`);
      labels.set(`${m[1]}|${m[2]}|${col}`, list as PiiCategory[]);
    }
  }
  const used = new Set<string>();
  const rows = inventory.map((c) => {
    const key = `${c.source}|${c.table}|${c.column}`;
    const l = labels.get(key);
    if (l) used.add(key);
    return { ...c, labels: l ?? [], split: splitOf(c.source, c.table) };
  });
  const missing = [...labels.keys()].filter((k) => !used.has(k));
  if (missing.length > 0) throw new Error(`labels for columns not in the inventory: ${missing.join(', ')}`);
  writeFileSync(join(DIR, 'labelled-columns.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const pos = rows.filter((r) => r.labels.length > 0).length;
  const held = rows.filter((r) => r.split === 'heldout');
  process.stderr.write(`${rows.length} columns, ${pos} positive; held-out ${held.length} (${held.filter((r) => r.labels.length > 0).length} positive)\n`);
}

if (require.main === module) main();
