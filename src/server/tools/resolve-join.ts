import { z } from 'zod';
import { deriveConfidence, failure, fuzzyMatches, success } from '../../core/envelope';
import type { Envelope } from '../../core/envelope';
import { q, shortestPaths } from '../../core/semantic';
import type { EntityDef, JoinDef } from '../../core/semantic';
import { definitionReport, entityEntry, loadForTool, noDefinitions, provenanceOf, resolveEntity, trustOut } from '../semantic-model';
import type { LoadedSemanticModel } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';
import type { ToolContext } from '../tool';
import { columnVisibility } from './common';
import { junctionBridges } from './list-joins';

const entityArg = z.string().min(1).max(200);

const input = z.strictObject({
  entity_a: entityArg.describe("First entity, e.g. 'invoice'."),
  entity_b: entityArg.describe("Second entity, e.g. 'customer' (order does not matter)."),
  name: z.string().min(1).max(200).optional().describe('Join name, when several link the pair.'),
});

function noJoin(sm: LoadedSemanticModel, ctx: ToolContext, a: EntityDef, b: EntityDef): Envelope<never> {
  const tables: string[] = [];
  for (const e of [a, b]) {
    const entry = entityEntry(ctx, sm, e);
    if (!('status' in entry)) tables.push(entry.qualifiedName);
  }
  const notes: string[] = [];
  const bridge = junctionBridges(sm).find((x) => (x.from === a.name && x.to === b.name) || (x.from === b.name && x.to === a.name));
  if (bridge) notes.push(`They are related many-to-many through the junction entity '${bridge.junction}' (joins ${bridge.legs.map((l) => l.name).join(' and ')}).`);
  else {
    const p = shortestPaths(sm.model, a.name, new Set()).pathTo(b.name);
    if (p.kind === 'ok') notes.push(`A chain of canonical joins connects them: ${p.steps.map((s) => s.join.name).join(' → ')}; get_metric follows such chains itself.`);
  }
  return failure('no_canonical_join', `No canonical join links '${a.name}' and '${b.name}' directly. ${notes.join(' ')}${notes.length ? ' ' : ''}suggest_joins finds foreign-key paths between their tables.`, {
    recovery: { suggested_tool: 'suggest_joins', suggested_args: tables.length === 2 ? { tables } : {} },
  });
}

export const resolveJoin = defineTool({
  name: 'resolve_join',
  title: 'Resolve the canonical join between two entities',
  description:
    'Use this when you must join two entities in SQL and want the curated join: keys, cardinality, trust, SQL skeleton. Use suggest_joins instead for raw tables. Composition: resolve_join → run_query.',
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const sm = await loadForTool(ctx);
    if ('status' in sm) return sm;
    if (sm.model.entities.size === 0) return noDefinitions(sm, 'joins', ['suggest_joins', 'find_relevant_tables'], { entity_a: args.entity_a, entity_b: args.entity_b });
    const a = resolveEntity(sm, args.entity_a, 'entity_a');
    if ('status' in a) return a;
    const b = resolveEntity(sm, args.entity_b, 'entity_b');
    if ('status' in b) return b;
    const pair = (j: JoinDef): boolean => (j.from === a.name && j.to === b.name) || (j.from === b.name && j.to === a.name);
    const candidates = [...sm.model.joins.values()].filter(pair).sort((x, y) => x.name.localeCompare(y.name));
    let join: JoinDef;
    if (args.name !== undefined) {
      const named = sm.model.joins.get(args.name);
      if (!named) {
        const skipped = sm.skipped.find((s) => s.kind === 'join' && s.name === args.name);
        if (skipped) {
          return failure('schema_drift', `Join '${args.name}' is defined${skipped.file ? ` in ${skipped.file}` : ''} but skipped: ${skipped.reason}. Fix the definition or re-index the source.`, {
            recovery: { suggested_tool: 'list_joins', suggested_args: {} },
          });
        }
        const fuzzy = fuzzyMatches(args.name, candidates.length ? candidates.map((j) => j.name) : sm.model.joins.keys());
        return failure('unknown_join_name', `Join '${args.name}' is not a canonical join.${candidates.length ? ` Joins between '${a.name}' and '${b.name}': ${candidates.map((j) => j.name).join(', ')}.` : ''}`, {
          recovery: candidates.length
            ? { suggested_tool: 'resolve_join', suggested_args: { entity_a: a.name, entity_b: b.name, name: candidates[0]!.name }, fuzzy_matches: fuzzy.length ? fuzzy : candidates.map((j) => j.name) }
            : { suggested_tool: 'list_joins', suggested_args: { entity: a.name }, fuzzy_matches: fuzzy },
        });
      }
      if (!pair(named)) {
        return failure('join_name_mismatch', `Join '${named.name}' links '${named.from}' and '${named.to}', not '${a.name}' and '${b.name}'.${candidates.length ? ` The pair's join${candidates.length > 1 ? 's are' : ' is'} ${candidates.map((j) => `'${j.name}'`).join(', ')}.` : ' No canonical join links that pair.'}`, {
          recovery: candidates.length
            ? { suggested_tool: 'resolve_join', suggested_args: { entity_a: a.name, entity_b: b.name, name: candidates[0]!.name }, fuzzy_matches: candidates.map((j) => j.name) }
            : { suggested_tool: 'resolve_join', suggested_args: { entity_a: named.from, entity_b: named.to, name: named.name } },
        });
      }
      join = named;
    } else if (candidates.length === 0) {
      return noJoin(sm, ctx, a, b);
    } else if (candidates.length > 1) {
      return failure('ambiguous_join', `${candidates.length} canonical joins link '${a.name}' and '${b.name}': ${candidates.map((j) => `${j.name} (${j.on.map((k) => `${j.from}.${k.from} = ${j.to}.${k.to}`).join(' AND ')})`).join('; ')}. Pass name to choose one.`, {
        recovery: { suggested_tool: 'resolve_join', suggested_args: { entity_a: a.name, entity_b: b.name, name: candidates[0]!.name }, fuzzy_matches: candidates.map((j) => j.name) },
      });
    } else join = candidates[0]!;

    const ea = entityEntry(ctx, sm, a);
    if ('status' in ea) return ea;
    const eb = entityEntry(ctx, sm, b);
    if ('status' in eb) return eb;
    const va = columnVisibility(ctx, ea);
    const vb = columnVisibility(ctx, eb);
    // Keys in the direction asked (entity_a → entity_b); the stored direction is kept in from/to/cardinality.
    const forward = join.from === a.name;
    const colOf = (entry: typeof ea, vis: typeof va, c: string): string => {
      const col = entry.table.columns.find((x) => x.name === c) ?? entry.table.columns.find((x) => x.name.toLowerCase() === c.toLowerCase());
      return vis.get(col?.name ?? c)?.displayName ?? c;
    };
    const keys = join.on.map((k) => ({ a: colOf(ea, va, forward ? k.from : k.to), b: colOf(eb, vb, forward ? k.to : k.from) }));
    const aliasA = a.name;
    const aliasB = b.name === a.name ? `${b.name}_2` : b.name;
    const tableSql = (entry: typeof ea): string => `${q(entry.table.schema)}.${q(entry.table.name)}`;
    const sqlSkeleton = `FROM ${tableSql(ea)} AS ${q(aliasA)}\nJOIN ${tableSql(eb)} AS ${q(aliasB)} ON ${keys.map((k) => `${q(aliasB)}.${q(k.b)} = ${q(aliasA)}.${q(k.a)}`).join(' AND ')}`;
    const data: Record<string, unknown> = {
      name: join.name,
      ...(join.description ? { description: join.description } : {}),
      from: join.from,
      to: join.to,
      cardinality: join.cardinality,
      on: join.on.map((k) => ({ from_column: colOf(forward ? ea : eb, forward ? va : vb, k.from), to_column: colOf(forward ? eb : ea, forward ? vb : va, k.to) })),
      tables: { [a.name]: ea.qualifiedName, [b.name]: eb.qualifiedName },
      sql_skeleton: sqlSkeleton,
      ...trustOut(join),
      ...definitionReport(sm, 'brief'),
    };
    data.token_estimate = tokenEstimate(data);
    return success(data, { confidence: deriveConfidence(join.inferenceMethod, join.validationState), provenance: provenanceOf(join), hints: ['run_query', 'get_metric', 'describe_entity'] });
  },
  summarize(env) {
    const d = env.data as { name?: string } | null;
    return { join: d?.name ?? '' };
  },
});
