import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { formatName } from '../../core/catalog/names';
import type { CatalogView, TableEntry } from '../../core/catalog/view';
import type { Envelope } from '../../core/envelope';
import { compileMetric } from '../../core/semantic';
import type { MetricDef } from '../../core/semantic';
import type { ServerDeps } from '../deps';
import type { DerivedData } from '../derived';
import { SemanticModels } from '../semantic-model';
import type { LoadedSemanticModel } from '../semantic-model';
import type { CallTrace, ToolContext } from '../tool';
import { describeColumn } from '../tools/describe-column';
import { describeEntity } from '../tools/describe-entity';
import { describeTable } from '../tools/describe-table';
import { renderJson, renderTable } from './render';
import { entityUri, metricUri, parseResourceUri, sourceUri, tableUri } from './uri';

/** Resources per resources/list page: a 10,000-table catalog is 20 pages, each a few hundred KB. */
export const RESOURCE_PAGE_SIZE = 500;

/** JSON-RPC error code the spec gives "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

interface Listed {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: 'text/markdown' | 'application/json';
  readonly render: () => Promise<string>;
}

interface ViewCache {
  readonly tables: readonly Listed[];
  readonly texts: Map<string, string>;
  /** Items already reported as failing to render in this generation (one warning each). */
  readonly warned: Set<string>;
  semantic?: { readonly model: LoadedSemanticModel; readonly items: readonly Listed[] };
}

function clip(s: string, max = 200): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function encodeCursor(offset: number, generation: number): string {
  return Buffer.from(JSON.stringify({ o: offset, g: generation })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0) return v.o;
  } catch {
    // fall through
  }
  throw new McpError(ErrorCode.InvalidParams, `Invalid cursor '${cursor.slice(0, 80)}': pass the nextCursor of the previous resources/list page.`);
}

/**
 * The catalog as MCP resources. Texts come from the same tool handlers agents call (describe_table,
 * describe_column, describe_entity), so the PII policy that redacts a column in a tool response redacts it here too.
 * Listing and texts are cached per catalog generation; the semantic part per loaded model.
 */
export class CatalogResources {
  private readonly cache = new WeakMap<CatalogView, ViewCache>();
  private readonly semantic: SemanticModels;

  constructor(
    private readonly deps: ServerDeps,
    private readonly derived: DerivedData,
  ) {
    this.semantic = deps.semantic ?? new SemanticModels(deps.workspaceDir, deps.logger);
  }

  /** The current catalog view, or null while there is none (resources/list is then empty). */
  async view(): Promise<CatalogView | null> {
    const s = await this.deps.catalog.get();
    return s.state === 'ready' ? s.view : null;
  }

  async semanticModel(view: CatalogView): Promise<LoadedSemanticModel | null> {
    if (!this.deps.workspaceDir) return null;
    try {
      return await this.semantic.get(view);
    } catch (e) {
      this.deps.logger.warn(`semantic definitions could not be loaded: ${(e as Error).message}`);
      return null;
    }
  }

  toolContext(view: CatalogView): ToolContext {
    const trace: CallTrace = { piiCategories: [], sql: null, rowCount: null, truncated: false };
    return { catalog: view, deps: this.deps, derived: this.derived, signal: new AbortController().signal, trace };
  }

  private viewCache(view: CatalogView): ViewCache {
    let c = this.cache.get(view);
    if (!c) {
      c = { tables: this.tableItems(view), texts: new Map(), warned: new Set() };
      this.cache.set(view, c);
    }
    return c;
  }

  private tableItems(view: CatalogView): Listed[] {
    const out: Listed[] = [];
    for (const s of view.sources) {
      const tables = view.tablesOf(s.name);
      out.push({
        uri: sourceUri(s.name),
        name: s.name,
        title: `${s.name} (${s.engine} source)`,
        description: `Overview of the indexed ${s.engine} source '${s.name}': ${tables.length} tables and views by schema.`,
        mimeType: 'text/markdown',
        render: async () => this.renderSource(view, s.name),
      });
      for (const e of tables) out.push(this.tableItem(view, e));
    }
    return out;
  }

  private tableItem(view: CatalogView, e: TableEntry): Listed {
    const t = e.table;
    const rows = t.rowEstimate === null ? '' : `, ~${t.rowEstimate} rows`;
    return {
      uri: tableUri(e.source.name, t.schema, t.name),
      name: e.key,
      title: `${e.qualifiedName} (${e.source.name})`,
      description: t.comment ? clip(t.comment) : `${t.kind} with ${t.columns.length} columns${rows}`,
      mimeType: 'text/markdown',
      render: async () => this.renderTableText(view, e),
    };
  }

  private async semanticItems(view: CatalogView, cache: ViewCache): Promise<readonly Listed[]> {
    const sm = await this.semanticModel(view);
    if (!sm) return [];
    if (cache.semantic?.model === sm) return cache.semantic.items;
    const items: Listed[] = [];
    // A definition bound to a source this catalog does not hold (renamed, removed, or indexed in another home) has
    // nothing to read: it is left out of the list rather than listed as a dead end.
    const indexed = (src: string | undefined): src is string => src !== undefined && view.sourceByName(src) !== undefined;
    for (const e of sm.model.entities.values()) {
      const src = e.source ?? sm.sourcesOf(e)[0]?.name;
      if (!indexed(src)) continue;
      items.push({
        uri: entityUri(src, e.name),
        name: `entity:${e.name}`,
        title: `Entity ${e.name}`,
        description: e.description ? clip(e.description) : `Semantic entity on ${formatName(e.table.schema, e.table.name)}`,
        mimeType: 'application/json',
        render: async () => this.renderEntity(view, e.name, src),
      });
    }
    for (const m of sm.model.metrics.values()) {
      const src = this.metricSource(sm, m);
      if (!indexed(src)) continue;
      items.push({
        uri: metricUri(src, m.name),
        name: `metric:${m.name}`,
        title: `Metric ${m.name}`,
        description: m.description ? clip(m.description) : `${m.measure.agg} over entity ${m.entity}`,
        mimeType: 'text/markdown',
        render: async () => this.renderMetric(view, sm, m, src),
      });
    }
    cache.semantic = { model: sm, items };
    return items;
  }

  /** The source a metric's entity is bound to (its own, else the first that holds its table); undefined without the entity. */
  metricSource(sm: LoadedSemanticModel, m: MetricDef): string | undefined {
    const e = sm.model.entities.get(m.entity);
    if (!e) return undefined;
    return e.source ?? sm.sourcesOf(e)[0]?.name;
  }

  private warnOnce(cache: ViewCache, key: string, message: string): void {
    if (cache.warned.has(key)) return;
    cache.warned.add(key);
    this.deps.logger.warn(message);
  }

  private async text(cache: ViewCache, item: Listed): Promise<string> {
    let t = cache.texts.get(item.uri);
    if (t === undefined) {
      t = await item.render();
      cache.texts.set(item.uri, t);
    }
    return t;
  }

  async list(cursor?: string): Promise<{ resources: Resource[]; nextCursor?: string }> {
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    const view = await this.view();
    if (!view) return { resources: [] };
    const cache = this.viewCache(view);
    const all = [...cache.tables, ...(await this.semanticItems(view, cache))];
    const page = all.slice(offset, offset + RESOURCE_PAGE_SIZE);
    const resources: Resource[] = [];
    for (const item of page) {
      // One resource that cannot be rendered must not take the whole list down (a client shows nothing at all for a
      // failed resources/list): it is listed without a size, and reading it answers with its own error.
      let size: number | undefined;
      try {
        size = Buffer.byteLength(await this.text(cache, item));
      } catch (e) {
        this.warnOnce(cache, item.uri, `resource ${item.uri} could not be rendered: ${(e as Error).message}`);
      }
      resources.push({ uri: item.uri, name: item.name, title: item.title, description: item.description, mimeType: item.mimeType, ...(size === undefined ? {} : { size }) });
    }
    const next = offset + RESOURCE_PAGE_SIZE;
    return next < all.length ? { resources, nextCursor: encodeCursor(next, view.generation) } : { resources };
  }

  async read(uri: string): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string }> }> {
    const ref = parseResourceUri(uri);
    const notFound = (why: string): McpError => new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 300)} (${why})`, { uri });
    if (!ref) throw notFound("not a schemabrain:// catalog URI; list them with resources/list or fill a template from resources/templates/list");
    const view = await this.view();
    if (!view) throw notFound('no catalog is indexed yet');
    const source = view.sourceByName(ref.source);
    if (!source) throw notFound(`source '${ref.source}' is not indexed`);
    const cache = this.viewCache(view);
    const reply = (mimeType: string, text: string) => ({ contents: [{ uri, mimeType, text }] });
    switch (ref.kind) {
      case 'source':
        return reply('text/markdown', this.renderSource(view, source.name));
      case 'table': {
        const e = view.lookup(source.name, ref.schema, ref.table);
        if (!e) throw notFound(`no table ${formatName(ref.schema, ref.table)} in source '${source.name}'`);
        return reply('text/markdown', await this.text(cache, this.tableItem(view, e)));
      }
      case 'column': {
        const env = await describeColumn.handler({ qualified_name: formatName(ref.schema, ref.table, ref.column), source: source.name }, this.toolContext(view));
        if (env.status === 'error') throw notFound(env.error?.message ?? 'unknown column');
        return reply('application/json', renderJson(env));
      }
      case 'entity': {
        const text = await this.renderEntity(view, ref.name, source.name);
        return reply('application/json', text);
      }
      case 'metric': {
        const sm = await this.semanticModel(view);
        const m = sm?.model.metrics.get(ref.name);
        if (!sm || !m) throw notFound(`no metric '${ref.name}' is defined`);
        return reply('text/markdown', await this.renderMetric(view, sm, m, source.name));
      }
    }
  }

  /** URIs of the tables whose structure differs between two generations (fingerprints), and whether the list changed. */
  static diff(before: CatalogView, after: CatalogView): { changed: string[]; listChanged: boolean } {
    const old = new Map(before.entries.map((e) => [e.key, e.table.fingerprint]));
    const changed: string[] = [];
    let listChanged = before.entries.length !== after.entries.length || before.sources.length !== after.sources.length;
    for (const e of after.entries) {
      const fp = old.get(e.key);
      if (fp === undefined) listChanged = true;
      else if (fp !== e.table.fingerprint) changed.push(tableUri(e.source.name, e.table.schema, e.table.name));
    }
    return { changed, listChanged };
  }

  private async renderTableText(view: CatalogView, e: TableEntry): Promise<string> {
    const env = await describeTable.handler({ qualified_name: formatName(e.table.schema, e.table.name), source: e.source.name, response_format: 'concise' }, this.toolContext(view));
    if (env.status === 'error') return `# ${e.qualifiedName}\n\n${env.error?.message ?? 'unavailable'}\n`;
    return renderTable(env, e.source.engine);
  }

  private renderSource(view: CatalogView, sourceName: string): string {
    const s = view.sourceByName(sourceName)!;
    const bySchema = new Map<string, number>();
    for (const e of view.tablesOf(s.name)) bySchema.set(e.table.schema, (bySchema.get(e.table.schema) ?? 0) + 1);
    const lines = [`# Source ${s.name}`, `${s.engine} database ${s.database}, indexed ${s.indexedAt}`, '', '## Schemas'];
    for (const [schema, n] of [...bySchema].sort((a, b) => b[1] - a[1]).slice(0, 200)) lines.push(`- ${schema}: ${n} tables/views`);
    if (bySchema.size > 200) lines.push(`- … ${bySchema.size - 200} more schemas`);
    lines.push('', `Read a table as ${tableUri(s.name, '<schema>', '<table>').replace(/%3C/g, '<').replace(/%3E/g, '>')}; find tables by meaning with the find_relevant_tables tool.`);
    return `${lines.join('\n')}\n`;
  }

  private async renderEntity(view: CatalogView, name: string, source: string): Promise<string> {
    const env: Envelope<unknown> = await describeEntity.handler({ name, source }, this.toolContext(view));
    if (env.status === 'error' || env.status === 'empty') throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${entityUri(source, name)} (${env.error?.message ?? 'no such entity'})`);
    return renderJson(env);
  }

  private async renderMetric(view: CatalogView, sm: LoadedSemanticModel, m: MetricDef, source: string): Promise<string> {
    const src = view.sourceByName(source);
    if (!src) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${metricUri(source, m.name)} (source '${source}' is not indexed)`);
    const lines = [`# Metric ${m.name}`];
    if (m.description) lines.push('', m.description.trim());
    const measure = m.measure.expression ? `${m.measure.agg}(${m.measure.expression})` : `${m.measure.agg}(${m.measure.column ?? '*'})`;
    lines.push('', `- entity: ${m.entity} (${entityUri(source, m.entity)})`, `- measure: ${measure}`);
    if (m.filters.length) lines.push(`- filters: ${m.filters.map((f) => `${f.column} ${f.op}${f.value === undefined || f.value === null ? '' : ` ${JSON.stringify(f.value)}`}`).join(' AND ')}`);
    if (m.timeDimension) lines.push(`- time dimension: ${m.timeDimension}${m.timeGrains.length ? ` (grains: ${m.timeGrains.join(', ')})` : ''}`);
    lines.push(`- trust: ${m.origin}, ${m.inferenceMethod}, ${m.validationState}`);
    const dialect = src.engine === 'postgres' ? 'postgres' : 'sqlite';
    const plan = compileMetric(sm.model, sm.catalogFor(src.name), { name: m.name }, dialect);
    if (!plan.ok) {
      lines.push('', `The metric does not compile on source ${src.name}: ${plan.message}`);
    } else {
      const catalog = sm.catalogFor(src.name);
      const blocked = plan.columnsRead.some((c) => {
        const e = sm.model.entities.get(c.entity);
        const t = e ? catalog.table(e.table, e.source) : undefined;
        const col = t ? catalog.column(t, c.column) : undefined;
        return this.deps.pii.blockedCategories(col?.pii ?? null).length > 0;
      });
      if (blocked) lines.push('', 'The compiled SQL is withheld: it reads columns the PII policy blocks.');
      else lines.push('', `## Compiled SQL (${dialect}, no breakdown)`, '```sql', plan.sql, '```');
    }
    lines.push('', `Run it with the get_metric tool: {"name": "${m.name}"} plus group_by, filters or time_grain.`);
    return `${lines.join('\n')}\n`;
  }
}
