import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { suggestFromCatalog, suggestionsToYaml } from '../../core/semantic/suggest';
import type { LoadResult } from '../../core/semantic/load';
import { workspaceDir, type SemanticDeps } from './deps';
import { DEFINITIONS_FOLDER } from './definition-diagnostics';
import { engineLabel } from '../connections/engines';
import { makeDirs } from '../../core/util/make-dirs';

export interface ApplySuggestionsArgs {
  /** Indexed source to suggest from (asked when several are indexed). */
  readonly source?: string;
}

export interface ApplySuggestionsResult {
  readonly source: string;
  /** Absolute paths written. */
  readonly written: readonly string[];
  /** Existing files left alone because the user kept them. */
  readonly kept: readonly string[];
  readonly entities: number;
  readonly joins: number;
  readonly metrics: number;
}

const OVERWRITE = 'Overwrite';
const KEEP = 'Keep existing files';

/** A file name part from a source name (`my db` → `my-db`). */
function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'source';
}

/** Names defined outside `except` (files about to be replaced must not push their own names aside). */
function namesOutside(loaded: LoadResult | undefined, except: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  if (!loaded) return out;
  const m = loaded.model;
  for (const d of [...m.entities.values(), ...m.joins.values(), ...m.metrics.values()]) {
    if (!d.location || !except.has(path.resolve(d.location.file))) out.add(d.name);
  }
  return out;
}

/** Binds suggested entities to the source they came from, so another source with the same tables cannot capture them. */
function bindSource(content: string, source: string): string {
  const doc = parseDocument(content);
  const entities = doc.get('entities') as { items?: unknown[] } | undefined;
  const n = entities?.items?.length ?? 0;
  for (let i = 0; i < n; i++) doc.setIn(['entities', i, 'source'], source);
  return doc.toString({ lineWidth: 0 });
}

/**
 * Apply Suggestions: suggests entities, joins and starter metrics from one indexed source's keys and foreign keys,
 * writes them as `suggested-<source>-{entities,joins,metrics}.yaml` in `.schemabrain/` (origin suggested,
 * validation_state draft), asks before replacing files that exist, and reloads the Metrics view.
 */
export async function applySuggestions(deps: SemanticDeps, args: ApplySuggestionsArgs = {}): Promise<ApplySuggestionsResult | undefined> {
  const ws = workspaceDir();
  if (!ws) {
    deps.notifier.notify('error', 'SchemaBrain: Apply Suggestions writes into .schemabrain/ of a workspace folder. Open a folder first.');
    return undefined;
  }
  const view = deps.catalogView();
  if (!view || view.isEmpty) {
    deps.notifier.notify('info', 'SchemaBrain: nothing is indexed yet, so there is nothing to suggest from. Index a connection first.');
    return undefined;
  }
  let source = args.source;
  if (source !== undefined && !view.sourceByName(source)) {
    deps.notifier.notify('error', `SchemaBrain: source '${source}' is not indexed. Indexed: ${view.sources.map((s) => s.name).join(', ')}.`);
    return undefined;
  }
  if (source === undefined) {
    if (view.sources.length === 1) source = view.sources[0]!.name;
    else {
      const pick = await deps.prompter().pick(
        view.sources.map((s) => ({ label: s.name, description: `${engineLabel(s.engine)} · ${s.tableCount} tables` })),
        { title: 'SchemaBrain: suggest definitions from which source?', ignoreFocusOut: true },
      );
      if (!pick) return undefined;
      source = pick.label;
    }
  }
  const dir = path.join(ws, DEFINITIONS_FOLDER);
  const prefix = `suggested-${slug(source)}`;
  const targets = new Set(['entities', 'joins', 'metrics'].map((k) => path.join(dir, `${prefix}-${k}.yaml`)));
  const loaded = deps.definitions() ?? (await deps.reloadDefinitions());
  const suggestions = suggestFromCatalog(
    view.tablesOf(source).map((e) => e.table),
    { existingNames: namesOutside(loaded, targets) },
  );
  const files = suggestionsToYaml(suggestions, { prefix }).map((f) => ({
    file: path.join(dir, f.path),
    content: view.sources.length > 1 ? bindSource(f.content, source!) : f.content,
  }));
  if (!files.length) {
    deps.notifier.notify('info', `SchemaBrain: '${source}' has no primary or unique keys to build entities from, so there is nothing to suggest.`);
    return { source, written: [], kept: [], entities: 0, joins: 0, metrics: 0 };
  }
  const existing = files.filter((f) => fs.existsSync(f.file));
  let overwrite = true;
  if (existing.length) {
    const answer = await deps.prompter().pick([{ label: OVERWRITE, description: 'replace them with fresh suggestions' }, { label: KEEP, description: 'write only the files that do not exist' }], {
      title: `SchemaBrain: ${existing.map((f) => path.basename(f.file)).join(', ')} already exist${existing.length === 1 ? 's' : ''} — overwrite?`,
      ignoreFocusOut: true,
    });
    if (!answer) return undefined;
    overwrite = answer.label === OVERWRITE;
  }
  makeDirs(dir);
  const written: string[] = [];
  const kept: string[] = [];
  for (const f of files) {
    if (!overwrite && existing.includes(f)) {
      kept.push(f.file);
      continue;
    }
    fs.writeFileSync(f.file, f.content);
    written.push(f.file);
  }
  await deps.reloadDefinitions();
  const counts = `${suggestions.entities.length} entities, ${suggestions.joins.length} joins, ${suggestions.metrics.length} metrics`;
  deps.notifier.notify(
    'info',
    written.length
      ? `SchemaBrain: wrote ${written.map((f) => path.basename(f)).join(', ')} (${counts}, draft). Review them, then set validation_state: applied.`
      : `SchemaBrain: kept the existing suggestion files; nothing written.`,
  );
  return { source, written, kept, entities: suggestions.entities.length, joins: suggestions.joins.length, metrics: suggestions.metrics.length };
}
