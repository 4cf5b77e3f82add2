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
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort(cmp);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
