import { createHash } from 'node:crypto';
import type { TableInfo } from '../catalog/model';

/**
 * Structural fingerprint of a table: sha256 over a canonical JSON of everything that describes its shape
 * (columns, types, nullability, defaults, keys, FKs, indexes, comments, checks, view text, partitions). Row
 * estimates, statistics and PII tags are left out on purpose, so a table whose data changed but whose structure did
 * not keeps its fingerprint and re-indexing can skip it.
 */
export const FINGERPRINT_VERSION = 'tfp-v1';

export function tableFingerprint(table: Omit<TableInfo, 'fingerprint'>): string {
  const byName = <T extends { readonly name: string }>(xs: readonly T[]): T[] => [...xs].sort((a, b) => cmp(a.name, b.name));
  const shape = {
    v: FINGERPRINT_VERSION,
    schema: table.schema,
    name: table.name,
    kind: table.kind,
    comment: table.comment,
    columns: [...table.columns]
      .sort((a, b) => a.ordinal - b.ordinal)
      .map((c) => ({
        name: c.name,
        ordinal: c.ordinal,
        dataType: c.dataType,
        isNullable: c.isNullable,
        defaultExpr: c.defaultExpr,
        isGenerated: c.isGenerated,
        isIdentity: c.isIdentity,
        comment: c.comment,
        enumLabels: c.enumLabels,
      })),
    primaryKey: table.primaryKey,
    uniqueConstraints: byName(table.uniqueConstraints),
    checkConstraints: byName(table.checkConstraints),
    foreignKeys: byName(table.foreignKeys),
    indexes: byName(table.indexes),
    partitions: [...table.partitions].sort(cmp),
    viewDefinition: table.viewDefinition,
  };
  return createHash('sha256').update(canonicalJson(shape), 'utf8').digest('hex');
}

/** JSON with object keys sorted at every level, so property order never changes the hash. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    let out = '{';
    let first = true;
    for (const k of sortedKeys(obj)) {
      const v = obj[k];
      if (v === undefined) continue;
      out += `${first ? '' : ','}${quotedKey(k)}:${canonicalJson(v)}`;
      first = false;
    }
    return `${out}}`;
  }
  return JSON.stringify(value);
}

// A catalog's objects come in a handful of shapes (a column, a key, an index): their sorted keys, and each key's JSON,
// are worked out once per shape, not once per object.
const keyOrders = new Map<string, readonly string[]>();
const quotedKeys = new Map<string, string>();

function sortedKeys(obj: Record<string, unknown>): readonly string[] {
  const keys = Object.keys(obj);
  const shape = keys.join('\u0000');
  let sorted = keyOrders.get(shape);
  if (sorted === undefined) {
    sorted = [...keys].sort(cmp);
    if (keyOrders.size < 1000) keyOrders.set(shape, sorted);
  }
  return sorted;
}

function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
