import path from 'node:path';
import type { SourceInfo } from '../core/catalog/model';
import { formatName } from '../core/catalog/names';
import type { CatalogView, TableEntry } from '../core/catalog/view';
import { deriveConfidence, empty, failure, fuzzyMatches, provenanceSourceFor, weakest } from '../core/envelope';
import type { Confidence, Envelope, Provenance } from '../core/envelope';
import { buildModel, DefinitionsFolderError, listDefinitionFolder, loadSemanticFolder, NAME_PATTERN, semanticCatalog, validateModel } from '../core/semantic';
import type { DefinitionFolderListing, DefinitionLocation, EntityDef, JoinDef, LoadResult, MetricDef, SemanticCatalog, SemanticModel, Trust } from '../core/semantic';
import type { Logger } from '../core/util/logger';
import { tokenEstimate } from './tool';
import type { ToolContext } from './tool';
import type { ServerDeps } from './deps';

/**
 * The semantic model a server serves: `<workspace>/.schemabrain/**\/*.yaml` loaded against the catalog, cached per
 * catalog generation (one CatalogView per generation) and per the definition files' names, sizes and mtimes, so an
 * edit in the editor or a re-index is picked up on the next call and an unchanged workspace costs one `stat` per file.
 *
 * A definition with an error diagnostic (a column or table the catalog does not have, a broken identity) is left
 * out of what the tools serve, and so is anything that depends on it (a join to a skipped entity); both are listed
 * in `skipped` so an agent knows why a metric it expected is missing. `fullModel` keeps them so `get_metric` can
 * still answer a call on a skipped metric with the precise planner error (`unknown_measure_column`, `schema_drift`).
 */

export const SEMANTIC_FOLDER = '.schemabrain';

/** Error diagnostics reported at most, so a broken workspace cannot flood a response. */
const MAX_PROBLEMS = 50;

export type DefinitionKind = 'entity' | 'join' | 'metric';

export interface DefinitionProblem {
  /** Workspace-relative path of the file. */
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly code: string;
  readonly message: string;
}

export interface SkippedDefinition {
  readonly kind: DefinitionKind;
  readonly name: string;
  readonly file: string | null;
  readonly reason: string;
}

export interface LoadedSemanticModel {
  /** Absolute path of the definitions folder; null when the server has no workspace. */
  readonly folder: string | null;
  /**
   * Why the definitions folder could not be read at all (it, or the workspace, is not a directory, or it is not
   * readable); the model is then empty and the semantic tools answer this as an error. Null when it was read.
   */
  readonly unavailable: string | null;
  /** Workspace-relative definition files read. */
  readonly files: readonly string[];
  /** Definitions free of errors: what the tools list and compile. */
  readonly model: SemanticModel;
  /** Everything the loader kept, skipped definitions included. */
  readonly fullModel: SemanticModel;
  /** Error diagnostics of every file (syntax, grammar, references, catalog mismatches), capped. */
  readonly errors: readonly DefinitionProblem[];
  readonly errorCount: number;
  readonly warningCount: number;
  readonly skipped: readonly SkippedDefinition[];
  /** No definition at all, not even a skipped one. */
  readonly isEmpty: boolean;
  /** Tables of every indexed source (an entity without `source` binds to the first source that has its table). */
  readonly catalog: SemanticCatalog;
  /** Tables of one source only, for compiling and running a metric on that source. */
  catalogFor(source: string): SemanticCatalog;
  /** Sources whose catalog has the entity's table, in catalog order. */
  sourcesOf(entity: EntityDef): readonly SourceInfo[];
}

interface CacheEntry {
  readonly stamp: string;
  readonly loaded: LoadedSemanticModel;
}

export class SemanticModels {
  private readonly cache = new WeakMap<CatalogView, CacheEntry>();

  constructor(
    readonly workspaceDir: string | null,
    private readonly logger: Logger,
  ) {}

  get folder(): string | null {
    return this.workspaceDir ? path.join(this.workspaceDir, SEMANTIC_FOLDER) : null;
  }

  async get(view: CatalogView): Promise<LoadedSemanticModel> {
    const folder = this.folder;
    let stamp: string;
    try {
      stamp = folder ? stampOf(await listDefinitionFolder(folder)) : '';
    } catch (e) {
      if (!(e instanceof DefinitionsFolderError)) throw e;
      stamp = `\u0000unavailable\u0000${e.message}`;
    }
    const hit = this.cache.get(view);
    if (hit && hit.stamp === stamp) return hit.loaded;
    const started = performance.now();
    const loaded = await load(view, folder, this.workspaceDir);
    this.cache.set(view, { stamp, loaded });
    this.logger.debug(
      `semantic model loaded for catalog generation ${view.generation}: ${loaded.model.entities.size} entities, ${loaded.model.joins.size} joins, ${loaded.model.metrics.size} metrics, ${loaded.skipped.length} skipped, ${loaded.errorCount} errors (${Math.round(performance.now() - started)} ms)`,
    );
    return loaded;
  }
}

/** Names, sizes and mtimes of the files, and the entries that cannot be read: any change makes a new model. */
function stampOf(listing: DefinitionFolderListing): string {
  return [...listing.files.map((f) => `${f.path}\u0000${f.size}\u0000${f.mtimeMs}`), ...listing.problems.map((p) => `${p.file}\u0000${p.code}`)].join('\n');
}

const EMPTY_MODEL = buildModel([], [], []);

async function load(view: CatalogView, folder: string | null, workspaceDir: string | null): Promise<LoadedSemanticModel> {
  const bySource = view.sources.map((s) => ({ source: s.name, tables: view.tablesOf(s.name).map((e) => e.table) }));
  const catalog = semanticCatalog(bySource);
  const perSource = new Map<string, SemanticCatalog>();
  const catalogFor = (source: string): SemanticCatalog => {
    let c = perSource.get(source);
    if (!c) {
      c = semanticCatalog(view.tablesOf(source).map((e) => e.table));
      perSource.set(source, c);
    }
    return c;
  };
  const sourcesOf = (entity: EntityDef): readonly SourceInfo[] => view.sources.filter((s) => catalogFor(s.name).table(entity.table) !== undefined);
  const rel = (file: string): string => (workspaceDir ? path.relative(workspaceDir, file) : file);

  const nothing = (unavailable: string | null): LoadedSemanticModel => ({
    folder,
    unavailable,
    files: [],
    model: EMPTY_MODEL,
    fullModel: EMPTY_MODEL,
    errors: [],
    errorCount: 0,
    warningCount: 0,
    skipped: [],
    isEmpty: true,
    catalog,
    catalogFor,
    sourcesOf,
  });
  if (!folder) return nothing(null);
  let result: LoadResult;
  try {
    result = await loadSemanticFolder(folder, catalog);
  } catch (e) {
    if (e instanceof DefinitionsFolderError) return nothing(e.message);
    throw e;
  }
  const full = result.model;

  // The loader's diagnostics carry line/column only; a second pass of the (cheap) validator gives the YAML path of
  // each catalog-level error, which names the definition it belongs to.
  const badAt = new Map<string, string>();
  const key = (file: string, section: string | number | undefined, index: string | number | undefined): string => `${file}\u0000${String(section)}\u0000${String(index)}`;
  validateModel(full, catalog, (loc: DefinitionLocation | null, severity, _code, message) => {
    if (severity !== 'error' || !loc) return;
    const k = key(loc.file, loc.path[0], loc.path[1]);
    if (!badAt.has(k)) badAt.set(k, message);
  });
  const skipped: SkippedDefinition[] = [];
  const problemOf = (def: { location: DefinitionLocation | null }): string | undefined => (def.location ? badAt.get(key(def.location.file, def.location.path[0], def.location.path[1])) : undefined);
  const keep = <T extends EntityDef | JoinDef | MetricDef>(kind: DefinitionKind, defs: Iterable<T>): T[] =>
    [...defs].filter((d) => {
      const reason = problemOf(d);
      if (reason === undefined) return true;
      skipped.push({ kind, name: d.name, file: d.location ? rel(d.location.file) : null, reason });
      return false;
    });
  const kept = buildModel(keep('entity', full.entities.values()), keep('join', full.joins.values()), keep('metric', full.metrics.values()));
  // Dropping an entity drops what refers to it; the validator does that cascade (and reports nothing new otherwise).
  const model = validateModel(kept, catalog, () => undefined);
  const skippedEntities = new Set(skipped.filter((s) => s.kind === 'entity').map((s) => s.name));
  const missing = (names: readonly string[]): string => names.filter((n) => !model.entities.has(n)).map((n) => `'${n}'${skippedEntities.has(n) ? ' (skipped)' : ' (not defined)'}`).join(', ');
  for (const j of kept.joins.values()) {
    if (!model.joins.has(j.name)) skipped.push({ kind: 'join', name: j.name, file: j.location ? rel(j.location.file) : null, reason: `refers to entity ${missing([j.from, j.to])}` });
  }
  for (const m of kept.metrics.values()) {
    if (model.metrics.has(m.name)) continue;
    const refs = [m.entity, ...m.filters.map((f) => f.column.split('.')[0]!), ...(m.timeDimension?.includes('.') ? [m.timeDimension.split('.')[0]!] : [])];
    skipped.push({ kind: 'metric', name: m.name, file: m.location ? rel(m.location.file) : null, reason: `refers to entity ${missing([...new Set(refs)])}` });
  }

  const errorDiagnostics = result.diagnostics.filter((d) => d.severity === 'error');
  return {
    folder,
    unavailable: null,
    files: result.files.map(rel),
    model,
    fullModel: full,
    errors: errorDiagnostics.slice(0, MAX_PROBLEMS).map((d) => ({ file: rel(d.file), line: d.line, col: d.col, code: d.code, message: d.message })),
    errorCount: errorDiagnostics.length,
    warningCount: result.diagnostics.filter((d) => d.severity === 'warning').length,
    skipped,
    isEmpty: full.entities.size + full.joins.size + full.metrics.size === 0 && skipped.length === 0,
    catalog,
    catalogFor,
    sourcesOf,
  };
}

/**
 * What every semantic tool adds to `data` when definitions were skipped or files have errors, so the agent knows:
 * in full for the list tools, as names and a count elsewhere (list_entities / list_metrics give the details).
 */
export function definitionReport(sm: LoadedSemanticModel, detail: 'full' | 'brief' = 'full'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (detail === 'brief') {
    if (sm.skipped.length) out.skipped_definitions = sm.skipped.map((s) => `${s.kind} ${s.name}`);
    if (sm.errorCount) out.definition_errors_total = sm.errorCount;
    return out;
  }
  if (sm.skipped.length) out.skipped_definitions = sm.skipped;
  if (sm.errorCount) {
    out.definition_errors = sm.errors;
    if (sm.errorCount > sm.errors.length) out.definition_errors_total = sm.errorCount;
  }
  return out;
}

/** The server's semantic models; a server built without one (a bare test harness) loads per call, uncached. */
export function semanticModelsOf(deps: Pick<ServerDeps, 'semantic' | 'workspaceDir' | 'logger'>): SemanticModels {
  return deps.semantic ?? new SemanticModels(deps.workspaceDir, deps.logger);
}

/**
 * The model a semantic tool answers from, or the error it answers when the definitions folder cannot be read at all
 * (a workspace or `.schemabrain` that is a regular file, an unreadable folder): an empty answer would tell the agent
 * that nothing is defined, which is not known. The operator fixes the folder; the raw schema tools still answer.
 */
export async function loadForTool(ctx: ToolContext): Promise<LoadedSemanticModel | Envelope<never>> {
  const sm = await semanticModelsOf(ctx.deps).get(ctx.catalog);
  if (sm.unavailable === null) return sm;
  return failure('index_not_ready', `The semantic definitions cannot be loaded: ${sm.unavailable}. Definitions are YAML files in a ${SEMANTIC_FOLDER}/ folder of the workspace; fix the workspace or the folder. Meanwhile find_relevant_tables → describe_table → run_query answers from the raw schema.`, {
    recovery: { suggested_tool: 'find_relevant_tables', suggested_args: {} },
  });
}

/**
 * The answer of every semantic tool when nothing is defined: `empty`, never an error, with where definitions go
 * and what to use meanwhile.
 */
export function noDefinitions(sm: LoadedSemanticModel, what: 'entities' | 'joins' | 'metrics', hints: readonly string[], extra: Record<string, unknown> = {}): Envelope<unknown> {
  const where = sm.folder
    ? `No ${what} are defined: add entities, joins and metrics as YAML files under ${SEMANTIC_FOLDER}/ in the workspace${sm.errorCount ? ` (the files there have ${sm.errorCount} error(s), listed in definition_errors)` : ''}.`
    : `No semantic layer is loaded: the server has no workspace folder (start it with --workspace DIR or SCHEMABRAIN_WORKSPACE), so there are no ${what}.`;
  const data: Record<string, unknown> = { ...extra, [what]: [], message: `${where} Meanwhile find_relevant_tables → describe_table → run_query answers from the raw schema.`, ...definitionReport(sm) };
  data.token_estimate = tokenEstimate(data);
  return empty(data, { provenance: { source: 'schema' }, hints });
}

export interface TrustOut {
  readonly origin: Trust['origin'];
  readonly inference_method: Trust['inferenceMethod'];
  readonly validation_state: Trust['validationState'];
}

export function trustOut(t: Trust): TrustOut {
  return { origin: t.origin, inference_method: t.inferenceMethod, validation_state: t.validationState };
}

/** Weakest confidence over definitions, and the provenance of the weakest one. */
export function trustSummary(defs: readonly Trust[]): { confidence: Confidence | null; provenance: Provenance } {
  if (defs.length === 0) return { confidence: null, provenance: { source: 'schema' } };
  const conf = defs.map((d) => deriveConfidence(d.inferenceMethod, d.validationState));
  const min = weakest(conf)!;
  const w = defs[conf.indexOf(min)]!;
  return { confidence: min, provenance: provenanceOf(w) };
}

export function provenanceOf(t: Pick<Trust, 'inferenceMethod' | 'validationState'>): Provenance {
  return { source: provenanceSourceFor(t.inferenceMethod), inference_method: t.inferenceMethod, validation_state: t.validationState };
}

/** The entity's table as the catalog spells it (`main.Invoice`), or as written when the catalog lacks it. */
export function entityTableName(sm: LoadedSemanticModel, e: EntityDef): string {
  const t = sm.catalog.table(e.table, e.source);
  return t ? formatName(t.schema, t.name) : formatName(e.table.schema, e.table.name);
}

/**
 * Resolves an entity name for a tool argument: `malformed_name` and `unknown_name` recover to list_entities (with
 * close names); a skipped entity answers `schema_drift` with the reason it was skipped.
 */
export function resolveEntity(sm: LoadedSemanticModel, name: string, arg: string): EntityDef | Envelope<never> {
  const e = sm.model.entities.get(name);
  if (e) return e;
  const names = [...sm.model.entities.keys()];
  if (!NAME_PATTERN.test(name)) {
    const head = name.split('.')[0] ?? name;
    const guess = sm.model.entities.has(head) ? [head] : fuzzyMatches(name, names);
    return failure('malformed_name', `argument '${arg}' value '${name.slice(0, 100)}' is not an entity name (letters, digits and _, starting with a letter or _)${guess.length ? `; did you mean '${guess[0]}'?` : ''}. Call list_entities to see the entities.`, {
      recovery: { suggested_tool: 'list_entities', suggested_args: {}, fuzzy_matches: guess },
    });
  }
  const skipped = sm.skipped.find((s) => s.kind === 'entity' && s.name === name);
  if (skipped) {
    return failure('schema_drift', `Entity '${name}' is defined${skipped.file ? ` in ${skipped.file}` : ''} but skipped because its definition disagrees with the catalog: ${skipped.reason}. Fix the definition or re-index the source.`, {
      recovery: { suggested_tool: 'list_entities', suggested_args: {} },
    });
  }
  const fuzzy = fuzzyMatches(name, names);
  // Case slips are common (`Invoice` for `invoice`): offer the exact-case name first.
  const folded = names.filter((n) => n.toLowerCase() === name.toLowerCase());
  return failure('unknown_name', `Entity '${name}' is not defined.${fuzzy.length ? ` Closest: ${fuzzy.join(', ')}.` : ''} Call list_entities to see the entities.`, {
    recovery: { suggested_tool: 'list_entities', suggested_args: {}, fuzzy_matches: [...new Set([...folded, ...fuzzy])] },
  });
}

/** The catalog entry of the entity's table: in `source` when given, else in the entity's own or first source. */
export function entityEntry(ctx: ToolContext, sm: LoadedSemanticModel, e: EntityDef, source?: string): TableEntry | Envelope<never> {
  const candidates = source ? [source] : e.source ? [e.source] : sm.sourcesOf(e).map((s) => s.name);
  for (const name of candidates) {
    const src = ctx.catalog.sourceByName(name);
    if (!src) continue;
    const t = sm.catalogFor(src.name).table(e.table);
    const entry = t ? ctx.catalog.lookup(src.name, t.schema, t.name) : undefined;
    if (entry) return entry;
  }
  if (source && !ctx.catalog.sourceByName(source)) {
    return failure('unknown_name', `Source '${source}' is not indexed.`, {
      recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, fuzzy_matches: ctx.catalog.sources.map((s) => s.name) },
    });
  }
  return failure('schema_drift', `Entity '${e.name}' is bound to ${entityTableName(sm, e)}, which ${source ? `source '${source}'` : 'the catalog'} does not have. Re-index the source, or fix the entity definition.`, {
    recovery: { suggested_tool: 'get_index_status', suggested_args: {} },
  });
}
