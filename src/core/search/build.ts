/**
 * Index construction: one document per table, with BM25F fields, concept postings (WordNet + thesaurus), a value
 * index over low-cardinality text columns, and the FK graph.
 */
import type { ColumnInfo, TableInfo } from '../catalog/model';
import { loadLexicon, type Lexicon } from './lexicon';
import { identifierTerms, splitIdentifierRaw, stem, textTerms, type Term } from './tokenize';
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

export interface Posting {
  readonly d: number;
  /** Term frequency per field. */
  readonly tf: number[];
  /** A surface word that produced the term here. */
  surface: string;
  /** Columns whose name or comment holds the term. */
  cols: string[] | null;
  /** Semantic-layer objects (entity/metric) whose text holds the term. */
  sem: string[] | null;
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
  /** Distinct stems of the table name's own pieces (no splits or expansions), for name coverage. */
  readonly nameTerms: readonly string[];
  readonly columnNames: readonly string[];
  /** A junction: at least two FKs to distinct tables and few other columns. */
  readonly isBridge: boolean;
}

export interface IndexData {
  readonly docs: DocData[];
  readonly fieldLen: number[][];
  readonly avgLen: number[];
  readonly postings: Map<string, Posting[]>;
  readonly conceptPostings: Map<string, Posting[]>;
  readonly values: Map<string, ValueEntry[]>;
  readonly edges: EdgeData[][];
  readonly lexicon: Lexicon;
}

/** Values longer than this are prose, not categories. */
const MAX_VALUE_LENGTH = 60;
/** Columns with more distinct values than this are not categorical. */
const MAX_VALUE_CARDINALITY = 500;

/** Fields whose words are looked up in the lexicon, with the weight a concept inherits from that field. */
const CONCEPT_FIELDS: ReadonlySet<number> = new Set([F_NAME, F_COLUMN, F_COMMENT, F_SEMANTIC]);

export function buildIndexData(input: BuildSearchIndexInput): IndexData {
  const lexicon = input.lexicon ?? loadLexicon();
  const vocab = catalogVocabulary(input, lexicon);
  const docs: DocData[] = [];
  const fieldLen: number[][] = FIELDS.map(() => []);
  const postings = new Map<string, Posting[]>();
  const conceptPostings = new Map<string, Posting[]>();
  const values = new Map<string, ValueEntry[]>();
  const byKey = new Map<string, number>();
  const termCache = new Map<string, Term[]>();
  const conceptCache = new Map<string, readonly string[]>();

  const idTerms = (name: string): Term[] => {
    let t = termCache.get(name);
    if (t === undefined) {
      t = identifierTerms(name, vocab);
      termCache.set(name, t);
    }
    return t;
  };
  const conceptsOf = (word: string): readonly string[] => {
    let c = conceptCache.get(word);
    if (c === undefined) {
      c = lexicon.concepts(word);
      conceptCache.set(word, c);
    }
    return c;
  };

  // Per-document scratch: term -> posting, concept -> posting.
  let local = new Map<string, Posting>();
  let localConcepts = new Map<string, Posting>();
  const add = (d: number, f: number, terms: readonly Term[], col: string | null, sem: string | null): void => {
    for (const { term, surface } of terms) {
      let p = local.get(term);
      if (p === undefined) {
        p = { d, tf: FIELDS.map(() => 0), surface, cols: null, sem: null };
        local.set(term, p);
      }
      p.tf[f]! += 1;
      fieldLen[f]![d]! += 1;
      if (col !== null) {
        if (p.cols === null) p.cols = [col];
        else if (!p.cols.includes(col)) p.cols.push(col);
      }
      if (sem !== null) {
        if (p.sem === null) p.sem = [sem];
        else if (!p.sem.includes(sem)) p.sem.push(sem);
      }
      if (CONCEPT_FIELDS.has(f)) {
        for (const c of conceptsOf(surface)) {
          let cp = localConcepts.get(c);
          if (cp === undefined) {
            cp = { d, tf: FIELDS.map(() => 0), surface, cols: null, sem: null };
            localConcepts.set(c, cp);
          } else if (f === F_NAME && cp.tf[F_NAME] === 0) {
            cp.surface = surface;
          }
          cp.tf[f]! += 1;
          if (col !== null) {
            if (cp.cols === null) cp.cols = [col];
            else if (!cp.cols.includes(col)) cp.cols.push(col);
          }
        }
      }
    }
  };

  input.tables.forEach(({ sourceName, table }, d) => {
    const qn = `${table.schema}.${table.name}`;
    byKey.set(`${sourceName}\u0000${qn}`, d);
    for (const fl of fieldLen) fl.push(0);
    local = new Map();
    localConcepts = new Map();
    add(d, F_NAME, idTerms(table.name), null, null);
    add(d, F_SCHEMA, idTerms(table.schema), null, null);
    if (table.comment) add(d, F_COMMENT, textTerms(table.comment), null, null);
    for (const col of table.columns) {
      add(d, F_COLUMN, idTerms(col.name), col.name, null);
      if (col.comment) add(d, F_COLUMN_COMMENT, textTerms(col.comment), col.name, null);
      indexValues(values, d, col);
    }
    flush(postings, local);
    flush(conceptPostings, localConcepts);
    const fkTargets = new Set(table.foreignKeys.map((fk) => `${fk.targetSchema}.${fk.targetTable}`));
    const fkCols = new Set(table.foreignKeys.flatMap((fk) => fk.columns));
    const otherCols = table.columns.filter((c) => !fkCols.has(c.name)).length;
    docs.push({
      source: sourceName,
      schema: table.schema,
      name: table.name,
      qualifiedName: qn,
      nameTerms: [...new Set(splitIdentifierRaw(table.name).filter((p) => !/^\d+$/.test(p)).map(stem))],
      columnNames: table.columns.map((c) => c.name),
      isBridge: fkTargets.size >= 2 && otherCols <= fkCols.size + 2,
    });
  });

  addSemantic(input, docs, (d, terms, label) => {
    local = new Map();
    localConcepts = new Map();
    add(d, F_SEMANTIC, terms, null, label);
    mergeInto(postings, local);
    mergeInto(conceptPostings, localConcepts);
  }, idTerms);

  const edges = buildEdges(input.tables.map((t) => t.table), input.tables.map((t) => t.sourceName), byKey);
  const avgLen = fieldLen.map((fl) => (fl.length === 0 ? 1 : Math.max(1e-9, fl.reduce((a, b) => a + b, 0) / fl.length)));
  return { docs, fieldLen, avgLen, postings, conceptPostings, values, edges, lexicon };
}

function flush(target: Map<string, Posting[]>, local: Map<string, Posting>): void {
  for (const [term, p] of local) {
    const list = target.get(term);
    if (list === undefined) target.set(term, [p]);
    else list.push(p);
  }
}

/** Semantic-layer words arrive after the table pass: merge them into an existing posting of the same doc. */
function mergeInto(target: Map<string, Posting[]>, local: Map<string, Posting>): void {
  for (const [term, p] of local) {
    const list = target.get(term);
    const existing = list?.find((e) => e.d === p.d);
    if (existing === undefined) {
      if (list === undefined) target.set(term, [p]);
      else list.push(p);
      continue;
    }
    existing.tf[F_SEMANTIC]! += p.tf[F_SEMANTIC]!;
    existing.sem = [...new Set([...(existing.sem ?? []), ...(p.sem ?? [])])];
  }
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

function addSemantic(
  input: BuildSearchIndexInput,
  docs: readonly DocData[],
  addTerms: (d: number, terms: Term[], label: string) => void,
  idTerms: (name: string) => Term[],
): void {
  const find = (table: string, source?: string): number[] => {
    const out: number[] = [];
    docs.forEach((doc, d) => {
      if ((doc.qualifiedName === table || doc.name === table) && (source === undefined || doc.source === source)) out.push(d);
    });
    return out;
  };
  const entityDocs = new Map<string, number[]>();
  for (const e of input.entities ?? []) {
    const targets = find(e.table, e.sourceName);
    entityDocs.set(e.name, targets);
    const terms = [...idTerms(e.name), ...(e.description ? textTerms(e.description) : [])];
    for (const d of targets) addTerms(d, terms, `entity '${e.name}'`);
  }
  for (const m of input.metrics ?? []) {
    const targets = entityDocs.get(m.entity) ?? [];
    const terms = [...idTerms(m.name), ...(m.description ? textTerms(m.description) : [])];
    for (const d of targets) addTerms(d, terms, `metric '${m.name}'`);
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
