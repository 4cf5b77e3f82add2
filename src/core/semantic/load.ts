import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isMap, isPair, isScalar, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import type { z } from 'zod';
import type { InferenceMethod } from '../envelope/kinds';
import { fuzzyMatches } from '../envelope/fuzzy';
import { nonDirectoryInTheWay } from '../util/regular-file';
import type { SemanticCatalog } from './catalog';
import { allowedKeysAt, SemanticFileSchema } from './grammar';
import type { EntityYaml, JoinYaml, MetricYaml } from './grammar';
import { parseMeasureExpression } from './expression';
import { buildModel, TIME_GRAINS } from './types';
import type { Diagnostic, DiagnosticFix, EntityDef, FilterSpec, JoinDef, MetricDef, Origin, SemanticModel, Severity, TimeGrain } from './types';
import { validateModel } from './validate';

/**
 * Loads `.schemabrain/**\/*.yaml` into a `SemanticModel` plus editor diagnostics. A bad object is reported and
 * left out; the rest of the file still loads, so one typo does not hide every metric from the agent.
 */

export interface SourceFile {
  /** Path as it should appear in diagnostics (workspace-relative or absolute). */
  readonly path: string;
  readonly text: string;
}

export interface LoadResult {
  readonly model: SemanticModel;
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly string[];
}

/** Resolves a YAML path of one loaded file to a range; kept only for the duration of a load. */
export interface PositionIndex {
  locate(file: string, yamlPath: readonly (string | number)[], keyOnly?: boolean): Omit<Diagnostic, 'severity' | 'code' | 'message' | 'fix' | 'file'>;
}

interface ParsedFile {
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  readonly text: string;
}

export function loadSemanticSources(sources: readonly SourceFile[], catalog?: SemanticCatalog): LoadResult {
  const parsed = new Map<string, ParsedFile>();
  const diagnostics: Diagnostic[] = [];
  const entities: EntityDef[] = [];
  const joins: JoinDef[] = [];
  const metrics: MetricDef[] = [];
  const seen = { entities: new Map<string, string>(), joins: new Map<string, string>(), metrics: new Map<string, string>() };

  const positions: PositionIndex = {
    locate(file, yamlPath, keyOnly = false) {
      const pf = parsed.get(file);
      if (!pf) return { line: 1, col: 1, endLine: 1, endCol: 1 };
      return rangeOf(pf, yamlPath, keyOnly);
    },
  };
  const report = (file: string, yamlPath: readonly (string | number)[], severity: Severity, code: string, message: string, fix?: DiagnosticFix, keyOnly = false): void => {
    diagnostics.push({ file, ...positions.locate(file, yamlPath, keyOnly), severity, code, message, ...(fix ? { fix } : {}) });
  };

  for (const src of sources) {
    const lines = new LineCounter();
    // YAML 1.2 core schema: `on:` stays a string key, `yes`/`no` stay strings; duplicate keys are errors.
    const doc = parseDocument(src.text, { lineCounter: lines, version: '1.2', uniqueKeys: true, prettyErrors: false });
    parsed.set(src.path, { doc, lines, text: src.text });
    if (doc.errors.length > 0) {
      for (const e of doc.errors) {
        const [start, end] = e.pos;
        const a = lines.linePos(start);
        const b = lines.linePos(Math.max(end, start + 1));
        diagnostics.push({ file: src.path, line: a.line, col: a.col, endLine: b.line, endCol: b.col, severity: 'error', code: 'yaml_syntax', message: firstLine(e.message) });
      }
      continue;
    }
    let js: unknown;
    try {
      js = doc.toJS();
    } catch (e) {
      // Resolving aliases can throw (an alias bomb: "Excessive alias count"); the file is rejected like a syntax error.
      diagnostics.push({ file: src.path, line: 1, col: 1, endLine: 1, endCol: 2, severity: 'error', code: 'yaml_syntax', message: `not valid YAML: ${firstLine((e as Error).message)}` });
      continue;
    }
    if (js === null || js === undefined) {
      report(src.path, [], 'warning', 'empty_file', 'empty definitions file: add `version: 1` and entities, joins or metrics');
      continue;
    }
    const result = SemanticFileSchema.safeParse(js);
    const failed = new Set<string>();
    if (!result.success) {
      for (const issue of result.error.issues) {
        const p = issue.path.filter((x): x is string | number => typeof x !== 'symbol');
        if (p.length >= 2 && typeof p[1] === 'number') failed.add(`${String(p[0])}:${p[1]}`);
        // An unknown top-level key or a wrong version leaves the sections readable: their problems are reported too,
        // so one pass shows everything wrong with the file.
        else if (issue.code !== 'unrecognized_keys' && !(p.length === 1 && p[0] === 'version')) failed.add('*');
        reportIssue(src.path, p, issue, report, js);
      }
    }
    if (failed.has('*')) continue;
    const file = js as { entities?: EntityYaml[]; joins?: JoinYaml[]; metrics?: MetricYaml[] };
    const take = <T extends { name: string }>(section: 'entities' | 'joins' | 'metrics', items: T[] | undefined, map: (item: T, i: number) => void): void => {
      (items ?? []).forEach((item, i) => {
        if (failed.has(`${section}:${i}`)) return;
        const prev = seen[section].get(item.name);
        if (prev !== undefined) {
          report(src.path, [section, i, 'name'], 'error', 'duplicate_name', `duplicate ${section.slice(0, -1)} name '${item.name}' (first defined in ${prev})`);
          return;
        }
        seen[section].set(item.name, src.path);
        map(item, i);
      });
    };
    take('entities', file.entities, (e, i) => {
      const def = mapEntity(e, src.path, i);
      if (typeof def === 'string') report(src.path, ['entities', i, 'table'], 'error', 'malformed_table', def);
      else entities.push(def);
    });
    take('joins', file.joins, (j, i) => joins.push(mapJoin(j, src.path, i)));
    take('metrics', file.metrics, (m, i) => {
      const def = mapMetric(m, src.path, i);
      if ('error' in def) report(src.path, ['metrics', i, 'measure', 'expression'], 'error', 'invalid_expression', def.error);
      else metrics.push(def);
    });
  }

  const model = buildModel(entities, joins, metrics);
  const checked = validateModel(model, catalog, (loc, sev, code, message, fix, keyOnly) => {
    if (loc) report(loc.file, loc.path, sev, code, message, fix, keyOnly);
  });
  return { model: checked, diagnostics, files: sources.map((s) => s.path) };
}

/**
 * The definitions folder exists but cannot be listed: it (or a folder above it, such as the workspace) is a regular
 * file or a device, or it is not readable. Nothing can be loaded, so callers report it instead of an empty model.
 */
export class DefinitionsFolderError extends Error {
  constructor(
    readonly folder: string,
    message: string,
  ) {
    super(message);
    this.name = 'DefinitionsFolderError';
  }
}

/** One definitions file found by {@link listDefinitionFolder}, with what a cache needs to notice an edit. */
export interface DefinitionFileEntry {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface DefinitionFolderListing {
  /** Regular `*.yaml` / `*.yml` files under the folder, sorted by path. */
  readonly files: readonly DefinitionFileEntry[];
  /**
   * Entries named like definitions files that cannot be read as one (a directory called `metrics.yaml`, a device, a
   * dangling link, an unreadable subfolder), as error diagnostics: reported, never skipped silently.
   */
  readonly problems: readonly Diagnostic[];
}

const YAML_NAME = /\.ya?ml$/i;

function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

function entryProblem(file: string, code: string, message: string): Diagnostic {
  return { file, line: 1, col: 1, endLine: 1, endCol: 1, severity: 'error', code, message };
}

/**
 * Lists the definitions files under `dir` (recursively). A missing folder is an empty listing; a folder that is not
 * a directory or cannot be read throws {@link DefinitionsFolderError}; anything wrong below it is a problem in the
 * listing. Links to files are followed, links to folders are not (they could loop).
 */
export async function listDefinitionFolder(dir: string): Promise<DefinitionFolderListing> {
  const files: DefinitionFileEntry[] = [];
  const problems: Diagnostic[] = [];
  const walk = async (d: string, top: boolean): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch (e) {
      const code = errnoCode(e);
      // no folder lists nothing; a subfolder removed while it was listed is seen as it is by the next load
      if (code === 'ENOENT') return;
      if (code === 'ENOTDIR' && top) {
        const blocker = nonDirectoryInTheWay(d) ?? d;
        throw new DefinitionsFolderError(dir, blocker === d ? `definitions folder ${d} is not a directory` : `${blocker} is not a directory, so there is no definitions folder ${d}`);
      }
      if (top) throw new DefinitionsFolderError(dir, `definitions folder ${d} cannot be read (${code ?? (e as Error).message})`);
      problems.push(entryProblem(d, 'unreadable', `folder cannot be read (${code ?? (e as Error).message}); its definitions are not loaded`));
      return;
    }
    for (const ent of entries) {
      const full = path.join(d, ent.name);
      if (!YAML_NAME.test(ent.name)) {
        if (ent.isDirectory()) await walk(full, false);
        continue;
      }
      let st: import('node:fs').Stats;
      try {
        st = await fs.stat(full);
      } catch (e) {
        const code = errnoCode(e);
        if (code === 'ENOENT' && !ent.isSymbolicLink()) continue; // removed while it was listed
        problems.push(entryProblem(full, 'unreadable', `cannot be read (${code === 'ENOENT' ? 'a link to nothing' : (code ?? (e as Error).message)})`));
        continue;
      }
      if (st.isFile()) files.push({ path: full, size: st.size, mtimeMs: st.mtimeMs });
      else if (st.isDirectory()) problems.push(entryProblem(full, 'not_a_file', `is a directory, not a definitions file; its contents are not loaded (rename it, or make it a YAML file)`));
      else problems.push(entryProblem(full, 'not_a_file', 'is not a regular file (a device, pipe or socket); definitions files must be regular YAML files'));
    }
  };
  await walk(dir, true);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files, problems };
}

/**
 * Reads every `*.yaml` / `*.yml` under `dir` (recursively, sorted) and loads them. A missing folder is an empty model;
 * one that is not a directory throws {@link DefinitionsFolderError}. Entries that cannot be read, and files that
 * fail to read, are error diagnostics of the result.
 */
export async function loadSemanticFolder(dir: string, catalog?: SemanticCatalog): Promise<LoadResult> {
  const listing = await listDefinitionFolder(dir);
  const problems = [...listing.problems];
  const read = await Promise.all(
    listing.files.map(async (f) => {
      try {
        return { path: f.path, text: await fs.readFile(f.path, 'utf8') };
      } catch (e) {
        problems.push(entryProblem(f.path, 'unreadable', `cannot be read (${errnoCode(e) ?? (e as Error).message})`));
        return null;
      }
    }),
  );
  const sources = read.filter((s): s is SourceFile => s !== null);
  const result = loadSemanticSources(sources, catalog);
  if (problems.length === 0) return result;
  return { ...result, diagnostics: [...problems, ...result.diagnostics] };
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i >= 0 ? s.slice(0, i) : s;
}

function reportIssue(
  file: string,
  p: readonly (string | number)[],
  issue: z.core.$ZodIssue,
  report: (file: string, p: readonly (string | number)[], sev: Severity, code: string, msg: string, fix?: DiagnosticFix, keyOnly?: boolean) => void,
  root: unknown,
): void {
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeysAt(p);
    for (const key of issue.keys) {
      const best = fuzzyMatches(key, allowed, 1, 0.5)[0];
      const where = p.length === 0 ? 'at the top level' : `in ${describePath(p)}`;
      report(
        file,
        [...p, key],
        'error',
        'unknown_key',
        `unknown key '${key}' ${where}${best ? ` (did you mean '${best}'?)` : ''}; allowed: ${allowed.join(', ')}`,
        best ? { title: `Rename to '${best}'`, replacement: best } : undefined,
        true,
      );
    }
    return;
  }
  let message = issue.message;
  let fix: DiagnosticFix | undefined;
  if (issue.code === 'invalid_value' && 'values' in issue) {
    const values = issue.values.map(String);
    message = `${describePath(p)} must be one of: ${values.join(', ')}`;
    const got = valueAt(root, p);
    const best = got === undefined ? undefined : fuzzyMatches(got, values, 1, 0.4)[0];
    if (best) fix = { title: `Change to '${best}'`, replacement: best };
  } else if (issue.code === 'invalid_type') {
    message = `${describePath(p)}: ${issue.message.replace(/^Invalid input: /, '')}`;
  } else if (p.length > 0) {
    message = `${describePath(p)}: ${issue.message}`;
  }
  if (p.length === 1 && p[0] === 'version') message = 'version must be 1';
  report(file, p, 'error', 'schema', message, fix);
}

function valueAt(root: unknown, p: readonly (string | number)[]): string | undefined {
  let v: unknown = root;
  for (const step of p) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[step] : undefined;
  return typeof v === 'string' ? v : undefined;
}

function describePath(p: readonly (string | number)[]): string {
  if (p.length === 0) return 'the file';
  return p.map((x, i) => (typeof x === 'number' ? `[${x}]` : i === 0 ? x : `.${x}`)).join('');
}

function rangeOf(pf: ParsedFile, yamlPath: readonly (string | number)[], keyOnly: boolean): { line: number; col: number; endLine: number; endCol: number } {
  let node: unknown = pf.doc.contents;
  let keyNode: YamlNode | null = null;
  let lastGood: unknown = node;
  for (const step of yamlPath) {
    if (isMap(node)) {
      const pair = node.items.find((it: Pair) => isScalar(it.key) && it.key.value === step) as Pair<YamlNode, YamlNode> | undefined;
      if (!pair) break;
      keyNode = pair.key;
      node = pair.value;
    } else if (node && typeof node === 'object' && 'items' in node && Array.isArray((node as { items: unknown[] }).items) && typeof step === 'number') {
      keyNode = null;
      node = (node as { items: unknown[] }).items[step];
    } else break;
    lastGood = node ?? lastGood;
    if (node === null || node === undefined) {
      node = keyNode;
      break;
    }
  }
  const target = (keyOnly && keyNode ? keyNode : isPair(node) ? node.key : node) as YamlNode | null;
  const range = target?.range ?? (lastGood as YamlNode | null)?.range ?? [0, 0, 0];
  const start = range[0];
  let end = Math.max(range[1], start + 1);
  // A whole mapping would underline many lines; flag its first line instead.
  const nl = pf.text.indexOf('\n', start);
  if (isMap(target) && nl >= 0 && nl < end) end = nl;
  const a = pf.lines.linePos(start);
  const b = pf.lines.linePos(end);
  return { line: a.line, col: a.col, endLine: b.line, endCol: b.col };
}

function trustOf(y: { origin?: Origin | undefined; inference_method?: InferenceMethod | undefined; validation_state?: EntityDef['validationState'] | undefined }): Pick<EntityDef, 'origin' | 'inferenceMethod' | 'validationState'> {
  const origin = y.origin ?? 'manual';
  const inferenceMethod = y.inference_method ?? (origin === 'dbt_import' ? 'dbt_import' : 'manually_authored');
  return { origin, inferenceMethod, validationState: y.validation_state ?? 'applied' };
}

function mapEntity(e: EntityYaml, file: string, i: number): EntityDef | string {
  const dot = e.table.indexOf('.');
  if (dot <= 0 || dot === e.table.length - 1) return `table '${e.table}' must be written schema.table (e.g. public.${e.table} or main.${e.table})`;
  return {
    name: e.name,
    description: e.description ?? null,
    table: { schema: e.table.slice(0, dot), name: e.table.slice(dot + 1) },
    source: e.source ?? null,
    identity: e.identity === undefined ? [] : typeof e.identity === 'string' ? [e.identity] : [...e.identity],
    group: e.group ?? 'other',
    timeDimension: e.time_dimension ?? null,
    ...trustOf(e),
    location: { file, path: ['entities', i] },
  };
}

function mapJoin(j: JoinYaml, file: string, i: number): JoinDef {
  return {
    name: j.name,
    description: j.description ?? null,
    from: j.from,
    to: j.to,
    on: j.on.map((k) => ({ from: k.from, to: k.to })),
    cardinality: j.cardinality,
    ...trustOf(j),
    location: { file, path: ['joins', i] },
  };
}

function mapMetric(m: MetricYaml, file: string, i: number): MetricDef | { error: string } {
  let expressionAst = null;
  if (m.measure.expression !== undefined) {
    const parsed = parseMeasureExpression(m.measure.expression);
    if (!parsed.ok) return { error: `measure expression rejected at offset ${parsed.error.offset}: ${parsed.error.message}` };
    expressionAst = parsed.expr;
  }
  const grains = new Set<TimeGrain>(m.time_grains ?? []);
  return {
    name: m.name,
    description: m.description ?? null,
    entity: m.entity,
    measure: { agg: m.measure.agg, column: m.measure.column ?? null, expression: m.measure.expression ?? null, expressionAst },
    filters: (m.filters ?? []).map((f): FilterSpec => (f.value === undefined ? { column: f.column, op: f.op } : { column: f.column, op: f.op, value: f.value })),
    timeDimension: m.time_dimension ?? null,
    timeGrains: TIME_GRAINS.filter((g) => grains.has(g)),
    ...trustOf(m),
    location: { file, path: ['metrics', i] },
  };
}
