import { z } from 'zod';
import { confidenceFromScore, empty, success } from '../../core/envelope';
import { matchedNothing, MAX_QUERY_CHARS, textTerms } from '../../core/search';
import { definitionReport, entityTableName, loadForTool, noDefinitions } from '../semantic-model';
import { defineTool, tokenEstimate } from '../tool';
import { scopeSource } from './common';

const input = z.strictObject({
  query: z.string().min(1).max(MAX_QUERY_CHARS).regex(/\S/, 'the query is blank: ask in words').describe("The question or keywords, e.g. 'revenue by music style'."),
  limit: z.number().int().min(1).max(50).default(10).describe('Maximum entities returned (1–50, default 10).'),
  source: z.string().min(1).max(200).optional().describe('Only entities in this indexed source.'),
});

/** How much of the score comes from the table's retrieval hit versus the entity's own name, description and metrics. */
const TABLE_WEIGHT = 0.6;

function terms(text: string): Map<string, string> {
  return new Map(textTerms(text.replace(/([a-z0-9])([A-Z])/g, '$1 $2')).map((t) => [t.term, t.surface]));
}

function stems(text: string): Set<string> {
  return new Set(terms(text).keys());
}

/** Exact stem, or an abbreviation in a name (`rep` for representative, `qty`-style prefixes of at least 3 letters). */
function hasTerm(terms: ReadonlySet<string>, t: string): boolean {
  if (terms.has(t)) return true;
  for (const u of terms) if (u.length >= 3 && t.length > u.length && t.startsWith(u)) return true;
  return false;
}

export const findRelevantEntities = defineTool({
  name: 'find_relevant_entities',
  title: 'Find entities for a question',
  description:
    "Use this when a question names business things ('sales by genre') and entities are defined: ranked entities with why. Use find_relevant_tables instead when none are defined or you need raw tables. Composition: find_relevant_entities → describe_entity → get_metric.",
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const sm = await loadForTool(ctx);
    if ('status' in sm) return sm;
    if (sm.model.entities.size === 0) return noDefinitions(sm, 'entities', ['find_relevant_tables'], { query: args.query });
    const scoped = scopeSource(ctx, 'find_relevant_entities', args);
    if (!scoped.ok) return scoped.envelope;
    const source = scoped.value;
    // The table index of the catalog (PII-blocked columns left out); entity words are matched here, per entity, so
    // several entities bound to one table (customer's support_rep and manager on Employee) rank apart.
    const index = ctx.derived.searchIndex(ctx.catalog);
    const result = index.search(args.query, { limit: Math.max(index.size, 1), source });
    // Central tables offered when no word matched, or there was none to match, are a browsing aid for
    // find_relevant_tables, not evidence for an entity.
    const tableHits = matchedNothing(result) ? [] : result.hits;
    const hitOf = new Map(tableHits.map((h) => [`${h.sourceName}\u0000${h.qualifiedName}`, h]));
    const queryTerms = terms(args.query);
    const queryStems = new Set(queryTerms.keys());
    const word = (t: string): string => `'${queryTerms.get(t) ?? t}'`;
    const metricsOf = new Map<string, string[]>();
    for (const m of sm.model.metrics.values()) metricsOf.set(m.entity, [...(metricsOf.get(m.entity) ?? []), m.name]);
    const multiSource = ctx.catalog.sources.length > 1;

    const scored = [];
    for (const e of sm.model.entities.values()) {
      const sources = e.source ? [e.source] : sm.sourcesOf(e).map((s) => s.name);
      const inSource = source ? sources.filter((s) => s === source) : sources;
      if (inSource.length === 0) continue;
      const table = sm.catalog.table(e.table, e.source);
      const hit = table ? inSource.map((s) => hitOf.get(`${s}\u0000${table.schema}.${table.name}`)).find((h) => h !== undefined) : undefined;
      const own = stems(`${e.name} ${e.description ?? ''}`);
      const metricWords = stems((metricsOf.get(e.name) ?? []).join(' '));
      const matched = [...queryStems].filter((t) => hasTerm(own, t));
      const viaMetric = [...queryStems].filter((t) => !hasTerm(own, t) && hasTerm(metricWords, t));
      const overlap = queryStems.size ? (matched.length + 0.5 * viaMetric.length) / queryStems.size : 0;
      const score = TABLE_WEIGHT * (hit?.score ?? 0) + (1 - TABLE_WEIGHT) * Math.min(1, overlap);
      if (score <= 0) continue;
      const why: string[] = [];
      if (matched.length) why.push(`entity name/description matches ${matched.map(word).join(', ')}`);
      if (viaMetric.length) why.push(`its metrics match ${viaMetric.map(word).join(', ')}`);
      if (hit) why.push(...hit.why.map((w) => `table: ${w}`));
      scored.push({ e, score, why, hit, source: inSource[0]! });
    }
    scored.sort((a, b) => b.score - a.score || a.e.name.localeCompare(b.e.name));
    const top = scored.slice(0, args.limit);
    const best = top[0]?.score ?? 0;
    const entities = top.map(({ e, score, why, hit, source: src }) => ({
      name: e.name,
      table: entityTableName(sm, e),
      ...(multiSource ? { source: src } : {}),
      // Relative to the best hit, like find_relevant_tables, scaled by the best hit's own strength.
      score: Math.round((score / best) * Math.min(1, best / TABLE_WEIGHT) * 100) / 100,
      why: why.slice(0, 3),
      ...(hit && hit.matchedColumns.length ? { columns: hit.matchedColumns.slice(0, 3) } : {}),
      ...(e.description ? { description: e.description } : {}),
      ...(metricsOf.get(e.name)?.length ? { metrics: metricsOf.get(e.name)!.slice(0, 5) } : {}),
    }));
    const data: Record<string, unknown> = { query: args.query, entities, total_matches: scored.length, ...(scored.length > top.length ? { truncated: true } : {}), ...definitionReport(sm, 'brief') };
    data.token_estimate = tokenEstimate(data);
    if (entities.length === 0) return empty(data, { provenance: { source: 'schema' }, hints: ['list_entities', 'find_relevant_tables'] });
    return success(data, { confidence: confidenceFromScore(entities[0]!.score), provenance: { source: 'schema' }, hints: ['describe_entity', 'list_metrics'] });
  },
  summarize(env) {
    const d = env.data as { entities?: unknown[] } | null;
    return { matches: d?.entities?.length ?? 0 };
  },
});
