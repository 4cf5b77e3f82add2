/**
 * Index construction: one document per table, with BM25F fields, concept postings (WordNet + thesaurus), a value
 * index over low-cardinality text columns, and the FK graph.
 */
import type { ColumnInfo, TableInfo } from '../catalog/model';
import { loadLexicon, type Lexicon } from './lexicon';
import { identifierTerms, splitIdentifierRaw, textTerms, type Term } from './tokenize';
import type { BuildSearchIndexInput } from './types';

/** BM25F fields, in posting order. */
export const FIELDS = ['name', 'schema', 'column', 'comment', 'columnComment', 'semantic'] as const;
export type FieldName = (typeof FIELDS)[number];
export const F_NAME = 0;
export const F_SCHEMA = 1;
export const F_COLUMN = 2;
export const F_COMMENT = 3;
export const F_COLUMN_COMMENT = 4;
export const F_SEMANTIC = 5;

/** A posting list: doc ids ascending, and per doc one term frequency per field (flat, FIELDS.length per doc). */
export interface PostingList {
  readonly docs: number[];
  readonly tf: number[];
}

export interface ValueEntry {
  readonly d: number;
  readonly column: string;
  readonly value: string;
}

export interface EdgeData {
  readonly to: number;
  /** True when this table holds the FK columns. */
  readonly outgoing: boolean;
  readonly fromColumns: readonly string[];
  readonly toColumns: readonly string[];
  readonly constraint: string;
}

export interface DocData {
  readonly source: string;
  readonly schema: string;
  readonly name: string;
  readonly qualifiedName: string;
  /** Words of the table name as written (split, no expansions), for name coverage and explanations. */
  readonly nameWords: readonly string[];
  readonly table: TableInfo;
  /** Semantic-layer labels and their terms. */
  readonly semantic: ReadonlyArray<{ readonly label: string; readonly terms: readonly Term[] }>;
  /** A junction: at least two FKs to distinct tables and few other columns. */
  readonly isBridge: boolean;
}

export interface IndexData {
  readonly docs: DocData[];
  readonly fieldLen: Float64Array[];
  readonly avgLen: number[];
  readonly postings: Map<string, PostingList>;
  /** Concept id → the index terms of catalog words that carry it, with one surface word each. */
  readonly conceptTerms: Map<string, Map<string, string>>;
  readonly values: Map<string, ValueEntry[]>;
  readonly edges: EdgeData[][];
  readonly bridges: readonly number[];
  readonly lexicon: Lexicon;
  readonly vocab: Lexicon;
  /** Identifier → terms, shared by build and explanations. */
  readonly termCache: Map<string, Term[]>;
  readonly conceptCache: Map<string, readonly string[]>;
  /** Source/schema filter → membership bytes, filled on first use by rank.ts. */
  readonly filterMasks: Map<string, Uint8Array>;
}

export const NF = FIELDS.length;

/** Values longer than this are prose, not categories. */
const MAX_VALUE_LENGTH = 60;
/** Columns with more distinct values than this are not categorical. */
const MAX_VALUE_CARDINALITY = 500;

/** Fields whose words are looked up in the lexicon, with the weight a concept inherits from that field. */
const CONCEPT_FIELDS: ReadonlySet<number> = new Set([F_NAME, F_COLUMN, F_COMMENT, F_SEMANTIC]);

export function buildIndexData(input: BuildSearchIndexInput): IndexData {
  const lexicon = input.lexicon ?? loadLexicon();
  const vocab = catalogVocabulary(input, lexicon);
  const n = input.tables.length;
  const docs: DocData[] = [];
  const fieldLen: Float64Array[] = FIELDS.map(() => new Float64Array(n));
  const postings = new Map<string, PostingList>();
  const conceptTerms = new Map<string, Map<string, string>>();
  const conceptSeen = new Set<string>();
  const values = new Map<string, ValueEntry[]>();
  const byKey = new Map<string, number>();
  const termCache = new Map<string, Term[]>();
  const conceptCache = new Map<string, readonly string[]>();
  const idTerms = (name: string): Term[] => cachedTerms(termCache, vocab, name);
  const conceptsOf = (word: string): readonly string[] => cachedConcepts(conceptCache, lexicon, word);

  // Per-document scratch, reused: term -> slot, slot -> NF frequencies. Avoids one object per posting.
  const scratch = { terms: new Map<string, number>(), tf: [] as number[] };
  const bump = (map: Map<string, number>, arr: number[], key: string, f: number): void => {
    let slot = map.get(key);
    if (slot === undefined) {
      slot = map.size;
      map.set(key, slot);
      for (let i = 0; i < NF; i++) arr[slot * NF + i] = 0;
    }
    arr[slot * NF + f]! += 1;
  };
  const add = (d: number, f: number, terms: readonly Term[]): void => {
    for (const { term, surface } of terms) {
      bump(scratch.terms, scratch.tf, term, f);
      fieldLen[f]![d]! += 1;
      if (CONCEPT_FIELDS.has(f) && !conceptSeen.has(surface)) {
        // Concepts are resolved per distinct catalog word, not per table: the query side expands to these terms.
        conceptSeen.add(surface);
        for (const c of conceptsOf(surface)) {
          let words = conceptTerms.get(c);
          if (words === undefined) {
            words = new Map();
            conceptTerms.set(c, words);
          }
          if (!words.has(term)) words.set(term, surface);
        }
      }
    }
  };
  const flushDoc = (d: number): void => {
    flush(postings, scratch.terms, scratch.tf, d);
    scratch.terms.clear();
  };

  const semantic = semanticTerms(input, idTerms);
  input.tables.forEach(({ sourceName, table }, d) => {
    const qn = `${table.schema}.${table.name}`;
    byKey.set(`${sourceName}\u0000${qn}`, d);
    add(d, F_NAME, idTerms(table.name));
    add(d, F_SCHEMA, idTerms(table.schema));
    if (table.comment) add(d, F_COMMENT, textTerms(table.comment));
    for (const col of table.columns) {
      add(d, F_COLUMN, idTerms(col.name));
      if (col.comment) add(d, F_COLUMN_COMMENT, textTerms(col.comment));
      indexValues(values, d, col);
    }
    const sem = semantic.get(`${sourceName}\u0000${qn}`) ?? semantic.get(`\u0000${qn}`) ?? semantic.get(`\u0000${table.name}`) ?? [];
    for (const s of sem) add(d, F_SEMANTIC, s.terms);
    flushDoc(d);
    const fkTargets = new Set(table.foreignKeys.map((fk) => `${fk.targetSchema}.${fk.targetTable}`));
    const fkCols = new Set(table.foreignKeys.flatMap((fk) => fk.columns));
    const otherCols = table.columns.filter((c) => !fkCols.has(c.name)).length;
    docs.push({
      source: sourceName,
      schema: table.schema,
      name: table.name,
      qualifiedName: qn,
      nameWords: splitIdentifierRaw(table.name).filter((p) => !/^\d+$/.test(p)),
      table,
      semantic: sem,
      isBridge: fkTargets.size >= 2 && otherCols <= fkCols.size + 2,
    });
  });

  const edges = buildEdges(input.tables.map((t) => t.table), input.tables.map((t) => t.sourceName), byKey);
  const avgLen = fieldLen.map((fl) => (fl.length === 0 ? 1 : Math.max(1e-9, fl.reduce((a, b) => a + b, 0) / fl.length)));
  const bridges = docs.flatMap((doc, d) => (doc.isBridge ? [d] : []));
  return { docs, fieldLen, avgLen, postings, conceptTerms, values, edges, bridges, lexicon, vocab, termCache, conceptCache, filterMasks: new Map() };
}

export function cachedTerms(cache: Map<string, Term[]>, vocab: Lexicon, name: string): Term[] {
  let t = cache.get(name);
  if (t === undefined) {
    t = identifierTerms(name, vocab);
    cache.set(name, t);
  }
  return t;
}

export function cachedConcepts(cache: Map<string, readonly string[]>, lexicon: Lexicon, word: string): readonly string[] {
  let c = cache.get(word);
  if (c === undefined) {
    c = lexicon.concepts(word);
    cache.set(word, c);
  }
  return c;
}

function flush(target: Map<string, PostingList>, slots: Map<string, number>, tf: number[], d: number): void {
  for (const [term, slot] of slots) {
    let list = target.get(term);
    if (list === undefined) {
      list = { docs: [], tf: [] };
      target.set(term, list);
    }
    list.docs.push(d);
    for (let i = 0; i < NF; i++) list.tf.push(tf[slot * NF + i]!);
  }
}

/** Entity and metric words keyed by `source\0schema.table` (or `\0schema.table` / `\0table` when unscoped). */
function semanticTerms(input: BuildSearchIndexInput, idTerms: (name: string) => Term[]): Map<string, Array<{ label: string; terms: Term[] }>> {
  const out = new Map<string, Array<{ label: string; terms: Term[] }>>();
  const push = (k: string, label: string, terms: Term[]): void => {
    const list = out.get(k) ?? [];
    list.push({ label, terms });
    out.set(k, list);
  };
  const entityKey = new Map<string, string>();
  for (const e of input.entities ?? []) {
    const k = `${e.sourceName ?? ''}\u0000${e.table}`;
    entityKey.set(e.name, k);
    push(k, `entity '${e.name}'`, [...idTerms(e.name), ...(e.description ? textTerms(e.description) : [])]);
  }
  for (const m of input.metrics ?? []) {
    const k = entityKey.get(m.entity);
    if (k !== undefined) push(k, `metric '${m.name}'`, [...idTerms(m.name), ...(m.description ? textTerms(m.description) : [])]);
  }
  return out;
}

function indexValues(values: Map<string, ValueEntry[]>, d: number, col: ColumnInfo): void {
  if (col.pii !== null) return;
  const distinct = col.stats?.distinctEstimate ?? null;
  if (distinct !== null && distinct > MAX_VALUE_CARDINALITY) return;
  const seen = new Set<string>();
  for (const v of [...(col.enumLabels ?? []), ...(col.stats?.mostCommonValues ?? [])]) {
    const key = v.trim().toLowerCase();
    if (key.length < 2 || key.length > MAX_VALUE_LENGTH || /^[\d.\-:/ ]+$/.test(key) || seen.has(key)) continue;
    seen.add(key);
    const list = values.get(key);
    const entry = { d, column: col.name, value: v.trim() };
    if (list === undefined) values.set(key, [entry]);
    else list.push(entry);
  }
}

function buildEdges(tables: readonly TableInfo[], sources: readonly string[], byKey: ReadonlyMap<string, number>): EdgeData[][] {
  const edges: EdgeData[][] = tables.map(() => []);
  tables.forEach((t, d) => {
    for (const fk of t.foreignKeys) {
      const to = byKey.get(`${sources[d]}\u0000${fk.targetSchema}.${fk.targetTable}`);
      if (to === undefined) continue;
      const base = { constraint: fk.name };
      edges[d]!.push({ ...base, to, outgoing: true, fromColumns: fk.columns, toColumns: fk.targetColumns });
      if (to !== d) edges[to]!.push({ ...base, to: d, outgoing: false, fromColumns: fk.columns, toColumns: fk.targetColumns });
    }
  });
  return edges;
}

/**
 * Words of the catalog itself join the WordNet vocabulary for splitting run-together names: underscore/camel
 * pieces of any identifier and words of comments, so a schema that spells `order_header` somewhere can split
 * `orderheader` elsewhere.
 */
function catalogVocabulary(input: BuildSearchIndexInput, lexicon: Lexicon): Lexicon {
  const extra = new Set<string>();
  const addPieces = (name: string): void => {
    const pieces = splitIdentifierRaw(name);
    if (pieces.length < 2) return;
    for (const p of pieces) if (p.length >= 3 && /^[a-z]+$/.test(p)) extra.add(p);
  };
  for (const { table } of input.tables) {
    addPieces(table.name);
    for (const c of table.columns) {
      addPieces(c.name);
      if (c.comment) for (const w of c.comment.toLowerCase().match(/[a-z]{3,}/g) ?? []) extra.add(w);
    }
    if (table.comment) for (const w of table.comment.toLowerCase().match(/[a-z]{3,}/g) ?? []) extra.add(w);
  }
  // A comment that names another table ("See SalesOrderHeader") must not make that name a word of its own.
  for (const { table } of input.tables) {
    extra.delete(table.name.toLowerCase());
    for (const c of table.columns) extra.delete(c.name.toLowerCase());
  }
  if (extra.size === 0) return lexicon;
  return {
    has: (w) => extra.has(w) || lexicon.has(w),
    lemma: (w) => lexicon.lemma(w),
    concepts: (w) => lexicon.concepts(w),
  };
}
