import { z } from 'zod';
import { deriveConfidence, empty, success } from '../../core/envelope';
import type { Confidence } from '../../core/envelope';
import { flipCardinality } from '../../core/semantic';
import type { JoinDef, SemanticModel, Trust } from '../../core/semantic';
import { definitionReport, loadForTool, noDefinitions, resolveEntity, trustOut, trustSummary } from '../semantic-model';
import type { LoadedSemanticModel } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';

const input = z.strictObject({
  entity: z.string().min(1).max(200).optional().describe('Only joins that touch this entity.'),
  include_bridges: z.boolean().default(true).describe('Also list many-to-many bridges (default true).'),
  limit: z.number().int().min(1).max(500).default(200).describe('Maximum joins returned (1–500, default 200).'),
});

export interface Bridge extends Trust {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly junction: string;
  readonly legs: readonly [JoinDef, JoinDef];
}

/** A junction leg read from the junction outward: the junction must be the many side of a many-to-one. */
function legTarget(j: JoinDef, junction: string): string | null {
  if (j.from === j.to) return null;
  const outward = j.from === junction;
  const card = outward ? j.cardinality : flipCardinality(j.cardinality);
  return card === 'many_to_one' ? (outward ? j.to : j.from) : null;
}

/**
 * Many-to-many bridges: an entity whose identity is made of the key columns of two (or more) many-to-one joins is
 * a junction (Chinook's PlaylistTrack), and each pair of those joins relates the two far entities many-to-many.
 * An entity with its own surrogate identity (InvoiceLine) is a fact, not a junction, so it yields no bridge. The
 * bridge inherits the weakest leg's trust.
 */
export function junctionBridges(sm: LoadedSemanticModel): Bridge[] {
  const model: SemanticModel = sm.model;
  const out: Bridge[] = [];
  for (const e of model.entities.values()) {
    if (e.identity.length < 2) continue;
    const table = sm.catalog.table(e.table, e.source);
    const norm = (c: string): string => (table ? (sm.catalog.column(table, c)?.name ?? c) : c).toLowerCase();
    const legs = (model.joinsByEntity.get(e.name) ?? []).map((n) => model.joins.get(n)!).filter((j) => legTarget(j, e.name) !== null);
    const keyCols = new Set(legs.flatMap((j) => j.on.map((k) => norm(j.from === e.name ? k.from : k.to))));
    if (!e.identity.every((c) => keyCols.has(norm(c)))) continue;
    for (let i = 0; i < legs.length; i++) {
      for (let k = i + 1; k < legs.length; k++) {
        const [a, b] = [legs[i]!, legs[k]!];
        const from = legTarget(a, e.name)!;
        const to = legTarget(b, e.name)!;
        if (from === to) continue;
        const weak = deriveRank(a) <= deriveRank(b) ? a : b;
        out.push({ name: `${a.name}+${b.name}`, from, to, junction: e.name, legs: [a, b], origin: weak.origin, inferenceMethod: weak.inferenceMethod, validationState: weak.validationState });
      }
    }
  }
  return out;
}

const RANK: Record<Confidence, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };
function deriveRank(t: Trust): number {
  return RANK[deriveConfidence(t.inferenceMethod, t.validationState)];
}

export const listJoins = defineTool({
  name: 'list_joins',
  title: 'List canonical joins',
  description:
    'Use this when you need the curated joins between entities (keys, cardinality, trust) and many-to-many bridges. Use suggest_joins instead for raw tables, resolve_join for one pair. Composition: list_joins → get_metric(via=[…]).',
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const sm = await loadForTool(ctx);
    if ('status' in sm) return sm;
    if (sm.model.joins.size === 0) return noDefinitions(sm, 'joins', ['find_relevant_tables', 'suggest_joins']);
    if (args.entity !== undefined) {
      const e = resolveEntity(sm, args.entity, 'entity');
      if ('status' in e) return e;
    }
    const touches = (a: string, b: string): boolean => args.entity === undefined || a === args.entity || b === args.entity;
    const joins = [...sm.model.joins.values()].filter((j) => touches(j.from, j.to));
    const bridges = args.include_bridges ? junctionBridges(sm).filter((b) => touches(b.from, b.to) || b.junction === args.entity) : [];
    const total = joins.length + bridges.length;
    const shownJoins = joins.slice(0, args.limit);
    const shownBridges = bridges.slice(0, Math.max(0, args.limit - shownJoins.length));
    const data: Record<string, unknown> = {
      joins: shownJoins.map((j) => ({
        name: j.name,
        ...(j.description ? { description: j.description } : {}),
        from: j.from,
        to: j.to,
        on: j.on.map((k) => ({ from: k.from, to: k.to })),
        cardinality: j.cardinality,
        ...trustOut(j),
      })),
      ...(args.include_bridges
        ? {
            bridges: shownBridges.map((b) => ({
              name: b.name,
              from: b.from,
              to: b.to,
              cardinality: 'many_to_many',
              via_junction: b.junction,
              via_joins: b.legs.map((l) => l.name),
              ...trustOut(b),
            })),
          }
        : {}),
      total,
      ...(total > shownJoins.length + shownBridges.length ? { truncated: true } : {}),
      ...definitionReport(sm),
    };
    data.token_estimate = tokenEstimate(data);
    if (total === 0) return empty(data, { provenance: { source: 'schema' }, hints: ['list_joins', 'suggest_joins'] });
    const { confidence, provenance } = trustSummary([...shownJoins, ...shownBridges]);
    return success(data, { confidence, provenance, hints: ['resolve_join', 'get_metric'] });
  },
  summarize(env) {
    const d = env.data as { joins?: unknown[]; bridges?: unknown[] } | null;
    return { joins: d?.joins?.length ?? 0, bridges: d?.bridges?.length ?? 0 };
  },
});
