/**
 * Index construction: one document per table, with BM25F fields, concept postings (WordNet + thesaurus), a value
 * index over low-cardinality text columns, semantic classes (tables that hold people or places), and the FK graph.
 *
 * Postings are stored compactly (compressed sparse rows in typed arrays). Each posting holds the BM25F
 * saturated term frequency of its table, which depends only on the table and the term, so a query does one
 * multiply-add per posting. See serialize.ts for persisting the expensive part.
 */
import type { ColumnInfo, ForeignKeyInfo, TableInfo } from '../catalog/model';
import { loadLexicon, type Lexicon } from './lexicon';
import { THESAURUS } from './thesaurus';
import { identifierTerms, segmentWord, splitIdentifierRaw, stem, textTerms, type Term } from './tokenize';
import type { BuildSearchIndexInput, SchemaArea } from './types';

/** BM25F fields, in posting order. */
export const FIELDS = ['name', 'schema', 'column', 'comment', 'columnComment', 'semantic', 'role'] as const;
export type FieldName = (typeof FIELDS)[number];
export const F_NAME = 0;
export const F_SCHEMA = 1;
export const F_COLUMN = 2;
export const F_COMMENT = 3;
export const F_COLUMN_COMMENT = 4;
export const F_SEMANTIC = 5;
/**
 * Role words mined from the catalog: the FK column names other tables use for this table (`loan.borrower_id` →
 * "borrower" for `member`), minus the words of the table's own name. They name what the rows are *in a role*.
 */
export const F_ROLE = 6;
export const NF = FIELDS.length;

/** BM25F constants used at build time (the saturated frequency is precomputed per posting). */
export const BM25F = {
  k1: 1.2,
  /** Field weights and length normalisation, in FIELDS order: name, schema, column, comment, column comment, semantic, role. */
  weight: [3.0, 0.4, 1.0, 1.3, 0.5, 2.0, 0.9],
  b: [0.5, 0.3, 0.75, 0.75, 0.75, 0.5, 0.75],
} as const;

/** Term postings as compressed sparse rows: postings of term t are at [start[t], start[t+1]). */
export interface Postings {
  readonly termIds: ReadonlyMap<string, number>;
  readonly start: Int32Array;
  readonly doc: Int32Array;
  /** BM25F saturated term frequency, tf / (k1 + tf), in 0..1. */
  readonly sat: Float32Array;
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
  /**
   * Set on an edge no key declares, implied by a key of several columns (the `fk`-th of the referencing table) that
   * points at a junction (doc `junction`) whose `key`-th key points on (see addImpliedEdges).
   */
  readonly implied?: { readonly fk: number; readonly junction: number; readonly key: number };
  /** The FK columns are the whole primary key of the table that holds them: its rows are rows of the other (a subtype). */
  readonly subtype: boolean;
}

export interface DocData {
  readonly source: string;
  readonly schema: string;
  readonly name: string;
  readonly qualifiedName: string;
  /** Words of the table name as written (split, no expansions), for name coverage and explanations. */
  readonly nameWords: readonly string[];
  /** The same words stemmed (index terms). */
  readonly nameStems: readonly string[];
  /** Name words with run-together ones segmented (`salesorderdetail` → sales, order, detail). */
  readonly nameParts: readonly string[];
  readonly table: TableInfo;
  /** Semantic-layer labels and their terms. */
  readonly semantic: ReadonlyArray<{ readonly label: string; readonly terms: readonly Term[] }>;
  /** A junction: at least two FKs to distinct tables and few other columns. */
  readonly isBridge: boolean;
  /** Structural role inferred from the name, keys and shape (see tableRole). */
  readonly role: TableRole;
  /** For an auxiliary table: the name words that make it one (`history`, `alias`…), stemmed. */
  readonly auxWords: readonly string[];
  /** A view or materialized view (isDerived), known without reading the table. */
  readonly derived: boolean;
  /** The table names its rows: a text column called `…name` or `title` (hasNameColumn), known without reading the table. */
  readonly hasName: boolean;
  /**
   * The table keeps its rows in order within something: a column says where (`position`, `sequence`, `line_number`;
   * hasOrderColumn), known without reading the table.
   */
  readonly ordered: boolean;
}

/**
 * A mirror: a view that only renames the columns of one other relation of its source (`CREATE VIEW pe.a AS SELECT
 * addressid AS id, addressid, … FROM person.address`). It holds the same rows as that relation, so it is kept out of
 * the postings, values and classes of people and places: it neither competes with its relation for a place in the
 * answer nor dilutes the weight of the words the two share. It stays in the index (listed, described, joined) as an
 * auxiliary relation with no marking word, which is how a persisted frame knows it again.
 */
export function isMirror(doc: DocData): boolean {
  return doc.role === 'auxiliary' && doc.auxWords.length === 0;
}

/** A view or materialized view: rows computed from other relations. */
function isDerived(table: TableInfo): boolean {
  return table.kind === 'view' || table.kind === 'materialized_view';
}

/** Clauses that make a view more than a renaming of one relation; a parenthesis (a call, a subquery) too. */
const NOT_A_MIRROR = /\b(?:join|where|group\s+by|having|union|intersect|except|distinct|limit|offset|fetch|window|over|values|with|lateral)\b|\(/i;

/**
 * Whether a view's SQL is a plain projection of exactly one relation of its source (`known`: `schema.table` keys,
 * and bare table names for engines without schemas), every output a column of it. PostgreSQL, MySQL and SQLite
 * spellings of the definition alike.
 */
function mirrorsOne(table: TableInfo, known: ReadonlySet<string>): boolean {
  if (table.kind !== 'view' || table.viewDefinition === null) return false;
  const sql = table.viewDefinition.replace(/\s+/g, ' ').trim().replace(/;$/, '').trim();
  const m = /^select (.+?) from ([`"\w.$]+)(?: (?:as )?[`"\w$]+)?$/i.exec(sql);
  if (m === null || NOT_A_MIRROR.test(sql) || /\bfrom\b/i.test(m[1]!)) return false;
  const parts = m[2]!.split('.').map((x) => x.replace(/^[`"]|[`"]$/g, ''));
  const target = parts.slice(-2).join('.');
  // A qualifier the catalog does not know (MySQL qualifies with the database name) leaves the bare name.
  return known.has(target) || known.has(`${table.schema}.${target}`) || known.has(parts[parts.length - 1]!);
}

/**
 * What a table is for, from its shape alone: `lookup` — a small code/kind list other tables point at (`*_type`,
 * `*_status`, a name and little else); `bridge` — a junction between two or more tables; `auxiliary` — bookkeeping
 * beside an entity (history, archive, raw imports, aliases, redirects, annotations, logs, edits), which a question
 * only wants when it asks for it; `entity` — everything else.
 */
export type TableRole = 'entity' | 'lookup' | 'bridge' | 'auxiliary';

/** Structure derived from the tables: recomputed on load, or read ready to use (serialize.ts, PersistedFrame). */
export interface IndexFrame {
  readonly docs: DocData[];
  readonly values: Map<string, ValueEntry[]>;
  readonly edges: EdgeData[][];
  readonly bridges: readonly number[];
  /** Position of each doc in the deterministic tie-break order (qualified name, then source). */
  readonly order: Int32Array;
  /** 0..1: how clearly a table describes people (a person noun as its name with a name column, person-name columns). */
  readonly personTable: Float32Array;
  /** 0..1: how clearly a table describes places (a place noun as its name, place-named columns). */
  readonly placeTable: Float32Array;
  /** Docs with a non-zero person / place strength, ascending. */
  readonly personDocs: Int32Array;
  readonly placeDocs: Int32Array;
  readonly vocab: Lexicon;
  /** The catalog's own words that `vocab` adds to the lexicon (see withCatalogWords). */
  readonly catalogWords: ReadonlySet<string>;
  /** The names of one word the columns have (`owner`, `setlist`): words the catalog writes (see withCatalogWords). */
  readonly columnNames: readonly string[];
  /** Largest FK degree of any table (normalises the hub prior in rank.ts). */
  readonly maxDegree: number;
  /** FK role words per doc (see F_ROLE), with the referencing `table.column` each came from. */
  readonly roleWords: ReadonlyArray<ReadonlyArray<{ readonly word: string; readonly via: string }> | undefined>;
  /**
   * For a persisted frame: every stem of a table name → the docs, ascending, whose name has it and whose postings hold
   * it (what nameDocs works out from the postings of a built index). A restored doc unpacks its words on first use; a
   * question that asks which tables are named with a common word would otherwise unpack thousands.
   */
  readonly nameDocs?: ReadonlyMap<string, readonly number[]>;
}

/** The expensive part (tokenisation, lexicon look-ups), which serialize.ts persists. */
export interface IndexBody {
  readonly postings: Postings;
  /** Concept id → the index terms of catalog words that carry it, with one surface word each. */
  readonly conceptTerms: Map<string, Map<string, string>>;
}

export interface IndexData extends IndexFrame, IndexBody {
  readonly lexicon: Lexicon;
  /**
   * Relations that are not computed from others (tables, not views): the collection size of every idf. A view repeats
   * the words of the relations it reads; counted, it would make them look commoner than they are. For a catalog of
   * views only, its views but mirrors.
   */
  readonly searchable: number;
  /** Per term id, how many of those relations hold it (-1 until a query asks; rank.ts, tableDf). */
  readonly tableDf: Int32Array;
  /** A catalog of views only counts its views (all but mirrors) instead. */
  readonly viewsOnly: boolean;
  /** Whether any relation is a view: without one, a term's document frequency is its postings' count. */
  readonly hasViews: boolean;
  /** Identifier → terms, shared by build and explanations. */
  readonly termCache: Map<string, Term[]>;
  readonly conceptCache: Map<string, readonly string[]>;
  /** Source/schema filter → map of the catalog's areas (areas.ts), filled on the first weak answer. */
  readonly areaCache: Map<string, readonly SchemaArea[]>;
  /** Source/schema filter → membership bytes, filled on first use by rank.ts. */
  readonly filterMasks: Map<string, Uint8Array>;
  /** Tokenised table text for explanations, by doc (bounded; answer.ts fills it). */
  readonly explainCache: Map<number, ExplainTokens>;
  /** Per doc, what the ranking derives from its table alone the first time a query needs it (table-shape.ts). */
  readonly docCache: Map<number, DocDerived>;
  /** Per-index scratch for queries (single-threaded), so that a query allocates nothing proportional to the catalog. */
  readonly scratch: Scratch;
}

export interface DocDerived {
  /** Stems of `nameParts`. */
  partStems?: readonly string[];
  /** The table a subset table extends, or -1 (table-shape.ts, subsetOf). */
  subsetOf?: number;
  /** For a view: the relations of its source that its SQL reads (table-shape.ts, viewBases). */
  bases?: readonly number[];
  /** How many junctions point at the table (table-shape.ts, junctionsAt). */
  junctions?: number;
  /** Whether the table is a record shared by junctions that only points at code lists (table-shape.ts, isQualifierRecord). */
  qualifierRecord?: boolean;
  /** FK degree for the hub prior (table-shape.ts, hubDegree). */
  hubDegree?: number;
}

export interface ExplainTokens {
  readonly commentTerms: readonly Term[];
  readonly columnTerms: ReadonlyArray<ReadonlySet<string>>;
  readonly columnCommentTerms: ReadonlyArray<ReadonlySet<string> | null>;
}

export interface Scratch {
  readonly score: Float64Array;
  /** Which pieces of the question's evidence (query words, names, values; one bit each) a table matched. */
  readonly evidenceBits: Uint32Array;
  readonly best: Float64Array;
  readonly seen: Uint8Array;
  /** Tables touched by one query word (reused; its length is reset per word). */
  readonly local: number[];
}

/**
 * Columns that every row carries for bookkeeping (surrogate key, audit stamps, edit counters, row order); they do
 * not make a junction (`l_artist_recording`: two ends, a link, `edits_pending`, `last_updated`, `link_order`)
 * any less of one.
 */
const BOOKKEEPING = /^(?:id|rowguid|uuid|gid|created(?:_at|_on)?|updated(?:_at|_on)?|modified(?:_?date|_at|_on)?|last_?updated|last_?modified|edits_pending|(?:link_|sort_|display_)?order(?:ing)?|version)$/i;

/** Values longer than this are prose, not categories. */
const MAX_VALUE_LENGTH = 60;
/** Columns with more distinct values than this are not categorical. */
const MAX_VALUE_CARDINALITY = 500;

/** Fields whose words are looked up in the lexicon. */
const CONCEPT_FIELDS: ReadonlySet<number> = new Set([F_NAME, F_COLUMN, F_COMMENT, F_SEMANTIC, F_ROLE]);

/**
 * Name words that mark bookkeeping kept beside an entity rather than the entity itself. General data-modelling
 * vocabulary, not any schema's table names. A one-word table needs a word from AUX_ALONE (`audit`, `log`) to count.
 */
const AUX_WORDS: ReadonlySet<string> = new Set([
  'history', 'histories', 'archive', 'archived', 'raw', 'annotation', 'alias', 'aliases', 'redirect', 'log', 'logs',
  'audit', 'backup', 'bak', 'tmp', 'temp', 'staging', 'snapshot', 'changelog', 'revision', 'revisions', 'edit', 'edits',
  'pending', 'deleted', 'old', 'legacy', 'gid', 'mirror', 'alternative',
]);
const AUX_ALONE: ReadonlySet<string> = new Set(['history', 'archive', 'changelog', 'audit', 'log', 'logs', 'annotation', 'alias', 'redirect']);
const LABEL_WORDS: ReadonlySet<string> = new Set(['name', 'code', 'description', 'title', 'label', 'value', 'abbreviation']);
/** Name words of code lists. */
const LOOKUP_WORDS: ReadonlySet<string> = new Set(['type', 'types', 'status', 'statuses', 'kind', 'kinds', 'format', 'formats', 'category', 'categories', 'class', 'level', 'mode', 'method', 'reason', 'code', 'codes', 'packaging', 'gender', 'currency', 'unit', 'language', 'lookup']);

/**
 * A lookup is narrow (a name or code, maybe a description and a parent, bookkeeping columns) and points at nothing
 * but itself, or its name ends in a code-list word (`release_status`, `phonenumbertype`).
 */
function isLookup(table: TableInfo, nameWords: readonly string[], fkCols: ReadonlySet<string>): boolean {
  const last = nameWords[nameWords.length - 1] ?? '';
  const external = table.foreignKeys.filter((f) => f.targetTable !== table.name).length;
  if (external > 1) return false;
  if (LOOKUP_WORDS.has(last) || /(?:type|status|kind|format|category|reason|method)$/.test(last)) return true;
  let content = 0;
  let named = false;
  for (const c of table.columns) {
    if (fkCols.has(c.name)) continue;
    const w = splitIdentifierRaw(c.name);
    if (w.includes('id') || w.includes('gid') || /^(?:modified|created|updated|last|rowguid|child|parent|edits)/.test(c.name)) continue;
    // `name`, `code`, `category_name`: the label of the row. `first_name` + `last_name` is a person, not a code list.
    const labelWord = LABEL_WORDS.has(w[w.length - 1]!) && (w.length === 1 || nameWords.includes(w[0]!));
    if (labelWord) named = true;
    else content++;
  }
  return external === 0 && named && content <= 1;
}

/**
 * FK role words per table: the words of each FK column that points at it, less `id`, digits and the words of the
 * target's own name (`rental.customer_id` says nothing new about `customer`; `document.owner` says `owner`).
 */
function roleWords(docs: readonly DocData[], edges: readonly EdgeData[][]): Array<Array<{ word: string; via: string }> | undefined> {
  const out: Array<Array<{ word: string; via: string }> | undefined> = new Array(docs.length);
  edges.forEach((list, d) => {
    for (const e of list) {
      if (!e.outgoing || e.to === d || e.implied !== undefined) continue;
      const own = new Set(docs[e.to]!.nameWords);
      const ownStems = new Set(docs[e.to]!.nameStems);
      for (const col of e.fromColumns) {
        for (const w of splitIdentifierRaw(col)) {
          if (w.length < 3 || /\d/.test(w) || w === 'id' || w === 'ids' || w === 'key' || w === 'code' || w === 'fk' || own.has(w) || ownStems.has(stem(w))) continue;
          // A word of the referencing table's own name is that table, not a role of the target (`track.recording`).
          if (docs[d]!.nameWords.includes(w)) continue;
          const list2 = out[e.to] ?? (out[e.to] = []);
          if (!list2.some((r) => r.word === w)) list2.push({ word: w, via: `${docs[d]!.name}.${col}` });
        }
      }
    }
  });
  return out;
}

export function buildIndexData(input: BuildSearchIndexInput): IndexData {
  const lexicon = input.lexicon ?? loadLexicon();
  const frame = buildFrame(input, lexicon);
  const termCache = new Map<string, Term[]>();
  const conceptCache = new Map<string, readonly string[]>();
  const body = buildBody(input, frame, lexicon, termCache, conceptCache);
  return assemble(frame, body, lexicon, termCache, conceptCache);
}

export function assemble(frame: IndexFrame, body: IndexBody, lexicon: Lexicon, termCache = new Map<string, Term[]>(), conceptCache = new Map<string, readonly string[]>()): IndexData {
  const n = frame.docs.length;
  const scratch: Scratch = {
    score: new Float64Array(n),
    evidenceBits: new Uint32Array(n),
    best: new Float64Array(n),
    seen: new Uint8Array(n),
    local: [],
  };
  const tables = frame.docs.reduce((k, doc) => (doc.derived ? k : k + 1), 0);
  const viewsOnly = tables === 0;
  const hasViews = tables < frame.docs.length;
  const searchable = viewsOnly ? frame.docs.reduce((k, doc) => (isMirror(doc) ? k : k + 1), 0) : tables;
  const tableDf = new Int32Array(hasViews && !viewsOnly ? body.postings.termIds.size : 0).fill(-1);
  return { ...frame, ...body, lexicon, searchable, tableDf, viewsOnly, hasViews, termCache, conceptCache, filterMasks: new Map(), areaCache: new Map(), explainCache: new Map(), docCache: new Map(), scratch };
}

/** An empty list of docs, shared. */
export const NO_DOCS: readonly number[] = [];

/** nameDocs of a built index (one without IndexFrame.nameDocs), worked out once per term of its vocabulary. */
const nameDocsMemo = new WeakMap<IndexData, Map<string, readonly number[]>>();

/** The docs, ascending, whose name has the stem `term` and whose postings hold it (see IndexFrame.nameDocs). */
export function nameDocs(data: IndexData, term: string): readonly number[] {
  if (data.nameDocs !== undefined) return data.nameDocs.get(term) ?? NO_DOCS;
  const id = data.postings.termIds.get(term);
  if (id === undefined) return NO_DOCS;
  let memo = nameDocsMemo.get(data);
  if (memo === undefined) nameDocsMemo.set(data, (memo = new Map()));
  let list = memo.get(term);
  if (list === undefined) {
    const { start, doc } = data.postings;
    const out: number[] = [];
    for (let i = start[id]!; i < start[id + 1]!; i++) if (data.docs[doc[i]!]!.nameStems.includes(term)) out.push(doc[i]!);
    memo.set(term, (list = out));
  }
  return list;
}

/** nameDocs for every stem of a table name, for persisting (IndexFrame.nameDocs). */
export function allNameDocs(data: IndexData): Map<string, readonly number[]> {
  const out = new Map<string, readonly number[]>();
  for (const d of data.docs) for (const s of d.nameStems) if (!out.has(s)) out.set(s, nameDocs(data, s));
  for (const [s, list] of out) if (list.length === 0) out.delete(s);
  return out;
}

/**
 * The frame of an index. The indexer persists it (serialize.ts) and a server of the same catalog uses it as it is,
 * so a change to what is computed here must bump INDEX_FORMAT, or catalogs indexed before would keep the old frame.
 */
export function buildFrame(input: BuildSearchIndexInput, lexicon: Lexicon): IndexFrame {
  const words = catalogWords(input);
  const columnNames = [...new Set(input.tables.flatMap(({ table }) => table.columns.map((c) => c.name).filter((c) => /^[a-z]{3,}$/.test(c))))];
  const vocab = withCatalogWords(lexicon, words, [...input.tables.map(({ table }) => table.name), ...columnNames]);
  const values = new Map<string, ValueEntry[]>();
  const byKey = new Map<string, number>();
  const semantic = semanticTerms(input, (name) => identifierTerms(name, vocab));
  const n = input.tables.length;
  const personTable = new Float32Array(n);
  const placeTable = new Float32Array(n);
  const senses = new Map<string, ColumnSense>();
  // Relations per source that a view may mirror: `schema.table` keys, and bare names where the engine has no schemas.
  const relations = new Map<string, Set<string>>();
  for (const { sourceName, table } of input.tables) {
    if (table.kind === 'view') continue;
    let set = relations.get(sourceName);
    if (set === undefined) relations.set(sourceName, (set = new Set()));
    set.add(`${table.schema}.${table.name}`);
    set.add(table.name);
  }
  const docs: DocData[] = input.tables.map(({ sourceName, table }, d) => {
    const qn = `${table.schema}.${table.name}`;
    byKey.set(`${sourceName}\u0000${qn}`, d);
    const nameWords = splitIdentifierRaw(table.name).filter((p) => !/^\d+$/.test(p));
    if (mirrorsOne(table, relations.get(sourceName) ?? new Set())) {
      return { source: sourceName, schema: table.schema, name: table.name, qualifiedName: qn, nameWords, nameStems: nameWords.map(stem), nameParts: nameWords, table, semantic: [], isBridge: false, role: 'auxiliary', auxWords: [], derived: true, hasName: hasNameColumn(table), ordered: hasOrderColumn(table) };
    }
    // A view's values and names are copies of its relations' rows: only those hold them.
    const derived = isDerived(table);
    if (!derived) for (const col of table.columns) indexValues(values, d, col);
    const fkTargets = new Set(table.foreignKeys.map((fk) => `${fk.targetSchema}.${fk.targetTable}`));
    const fkCols = new Set(table.foreignKeys.flatMap((fk) => fk.columns));
    let otherCols = 0;
    for (const c of table.columns) if (!fkCols.has(c.name) && !BOOKKEEPING.test(c.name)) otherCols++;
    const isBridge = fkTargets.size >= 2 && otherCols <= fkCols.size + 2;
    const nameParts = nameWords.flatMap((w) => segmentWord(w, vocab) ?? [w]);
    // A junction links people or places to other things; it does not hold them (`l_event_place`, `film_actor`). One
    // with a name of its own does: `state_province (name, country_id, territory_id)` is a place.
    const named = table.columns.some((c) => !fkCols.has(c.name) && /^(?:name|title)$/i.test(c.name) && mayHoldText(c.dataType));
    const cls = (isBridge && !named) || derived ? { person: 0, place: 0 } : classify(table, nameParts, fkCols, lexicon, senses);
    personTable[d] = cls.person;
    placeTable[d] = cls.place;
    const auxWords = nameWords.length >= 2 || AUX_ALONE.has(nameWords[0] ?? '') ? nameWords.filter((w) => AUX_WORDS.has(w)).map(stem) : [];
    return {
      source: sourceName,
      schema: table.schema,
      name: table.name,
      qualifiedName: qn,
      nameWords,
      nameStems: nameWords.map(stem),
      nameParts,
      table,
      semantic: semantic.get(`${sourceName}\u0000${qn}`) ?? semantic.get(`\u0000${qn}`) ?? semantic.get(`\u0000${table.name}`) ?? [],
      isBridge,
      role: auxWords.length > 0 ? 'auxiliary' : isBridge ? 'bridge' : isLookup(table, nameWords, fkCols) ? 'lookup' : 'entity',
      auxWords,
      derived,
      hasName: hasNameColumn(table),
      ordered: hasOrderColumn(table),
    };
  });
  const edges = buildEdges(input.tables.map((t) => t.table), input.tables.map((t) => t.sourceName), byKey);
  isolatedPlaces(placeTable, edges, (d) => docs[d]!.source);
  const bridges = docs.flatMap((doc, d) => (doc.isBridge ? [d] : []));
  const sorted = docs.map((_, d) => d).sort((a, b) => {
    const da = docs[a]!;
    const db = docs[b]!;
    if (da.qualifiedName !== db.qualifiedName) return da.qualifiedName < db.qualifiedName ? -1 : 1;
    if (da.source !== db.source) return da.source < db.source ? -1 : 1;
    return a - b;
  });
  const order = new Int32Array(n);
  sorted.forEach((d, i) => (order[d] = i));
  const roles = roleWords(docs, edges);
  const nonZero = (a: Float32Array): Int32Array => Int32Array.from(a.reduce<number[]>((acc, v, d) => (v > 0 ? (acc.push(d), acc) : acc), []));
  return { docs, values, edges, bridges, order, personTable, placeTable, personDocs: nonZero(personTable), placeDocs: nonZero(placeTable), vocab, catalogWords: words, columnNames, roleWords: roles, maxDegree: edges.reduce((m, e) => Math.max(m, e.length), 0) };
}

/** Growable typed buffers for the posting stream of the build. */
class Stream {
  term = new Int32Array(1 << 16);
  doc = new Int32Array(1 << 16);
  tf = new Uint16Array(NF << 16);
  length = 0;
  push(term: number, doc: number, tf: Uint16Array, at: number): void {
    if (this.length === this.term.length) {
      const grow = <T extends Int32Array | Uint16Array>(a: T, size: number): T => {
        const b = new (a.constructor as new (n: number) => T)(size);
        b.set(a);
        return b;
      };
      this.term = grow(this.term, this.length * 2);
      this.doc = grow(this.doc, this.length * 2);
      this.tf = grow(this.tf, this.length * 2 * NF);
    }
    this.term[this.length] = term;
    this.doc[this.length] = doc;
    for (let f = 0; f < NF; f++) this.tf[this.length * NF + f] = tf[at * NF + f]!;
    this.length++;
  }
}

function buildBody(input: BuildSearchIndexInput, frame: IndexFrame, lexicon: Lexicon, termCache: Map<string, Term[]>, conceptCache: Map<string, readonly string[]>): IndexBody {
  const n = frame.docs.length;
  const termIds = new Map<string, number>();
  const conceptTerms = new Map<string, Map<string, string>>();
  const conceptSeen = new Set<string>();
  const fieldLen: Float64Array[] = FIELDS.map(() => new Float64Array(n));
  const stream = new Stream();
  const idTerms = (name: string): Term[] => cachedTerms(termCache, frame.vocab, name);
  // Per-document scratch: term id → slot (stamped by doc), slot → NF frequencies.
  let slotOf = new Int32Array(1024);
  let slotDoc = new Int32Array(1024).fill(-1);
  let docTf = new Uint16Array(NF * 256);
  const docTerms: number[] = [];
  const add = (d: number, f: number, terms: readonly Term[]): void => {
    for (const { term, surface } of terms) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(term, id);
        if (id >= slotOf.length) {
          const a = new Int32Array(slotOf.length * 2);
          a.set(slotOf);
          slotOf = a;
          const b = new Int32Array(slotDoc.length * 2).fill(-1);
          b.set(slotDoc);
          slotDoc = b;
        }
      }
      if (slotDoc[id] !== d) {
        slotDoc[id] = d;
        slotOf[id] = docTerms.length;
        docTerms.push(id);
        if (docTerms.length * NF > docTf.length) {
          const a = new Uint16Array(docTf.length * 2);
          a.set(docTf);
          docTf = a;
        }
        docTf.fill(0, (docTerms.length - 1) * NF, docTerms.length * NF);
      }
      const at = slotOf[id]! * NF + f;
      if (docTf[at]! < 65535) docTf[at]! += 1;
      fieldLen[f]![d]! += 1;
      if (CONCEPT_FIELDS.has(f) && !conceptSeen.has(surface)) {
        // Concepts are resolved per distinct catalog word, not per table: the query side expands to these terms.
        conceptSeen.add(surface);
        for (const c of cachedConcepts(conceptCache, lexicon, surface)) {
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
  input.tables.forEach(({ table }, d) => {
    if (isMirror(frame.docs[d]!)) return;
    docTerms.length = 0;
    add(d, F_NAME, idTerms(table.name));
    add(d, F_SCHEMA, idTerms(table.schema));
    if (table.comment) add(d, F_COMMENT, textTerms(table.comment));
    for (const col of table.columns) {
      add(d, F_COLUMN, idTerms(col.name));
      if (col.comment) add(d, F_COLUMN_COMMENT, textTerms(col.comment));
    }
    for (const s of frame.docs[d]!.semantic) add(d, F_SEMANTIC, s.terms);
    for (const r of frame.roleWords[d] ?? []) add(d, F_ROLE, idTerms(r.word));
    for (let i = 0; i < docTerms.length; i++) stream.push(docTerms[i]!, d, docTf, i);
  });

  // Counting sort of the stream by term; docs stay ascending within a term because the stream is in doc order.
  const terms = termIds.size;
  const start = new Int32Array(terms + 1);
  for (let i = 0; i < stream.length; i++) start[stream.term[i]! + 1]! += 1;
  for (let t = 0; t < terms; t++) start[t + 1]! += start[t]!;
  const fill = start.slice(0, terms);
  const doc = new Int32Array(stream.length);
  const sat = new Float32Array(stream.length);
  // The average field lengths are those of the tables: mirrors have no postings, and other views repeat the columns
  // of the relations they read (as for idf, rank.ts). A catalog of views only averages over them.
  const tableDocs = frame.docs.flatMap((doc, d) => (doc.derived ? [] : [d]));
  const averaged = tableDocs.length > 0 ? tableDocs : frame.docs.flatMap((doc, d) => (isMirror(doc) ? [] : [d]));
  const avgLen = fieldLen.map((fl) => (averaged.length === 0 ? 1 : Math.max(1e-9, averaged.reduce((a, d) => a + fl[d]!, 0) / averaged.length)));
  for (let i = 0; i < stream.length; i++) {
    const d = stream.doc[i]!;
    let tf = 0;
    for (let f = 0; f < NF; f++) {
      const raw = stream.tf[i * NF + f]!;
      if (raw === 0) continue;
      const norm = 1 - BM25F.b[f]! + (BM25F.b[f]! * fieldLen[f]![d]!) / avgLen[f]!;
      tf += (BM25F.weight[f]! * raw) / norm;
    }
    const at = fill[stream.term[i]!]!++;
    doc[at] = d;
    sat[at] = tf / (BM25F.k1 + tf);
  }
  return { postings: { termIds, start, doc, sat }, conceptTerms };
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

/** How surely a name-holding table of people's things (`artist_credit (name)`) holds those people's names. */
const OWNED_NAMES = 0.25;
/**
 * Columns of a table of accounts, and the share of a people table's strength such a table keeps: with its holders'
 * own names (staff who log in), or known by a bare user name (the application's users).
 */
const ACCOUNT_COLUMN = /pass(?:word|wd)|last_?login/i;
const ACCOUNT_PEOPLE = 0.7;
const ACCOUNT_USERS = 0.4;
/** Share of a place table's strength kept by a table with no text column of its own. */
const TEXTLESS_PLACES = 0.5;
/** Share of a place table's strength kept by a table named by a noun whose first sense is no place. */
const LATER_PLACES = 0.5;
/** Built-in types that never hold words (PostgreSQL, MySQL, SQLite and SQL Server spellings). */
const NON_TEXT_TYPE = /^(?:(?:small|big|tiny|medium)?int(?:eger)?\d*|(?:small|big)?serial\d*|number|numeric|decimal|real|float\d*|double(?: precision)?|money|bool(?:ean)?|bit|date(?:time\d*)?|smalldatetime|time(?:stamp)?(?:tz)?|interval|year|uuid|uniqueidentifier|bytea|blob|(?:var)?binary|jsonb?|xml|inet|cidr|macaddr8?|point|line|lseg|box|path|polygon|circle|tsvector|tsquery|oid|geometry|geography)\b/i;

/**
 * Whether a column of this type may hold words: text types do, and so do domains and other user types that the
 * catalog names with a schema or in quotes (AdventureWorks' `"Name"` over varchar), whose base type it does not
 * record. Built-in numbers, dates, keys and binaries, arrays and unknown bare names do not.
 */
export function mayHoldText(dataType: string): boolean {
  if (/char|text|string|clob/i.test(dataType)) return true;
  if (!/[".]/.test(dataType) || /\[\]$/.test(dataType)) return false;
  return !NON_TEXT_TYPE.test(dataType.replace(/^.*\./, '').replace(/"/g, '').trim());
}

/** Words that, inside a column name, mark it as holding a person's name. */
const PERSON_NAME_WORDS: ReadonlySet<string> = new Set(['forename', 'surname', 'firstname', 'lastname', 'fullname', 'displayname', 'username', 'nickname', 'givenname', 'familyname']);
const PERSON_NAME_PAIRS: ReadonlySet<string> = new Set(['first name', 'last name', 'full name', 'display name', 'user name', 'given name', 'family name', 'middle name']);


/** What a column name says about its table, computed once per distinct name. */
interface ColumnSense {
  readonly isKey: boolean;
  readonly personName: boolean;
  /** A single person noun (`artist`): it names people only when the column holds text. */
  readonly personIfText: boolean;
  readonly nameLike: boolean;
  readonly place: boolean;
}

function columnSense(cache: Map<string, ColumnSense>, lexicon: Lexicon, name: string): ColumnSense {
  let sense = cache.get(name);
  if (sense !== undefined) return sense;
  // Run-together names are read in words (`stateprovinceid`: state, province, id).
  const raw = splitIdentifierRaw(name);
  const pieces = raw.map((w) => segmentWord(w, lexicon) ?? [w]);
  const words = pieces.flat();
  const joined = words.join(' ');
  sense = {
    isKey: words.includes('id'),
    personName:
      raw.some((w) => PERSON_NAME_WORDS.has(w)) ||
      [...PERSON_NAME_PAIRS].some((p) => joined.includes(p)) ||
      (words.length === 2 && words[1] === 'name' && lexicon.isPerson(words[0]!)),
    personIfText: words.length === 1 && lexicon.isPerson(words[0]!),
    nameLike: words.includes('name') || words.includes('title'),
    // A run-together word the dictionary knows whole has the sense of the whole: a `website` is no `site`.
    place: raw.flatMap((w, i) => (lexicon.concepts(w).length > 0 ? [w] : pieces[i]!)).some((w) => w.length >= 4 && lexicon.isPlace(w)),
  };
  cache.set(name, sense);
  return sense;
}

/**
 * People tables: columns that name people (first/last name, display name, `player_name`, a text column called
 * `artist` or `author`), or a person noun as the table's head word ("drivers", "member") with a name-like column.
 * Places: a place noun as the head word ("district", "city"), or non-key columns named after places.
 */
function classify(table: TableInfo, nameWords: readonly string[], fkCols: ReadonlySet<string>, lexicon: Lexicon, cache: Map<string, ColumnSense>): { person: number; place: number } {
  let nameColumn = false;
  let personColumn = false;
  let placeColumns = 0;
  for (const c of table.columns) {
    if (fkCols.has(c.name)) continue;
    const sense = columnSense(cache, lexicon, c.name);
    if (sense.isKey) continue;
    if (sense.personName || (sense.personIfText && c.enumLabels === null && mayHoldText(c.dataType))) personColumn = true;
    if (sense.nameLike) nameColumn = true;
    // A column holds places only when it holds text: `position` or `location_id` numbers are not places, whether its
    // name or its comment ("Manufacturing location where the part is processed") says so.
    if (mayHoldText(c.dataType) && (sense.place || (c.comment !== null && c.comment.toLowerCase().split(/[^a-z]+/).some((w) => w.length >= 4 && lexicon.isPlace(w))))) placeColumns++;
  }
  const head = nameWords[nameWords.length - 1] ?? '';
  // A code-list word as the head (`artist_type`: "type" is also "a person of a specified kind") names kinds, not people.
  if (LOOKUP_WORDS.has(head)) return { person: 0, place: 0 };
  const personNoun = head.length > 0 && lexicon.isPerson(head);
  // A name kept about people of the leading word (`artist_credit (name)`: the artist's name as credited).
  const ownerNoun = nameWords.length >= 2 && lexicon.isPerson(nameWords[0]!);
  const people = personNoun ? (personColumn ? 1 : nameColumn ? 0.7 : 0) : personColumn ? 0.35 : ownerNoun && nameColumn ? OWNED_NAMES : 0;
  // A table of accounts (a password, a last login) holds the application's users; a name in a question is more
  // often one of the people the data is about (MusicBrainz' `editor` beside `artist`).
  // Accounts that carry their holders' own names (`staff (first_name, last_name, password)`) are people of the data who
  // also log in; accounts known by a bare name are users, less surely still.
  const person = table.columns.some((c) => ACCOUNT_COLUMN.test(c.name)) ? people * (personColumn ? ACCOUNT_PEOPLE : ACCOUNT_USERS) : people;
  // A name whose place sense is a later one (`medium`: a means of communication first) holds places less surely,
  // unless the domain thesaurus puts it among places (`country` with `nation`, `address` with `location`).
  const placeName = head.length > 0 ? placeNoun(head, lexicon) : 0;
  const places = placeName > 0 ? placeName : placeColumns === 0 ? 0 : Math.min(0.8, 0.4 + 0.2 * placeColumns);
  // Named after a place but with no text of its own (`release_unknown_country (release, date_year, …)`): the names of
  // its places are elsewhere.
  const place = table.columns.some((c) => !fkCols.has(c.name) && mayHoldText(c.dataType)) ? places : places * TEXTLESS_PLACES;
  return { person, place };
}

/** The other words of the thesaurus groups a word belongs to: the sense the data models mean by it. */
const THESAURUS_PEERS: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const group of THESAURUS) for (const w of group) out.set(w, [...(out.get(w) ?? []), ...group.filter((x) => x !== w)]);
  return out;
})();

/**
 * How surely a noun names a kind of place: 0 when it does not, LATER_PLACES when its place sense is a later one, 1
 * otherwise. A word of a thesaurus group keeps a place sense only when another word of its group has one too: `track`
 * is a song there (with song, tune, recording), not WordNet's path or racecourse; `place` stays a place (with venue,
 * premises), and so does `country` (with nation), though a politically organised people comes first in WordNet.
 */
function placeNoun(word: string, lexicon: Lexicon): number {
  if (!lexicon.isPlace(word)) return 0;
  const peers = THESAURUS_PEERS.get(word) ?? THESAURUS_PEERS.get(lexicon.lemma(word));
  if (peers === undefined) return lexicon.isFirstPlace(word) ? 1 : LATER_PLACES;
  return peers.some((p) => lexicon.isPlace(p)) ? 1 : 0;
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
  const codes = col.codeValues ?? [];
  if (col.enumLabels === null && col.stats === null && codes.length === 0) return;
  const distinct = col.stats?.distinctEstimate ?? null;
  // A code list's labels are the whole (bounded) value set of a small table; other columns are categorical only
  // when they have few distinct values.
  const common = distinct !== null && distinct > MAX_VALUE_CARDINALITY ? [] : (col.stats?.mostCommonValues ?? []);
  const seen = new Set<string>();
  for (const v of [...(col.enumLabels ?? []), ...codes, ...common]) {
    const trimmed = v.trim().toLowerCase();
    if (trimmed.length < 2 || trimmed.length > MAX_VALUE_LENGTH || /^[\d.\-:/ ]+$/.test(trimmed)) continue;
    const key = valueKey(trimmed);
    if (key.length < 2 || seen.has(key)) continue;
    seen.add(key);
    const list = values.get(key);
    const entry = { d, column: col.name, value: v.trim() };
    if (list === undefined) values.set(key, [entry]);
    else list.push(entry);
  }
}

/**
 * Values are keyed by their stemmed words, so an inflected question word reaches the stored label
 * ("documentaries" → 'Documentary', "refunded" → 'refund'); query probes go through the same function.
 */
export function valueKey(text: string): string {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  return words.map((w) => stem(w)).join(' ');
}

/** Share of its place strength kept by a table that looks like a place but joins no table of places (below). */
const ISOLATED_PLACES = 0.25;
/** The place strength above which a neighbour vouches for a table of places (a textless or later-sense one does not). */
const LINKING_PLACE = 0.5;

/**
 * Where a source keeps its places as a structure (an address points at a city, a state at its country), a table that
 * looks like a place but joins none of them is something else that bears a place word: a factory's work centre
 * (AdventureWorks' `production.location`), the `locale` of an alias table. It keeps ISOLATED_PLACES of its place
 * strength, so a named place ("in France", "Icelandic") reaches the tables of places first. A source without such a
 * structure (one table of cities, or none linked) keeps its strengths as they are.
 */
function isolatedPlaces(placeTable: Float32Array, edges: readonly (readonly EdgeData[])[], sourceOf: (d: number) => string): void {
  const linked = (d: number): boolean => edges[d]!.some((e) => e.to !== d && placeTable[e.to]! > LINKING_PLACE);
  const structured = new Set<string>();
  const isolated: number[] = [];
  for (let d = 0; d < placeTable.length; d++) {
    if (placeTable[d]! <= 0) continue;
    if (linked(d)) structured.add(sourceOf(d));
    else isolated.push(d);
  }
  for (const d of isolated) if (structured.has(sourceOf(d))) placeTable[d] = placeTable[d]! * ISOLATED_PLACES;
}

function buildEdges(tables: readonly TableInfo[], sources: readonly string[], byKey: ReadonlyMap<string, number>): EdgeData[][] {
  const edges: EdgeData[][] = tables.map(() => []);
  const targetOf = (d: number, fk: ForeignKeyInfo): number | undefined => byKey.get(`${sources[d]}\u0000${fk.targetSchema}.${fk.targetTable}`);
  tables.forEach((t, d) => {
    for (const fk of t.foreignKeys) {
      const to = targetOf(d, fk);
      if (to === undefined) continue;
      const base = { constraint: fk.name, subtype: isSubtypeKey(t, fk.columns) };
      edges[d]!.push({ ...base, to, outgoing: true, fromColumns: fk.columns, toColumns: fk.targetColumns });
      if (to !== d) edges[to]!.push({ ...base, to: d, outgoing: false, fromColumns: fk.columns, toColumns: fk.targetColumns });
    }
  });
  addImpliedEdges(tables.length, (d) => tables[d]!.foreignKeys, targetOf, edges, (d, columns) => isSubtypeKey(tables[d]!, columns));
  return edges;
}

/** Whether `columns` (a key of `table` to another) are the whole primary key of `table` (EdgeData.subtype). */
function isSubtypeKey(table: TableInfo, columns: readonly string[]): boolean {
  const pk = table.primaryKey?.columns ?? [];
  return pk.length > 0 && pk.length === columns.length && pk.every((c) => columns.includes(c));
}

/** The table names its rows: a text column called `…name` or `title` (DocData.hasName). */
function hasNameColumn(table: TableInfo): boolean {
  return table.columns.some((c) => /name$|^title$/i.test(c.name) && mayHoldText(c.dataType));
}

/** The table keeps its rows in order within something: a column says where (DocData.ordered). */
function hasOrderColumn(table: TableInfo): boolean {
  return table.columns.some((c) => ORDER_COLUMN.test(c.name));
}
const ORDER_COLUMN = /^(?:position|sequence|seq|line_?number|ordinal)$/i;

/**
 * A key of several columns that points at a junction's key points, through those columns, at the junction's own
 * targets too: AdventureWorks' `salesorderdetail (specialofferid, productid)` → `specialofferproduct` names a product
 * as surely as a `productid` of its own would. The implied edge joins on the same columns, comes after the declared
 * ones, and says which two keys imply it (EdgeData.implied), so a persisted frame can keep it.
 */
function addImpliedEdges(
  n: number,
  keysOf: (d: number) => readonly ForeignKeyInfo[],
  targetOf: (d: number, fk: ForeignKeyInfo) => number | undefined,
  edges: EdgeData[][],
  subtypeOf: (d: number, columns: readonly string[]) => boolean,
): void {
  for (let d = 0; d < n; d++) {
    keysOf(d).forEach((fk, fkIndex) => {
      if (fk.columns.length < 2) return;
      const junction = targetOf(d, fk);
      if (junction === undefined || junction === d) return;
      keysOf(junction).forEach((g, key) => {
        const to = targetOf(junction, g);
        if (to === undefined || to === d || to === junction) return;
        const fromColumns = impliedColumns(fk, g);
        if (fromColumns === null) return;
        if (edges[d]!.some((e) => e.outgoing && e.to === to && e.fromColumns.join('\u0000') === fromColumns.join('\u0000'))) return;
        const implied = { fk: fkIndex, junction, key };
        const constraint = impliedName(fk, g);
        const subtype = subtypeOf(d, fromColumns);
        edges[d]!.push({ to, outgoing: true, fromColumns, toColumns: g.targetColumns, constraint, implied, subtype });
        edges[to]!.push({ to: d, outgoing: false, fromColumns, toColumns: g.targetColumns, constraint, implied, subtype });
      });
    });
  }
}

/** The columns of `fk` that hold the key `through` follows on from `fk`'s target, in its order; null if it holds not all. */
export function impliedColumns(fk: ForeignKeyInfo, through: ForeignKeyInfo): string[] | null {
  const at = through.columns.map((c) => fk.targetColumns.indexOf(c));
  return at.some((i) => i < 0) ? null : at.map((i) => fk.columns[i]!);
}

/** The name a join tree gives an implied edge: the two declared keys it follows. */
export function impliedName(fk: ForeignKeyInfo, through: ForeignKeyInfo): string {
  return `${fk.name} (through ${through.name})`;
}

/**
 * The lexicon with the catalog's own words added for splitting. Among splits of a run-together name into as few
 * pieces, the one with more of the catalog's words (its pieces and its tables' names) wins: `ratechangedate` is
 * `rate change date` where the catalog writes `date`, not `rate changed ate`. `names` are the tables' and the
 * columns' names: a name of one word (`owner`, `setlist`) is a word the catalog writes too.
 */
export function withCatalogWords(lexicon: Lexicon, extra: ReadonlySet<string>, tableNames: Iterable<string> = []): Lexicon {
  const names = new Set<string>();
  for (const name of tableNames) if (/^[a-z]{3,}$/.test(name)) names.add(name);
  if (extra.size === 0 && names.size === 0) return lexicon;
  return { ...lexicon, has: (w) => extra.has(w) || lexicon.has(w), inCatalog: (w) => extra.has(w) || names.has(w) };
}

/**
 * Words of the catalog itself join the WordNet vocabulary for splitting run-together names: underscore/camel
 * pieces of any identifier and words of comments, so a schema that spells `order_header` somewhere can split
 * `orderheader` elsewhere.
 */
export function catalogWords(input: BuildSearchIndexInput): Set<string> {
  const extra = new Set<string>();
  const seenNames = new Set<string>();
  const addPieces = (name: string): void => {
    if (seenNames.has(name)) return;
    seenNames.add(name);
    const pieces = splitIdentifierRaw(name);
    if (pieces.length < 2) return;
    for (const p of pieces) if (p.length >= 3 && /^[a-z]+$/.test(p)) extra.add(p);
  };
  // A comment's words as written: a camel-case one is an identifier ("S = SalesOrder"), whose pieces are the words.
  const addComment = (text: string): void => {
    for (const w of text.match(/[A-Za-z]{3,}/g) ?? []) for (const p of splitIdentifierRaw(w)) if (p.length >= 3) extra.add(p);
  };
  for (const { table } of input.tables) {
    addPieces(table.name);
    for (const c of table.columns) {
      addPieces(c.name);
      if (c.comment) addComment(c.comment);
    }
    if (table.comment) addComment(table.comment);
  }
  // A comment that names another table ("See SalesOrderHeader") must not make that name a word of its own.
  for (const name of seenNames) extra.delete(name.toLowerCase());
  return extra;
}
