import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogView } from '../../core/catalog/view';
import { matchedNothing } from '../../core/search';
import type { ServerDeps } from '../deps';
import type { DerivedData } from '../derived';
import type { CatalogResources } from '../resources/catalog-resources';
import { matchNames, NameIndex } from './name-index';
import type { TableName } from './name-index';

/** The spec caps completion values at 100 per response. */
export const MAX_COMPLETIONS = 100;

/** The longest typed value completed: the bound of a qualified table name in the tools' arguments. */
export const MAX_NAME_CHARS = 512;

/** Shortest typed value that is also run through the table search. */
export const SEARCH_FROM_CHARS = 3;

/** What a prompt argument or template variable names. */
export type NameKind = 'source' | 'schema' | 'table' | 'column' | 'metric' | 'entity' | 'none';

const TEMPLATE_VARIABLES: Readonly<Record<string, NameKind>> = { source: 'source', schema: 'schema', table: 'table', column: 'column', metric: 'metric', entity: 'entity' };

type Params = CompleteRequest['params'];

/**
 * completion/complete for prompt arguments and resource-template variables. Table names come from a prefix index
 * and are ordered by the retrieval engine: tables find_relevant_tables ranks for the typed text first, then the
 * other prefix matches by how connected they are, then search hits that do not share the prefix ("song" → Track).
 */
export class Completer {
  private readonly indexes = new WeakMap<CatalogView, NameIndex>();

  constructor(
    private readonly deps: ServerDeps,
    private readonly derived: DerivedData,
    private readonly resources: CatalogResources,
    private readonly promptArgKind: (prompt: string, arg: string) => NameKind,
  ) {}

  nameIndex(view: CatalogView): NameIndex {
    let idx = this.indexes.get(view);
    if (!idx) {
      idx = new NameIndex(view);
      this.indexes.set(view, idx);
    }
    return idx;
  }

  async complete(params: Params): Promise<CompleteResult> {
    // No name the catalog or the definitions hold is longer than a tool's name argument takes: a longer typed value
    // completes to nothing, before any matching.
    if (params.argument.value.length > MAX_NAME_CHARS) return { completion: { values: [], total: 0, hasMore: false } };
    const kind = params.ref.type === 'ref/prompt' ? this.promptArgKind(params.ref.name, params.argument.name) : (TEMPLATE_VARIABLES[params.argument.name] ?? 'none');
    const values = await this.values(kind, params.argument.value, params.context?.arguments ?? {}, params.ref.type === 'ref/resource');
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
  }

  private async values(kind: NameKind, value: string, ctx: Record<string, string>, template: boolean): Promise<string[]> {
    if (kind === 'none') return [];
    const view = await this.resources.view();
    if (!view) return [];
    const source = ctx.source ? (view.sourceByName(ctx.source)?.name ?? ctx.source) : undefined;
    const idx = this.nameIndex(view);
    switch (kind) {
      case 'source':
        return matchNames(idx.sources, value);
      case 'schema':
        return matchNames(idx.schemasOf(source), value);
      case 'table': {
        const tables = this.rankTables(view, idx, value, { source, schema: template ? ctx.schema : undefined });
        // A template's {table} is the bare name (its {schema} is separate); a prompt argument takes 'schema.table'.
        return [...new Set(tables.map((t) => (template ? t.table : t.qualified)))];
      }
      case 'column':
        return this.columns(view, value, ctx, source);
      case 'metric':
      case 'entity': {
        const sm = await this.resources.semanticModel(view);
        if (!sm) return [];
        return matchNames(kind === 'metric' ? sm.model.metrics.keys() : sm.model.entities.keys(), value);
      }
    }
  }

  private rankTables(view: CatalogView, idx: NameIndex, value: string, filter: { source?: string; schema?: string }): TableName[] {
    const prefixed = idx.tablesWithPrefix(value, filter);
    // One or two letters say nothing the search could rank by; from three on, the table search orders the matches.
    if (value.trim().length < SEARCH_FROM_CHARS) return prefixed;
    const result = this.derived.searchIndex(view).search(value, { limit: 50, source: filter.source, schema: filter.schema });
    // The central tables offered when no word matched (or there was none) are a map for browsing, not completions.
    const hits = matchedNothing(result) ? [] : result.hits;
    const byKey = new Map(idx.tables.map((t) => [`${t.source}:${t.qualified}`, t]));
    const prefixSet = new Set(prefixed);
    const ranked = hits.map((h) => byKey.get(`${h.sourceName}:${h.qualifiedName}`)).filter((t): t is TableName => t !== undefined);
    const first = ranked.filter((t) => prefixSet.has(t));
    const firstSet = new Set(first);
    return [...first, ...prefixed.filter((t) => !firstSet.has(t)), ...ranked.filter((t) => !prefixSet.has(t))];
  }

  /** Column names of the table named in the context (or in a 'schema.table.col' value); PII-blocked names never offered. */
  private columns(view: CatalogView, value: string, ctx: Record<string, string>, source: string | undefined): string[] {
    let tableName: string | undefined;
    let partial = value;
    let prefix = '';
    if (ctx.table) tableName = ctx.schema ? `${ctx.schema}.${ctx.table}` : ctx.table;
    else {
      const cut = value.lastIndexOf('.');
      if (cut > 0) {
        tableName = value.slice(0, cut);
        partial = value.slice(cut + 1);
        prefix = `${tableName}.`;
      }
    }
    if (!tableName) return [];
    const res = view.resolveTable(tableName, source);
    if (!res.ok) return [];
    const visible = res.value.table.columns.filter((c) => this.deps.pii.blockedCategories(c.pii).length === 0).map((c) => c.name);
    return matchNames(visible, partial).map((c) => prefix + c);
  }
}
