/**
 * A compact map of a catalog's areas, for answers where the question matched nothing well: clusters of tables
 * around their most connected entity, each with a one-line summary, so that an agent can browse instead of
 * stopping. Computed from the FK graph and table roles only; cached per index and filter.
 */
import { isMirror, type IndexData } from './build';
import type { SchemaArea } from './types';

const MAX_AREAS = 12;
const EXAMPLES = 5;

/**
 * Greedy hub clustering: entity tables in order of FK degree claim their unclaimed FK neighbours (and the lookups,
 * junctions and auxiliary tables next to those); schemas name the area when a catalog has several. Tables left over
 * form one "other" area. Deterministic: ties break on the index's name order.
 */
export function schemaAreas(data: IndexData, allowed: (d: number) => boolean): SchemaArea[] {
  const n = data.docs.length;
  const members: number[] = [];
  // A mirror view repeats the relation it renames: it is no area's member.
  for (let d = 0; d < n; d++) if (allowed(d) && !isMirror(data.docs[d]!)) members.push(d);
  if (members.length === 0) return [];
  const degree = (d: number): number => data.edges[d]!.length;
  const hubs = members
    .filter((d) => data.docs[d]!.role === 'entity')
    .sort((a, b) => degree(b) - degree(a) || data.order[a]! - data.order[b]!);
  const owner = new Map<number, number>();
  const groups: Array<{ hub: number; tables: number[] }> = [];
  for (const hub of hubs) {
    if (owner.has(hub)) continue;
    const tables = [hub];
    owner.set(hub, hub);
    for (const e of data.edges[hub]!) {
      const p = e.to;
      if (owner.has(p) || !allowed(p)) continue;
      // Another strongly connected entity starts an area of its own.
      if (data.docs[p]!.role === 'entity' && degree(p) > degree(hub) / 2 && degree(p) >= 4) continue;
      owner.set(p, hub);
      tables.push(p);
    }
    groups.push({ hub, tables });
  }
  const rest = members.filter((d) => !owner.has(d));
  groups.sort((a, b) => b.tables.length - a.tables.length || data.order[a.hub]! - data.order[b.hub]!);
  const kept = groups.slice(0, MAX_AREAS - (rest.length > 0 || groups.length > MAX_AREAS ? 1 : 0));
  const other = [...rest, ...groups.slice(kept.length).flatMap((g) => g.tables)];
  const multiSchema = new Set(members.map((d) => `${data.docs[d]!.source}.${data.docs[d]!.schema}`)).size > 1;
  const out: SchemaArea[] = kept.map(({ hub, tables }) => {
    const h = data.docs[hub]!;
    const ordered = [hub, ...tables.filter((t) => t !== hub).sort((a, b) => degree(b) - degree(a) || data.order[a]! - data.order[b]!)];
    const roles = countRoles(data, tables);
    return {
      name: multiSchema ? `${h.schema}.${h.name}` : h.name,
      sourceName: h.source,
      tables: tables.length,
      summary: `${tables.length} table${tables.length === 1 ? '' : 's'} around ${h.qualifiedName}${h.table.comment ? ` (${h.table.comment.slice(0, 80)})` : ''}${roles}`,
      examples: ordered.slice(0, EXAMPLES).map((d) => data.docs[d]!.qualifiedName),
    };
  });
  if (other.length > 0) {
    out.push({
      name: 'other',
      sourceName: data.docs[other[0]!]!.source,
      tables: other.length,
      summary: `${other.length} further table${other.length === 1 ? '' : 's'} in smaller clusters`,
      examples: other
        .sort((a, b) => degree(b) - degree(a) || data.order[a]! - data.order[b]!)
        .slice(0, EXAMPLES)
        .map((d) => data.docs[d]!.qualifiedName),
    });
  }
  return out;
}

function countRoles(data: IndexData, tables: readonly number[]): string {
  const c = { lookup: 0, bridge: 0, auxiliary: 0 };
  for (const t of tables) {
    const r = data.docs[t]!.role;
    if (r !== 'entity') c[r]++;
  }
  const parts = [c.lookup ? `${c.lookup} lookup` : '', c.bridge ? `${c.bridge} junction` : '', c.auxiliary ? `${c.auxiliary} history/alias` : ''].filter((p) => p.length > 0);
  return parts.length > 0 ? `; ${parts.join(', ')}` : '';
}
