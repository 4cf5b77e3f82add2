/**
 * Persisting a search index so that a process loads it instead of building it. Two parts:
 * - the postings and concept map (tokenisation and lexicon look-ups), valid for any input with the same
 *   fingerprint (every input that shaped them); deserializeIndex checks it against tables in memory and recomputes
 *   the frame (docs, FK graph, value index, semantic classes) from them;
 * - the frame itself, ready to use (PersistedFrame), with a stamp saying which catalog it was built for: the
 *   catalog generation the indexer saved it with and the PII decisions it made. openPersistedIndex checks only the
 *   stamp, so it needs no table in memory: relation bodies are read when a hit is explained.
 *
 * Layout: `SBSI<format>` and a newline, one JSON object (the header below) and a newline, spaces up to a multiple of
 * four bytes, then the binary part: little-endian arrays of 32-bit numbers the header names by [offset, count] in
 * 4-byte words from its start (the postings: Int32 `start`, terms + 1; Int32 `doc` and Float32 `sat`, one per posting;
 * and the frame's per-doc and per-edge arrays), and one UTF-8 text (the docs' words). The arrays are used where they
 * lie, with no text to decode: at 10,000 tables the header is 0.55 MB of JSON and the binary part 3.6 MB, where the
 * same index as JSON with base64 arrays made 5.3 MB to read and parse.
 */
import { WORDNET_SOURCE } from './data/wordnet-data';
import { INDEX_FORMAT } from './format';
import { allNameDocs, assemble, buildFrame, impliedColumns, impliedName, withCatalogWords, type DocData, type EdgeData, type IndexBody, type IndexData, type IndexFrame, type TableRole, type ValueEntry } from './build';
import { loadLexicon, type Lexicon } from './lexicon';
import type { ForeignKeyInfo, PiiTag, TableInfo } from '../catalog/model';
import { formatName } from '../catalog/names';
import type { BuildSearchIndexInput } from './types';

const MAGIC = 'SBSI';
export { INDEX_FORMAT };

interface Header {
  readonly format: number;
  readonly fingerprint: string;
  readonly tables: number;
  readonly terms: readonly string[];
  /** [concept, term ids, surface words] */
  readonly concepts: ReadonlyArray<readonly [string, readonly number[], readonly string[]]>;
  readonly postings: number;
  /** Byte length of the binary part. */
  readonly binary: number;
  readonly start: Section;
  readonly doc: Section;
  readonly sat: Section;
  /** Absent when the index was built with entities or metrics (a frame is persisted for catalog tables only). */
  readonly frame?: PersistedFrame;
  readonly stamp?: IndexStamp | null;
}

/** Which catalog a persisted frame belongs to. */
export interface IndexStamp {
  /** The catalog generation the index was saved with: any later write of the catalog changes it. */
  readonly generation: number;
  /** Every distinct PII tag of the catalog's columns and whether the indexer's policy left its column out. */
  readonly tags: ReadonlyArray<readonly [PiiTag, boolean]>;
}

/**
 * The frame (build.ts, IndexFrame) in a compact JSON form, in doc order: few objects to create on load (the cost of
 * a cold start is mostly allocation), per-doc and per-edge numbers as arrays of the binary part, the docs' words as
 * one text of it (a doc's part is cut out and split when the doc is first used), FK column lists left to the tables
 * (read when a join tree names them).
 */
interface PersistedFrame {
  readonly lexicon: string;
  readonly sources: readonly string[];
  /** Int32 per doc: its source index. */
  readonly source: Section;
  /** The distinct schemas; `schema`, Int32 per doc: its schema's index here. */
  readonly schemas: readonly string[];
  readonly schema: Section;
  readonly names: readonly string[];
  /**
   * Text of the binary part: per doc, nameWords, nameStems, nameParts, auxWords (words joined by a space) joined by
   * SEP, the docs one after another; `wordsAt`, Int32 per doc and one more: where each doc's text starts in it.
   */
  readonly words: Section;
  readonly wordsAt: Section;
  /** One character per doc: the initial of its role, upper case for a junction (isBridge). */
  readonly kinds: string;
  /** The docs that are views or materialized views (DocData.derived). */
  readonly derived: readonly number[];
  /** Int32 triples [from doc, to doc, index of the FK in the from table's foreignKeys], as buildEdges added them. */
  readonly fks: Section;
  /**
   * Int32 quintuples [from doc, to doc, index of the composite FK in the from table's foreignKeys, junction doc, index
   * of the junction's FK], for the edges addImpliedEdges added after the declared ones, in their order.
   */
  readonly implied: Section;
  /** The edges of `fks` then `implied`, counted in that order, whose key is its table's whole primary key (EdgeData.subtype). */
  readonly subtypes: readonly number[];
  /** The docs whose tables name their rows (DocData.hasName). */
  readonly named: readonly number[];
  /** The docs whose tables keep their rows in order (DocData.ordered). */
  readonly ordered: readonly number[];
  readonly values: ReadonlyArray<readonly [string, ReadonlyArray<readonly [number, string, string]>]>;
  /** Int32 per doc. */
  readonly order: Section;
  /** Float32 per doc. */
  readonly person: Section;
  readonly place: Section;
  readonly catalogWords: readonly string[];
  readonly columnNames: readonly string[];
  /** Concept ids of every catalog word the build looked up (build.ts, conceptCache): ranking asks for them again. */
  readonly wordConcepts: ReadonlyArray<readonly [string, readonly string[]]>;
  readonly roles: ReadonlyArray<readonly [number, ReadonlyArray<readonly [string, string]>]>;
  /** IndexFrame.nameDocs: [stem, ascending docs]. */
  readonly nameDocs: ReadonlyArray<readonly [string, readonly number[]]>;
}

const SEP = '\u0001';

/** An array of the binary part: [offset, count], both in 4-byte words; for a text, [offset in words, bytes of UTF-8]. */
type Section = readonly [number, number];

/** Collects the arrays of the binary part as they are named. */
class BinaryWriter {
  private readonly parts: Array<Int32Array | Float32Array> = [];
  private words = 0;

  add(a: Int32Array | Float32Array): Section {
    this.parts.push(a);
    const at: Section = [this.words, a.length];
    this.words += a.length;
    return at;
  }

  /** A text as UTF-8, padded to a whole number of words. */
  addText(text: string): Section {
    const bytes = Buffer.from(text, 'utf8');
    const padded = new Uint8Array((bytes.length + 3) & ~3).fill(0x20);
    padded.set(bytes);
    this.parts.push(new Int32Array(padded.buffer));
    const at: Section = [this.words, bytes.length];
    this.words += padded.length / 4;
    return at;
  }

  /** The whole layout: prefix, header JSON, newline, padding, arrays. */
  encode(prefix: string, header: object): Uint8Array {
    const head = Buffer.from(`${prefix}${JSON.stringify({ ...header, binary: this.words * 4 })}\n`, 'utf8');
    const at = (head.length + 3) & ~3;
    const out = new Uint8Array(at + this.words * 4);
    out.set(head, 0);
    out.fill(0x20, head.length, at);
    let offset = at;
    for (const a of this.parts) {
      out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offset);
      offset += a.byteLength;
    }
    return out;
  }
}

/** The arrays of a binary part: each read where it lies when aligned, else copied; null for a section out of range. */
class BinaryReader {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly at: number,
  ) {}

  /** Where a section's bytes lie in `bytes` (`unit` bytes per counted item), or null when it is malformed or out of range. */
  private range(s: unknown, unit: number): { from: number; to: number } | null {
    if (!Array.isArray(s) || s.length !== 2 || !s.every((n) => Number.isInteger(n) && n >= 0)) return null;
    const [word, count] = s as [number, number];
    const from = this.at + word * 4;
    const to = from + count * unit;
    return to > this.bytes.length ? null : { from, to };
  }

  private array<T>(s: unknown, make: (buffer: ArrayBufferLike, offset: number, count: number) => T): T | null {
    const r = this.range(s, 4);
    if (r === null) return null;
    const offset = this.bytes.byteOffset + r.from;
    if (offset % 4 === 0) return make(this.bytes.buffer, offset, (r.to - r.from) / 4);
    return make(this.bytes.slice(r.from, r.to).buffer, 0, (r.to - r.from) / 4);
  }

  i32(s: unknown): Int32Array | null {
    return this.array(s, (buffer, offset, count) => new Int32Array(buffer, offset, count));
  }

  f32(s: unknown): Float32Array | null {
    return this.array(s, (buffer, offset, count) => new Float32Array(buffer, offset, count));
  }

  text(s: unknown): string | null {
    const r = this.range(s, 1);
    if (r === null) return null;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(r.from, r.to));
    } catch {
      return null;
    }
  }
}

function persistFrame(data: IndexData, bin: BinaryWriter): PersistedFrame {
  const sources: string[] = [];
  const sourceIdx = new Map<string, number>();
  const n = data.docs.length;
  const source = new Int32Array(n);
  data.docs.forEach((d, i) => {
    let si = sourceIdx.get(d.source);
    if (si === undefined) {
      si = sources.length;
      sources.push(d.source);
      sourceIdx.set(d.source, si);
    }
    source[i] = si;
  });
  const fks: number[] = [];
  const implied: number[] = [];
  const declaredSubtypes: number[] = [];
  const impliedSubtypes: number[] = [];
  data.edges.forEach((list, d) => {
    const own = data.docs[d]!.table.foreignKeys;
    for (const e of list) {
      if (!e.outgoing) continue;
      if (e.implied !== undefined) {
        if (e.subtype) impliedSubtypes.push(implied.length / 5);
        implied.push(d, e.to, e.implied.fk, e.implied.junction, e.implied.key);
      } else {
        if (e.subtype) declaredSubtypes.push(fks.length / 3);
        fks.push(d, e.to, own.findIndex((fk) => fk.columns === e.fromColumns && fk.name === e.constraint));
      }
    }
  });
  if (fks.some((k) => k < 0)) throw new Error('search index: an FK edge has no foreign key of its table');
  const subtypes = [...declaredSubtypes, ...impliedSubtypes.map((i) => fks.length / 3 + i)];
  const schemas: string[] = [];
  const schemaIdx = new Map<string, number>();
  const schema = Int32Array.from(data.docs, (d) => {
    let i = schemaIdx.get(d.schema);
    if (i === undefined) schemaIdx.set(d.schema, (i = schemas.push(d.schema) - 1));
    return i;
  });
  const packed = data.docs.map((d) => [d.nameWords.join(' '), d.nameStems.join(' '), d.nameParts.join(' '), d.auxWords.join(' ')].join(SEP));
  const wordsAt = new Int32Array(n + 1);
  packed.forEach((w, i) => (wordsAt[i + 1] = wordsAt[i]! + w.length));
  const roles: Array<[number, Array<[string, string]>]> = [];
  data.roleWords.forEach((list, d) => list && roles.push([d, list.map((r) => [r.word, r.via])]));
  return {
    lexicon: WORDNET_SOURCE,
    sources,
    source: bin.add(source),
    schemas,
    schema: bin.add(schema),
    names: data.docs.map((d) => d.name),
    words: bin.addText(packed.join('')),
    wordsAt: bin.add(wordsAt),
    kinds: data.docs.map((d) => (d.isBridge ? d.role[0]!.toUpperCase() : d.role[0]!)).join(''),
    derived: data.docs.flatMap((d, i) => (d.derived ? [i] : [])),
    fks: bin.add(Int32Array.from(fks)),
    implied: bin.add(Int32Array.from(implied)),
    subtypes,
    named: data.docs.flatMap((d, i) => (d.hasName ? [i] : [])),
    ordered: data.docs.flatMap((d, i) => (d.ordered ? [i] : [])),
    values: [...data.values].map(([k, list]) => [k, list.map((v) => [v.d, v.column, v.value] as const)] as const),
    order: bin.add(data.order),
    person: bin.add(data.personTable),
    place: bin.add(data.placeTable),
    catalogWords: [...data.catalogWords],
    columnNames: data.columnNames,
    wordConcepts: [...data.conceptCache],
    roles,
    nameDocs: [...(data.nameDocs ?? allNameDocs(data))],
  };
}

const ROLES: Readonly<Record<string, TableRole>> = { e: 'entity', l: 'lookup', b: 'bridge', a: 'auxiliary' };

const split = (w: string): string[] => (w.length === 0 ? [] : w.split(' '));

/** A doc of a persisted frame: its words are unpacked, and its table read, when first needed. */
class StoredDoc implements DocData {
  readonly qualifiedName: string;
  readonly semantic: DocData['semantic'] = [];
  private unpacked: { nameWords: string[]; nameStems: string[]; nameParts: string[]; auxWords: string[] } | undefined;
  private loaded: TableInfo | undefined;

  constructor(
    readonly source: string,
    readonly schema: string,
    readonly name: string,
    readonly role: TableRole,
    readonly isBridge: boolean,
    readonly derived: boolean,
    readonly hasName: boolean,
    readonly ordered: boolean,
    /** The frame's words text, and where this doc's part of it starts and ends. */
    private readonly words: string,
    private readonly from: number,
    private readonly to: number,
    private readonly d: number,
    private readonly load: (d: number) => TableInfo,
  ) {
    this.qualifiedName = `${schema}.${name}`;
  }

  private get w(): NonNullable<StoredDoc['unpacked']> {
    if (this.unpacked === undefined) {
      const [nameWords = '', nameStems = '', nameParts = '', auxWords = ''] = this.words.slice(this.from, this.to).split(SEP);
      this.unpacked = { nameWords: split(nameWords), nameStems: split(nameStems), nameParts: split(nameParts), auxWords: split(auxWords) };
    }
    return this.unpacked;
  }

  get nameWords(): readonly string[] {
    return this.w.nameWords;
  }
  get nameStems(): readonly string[] {
    return this.w.nameStems;
  }
  get nameParts(): readonly string[] {
    return this.w.nameParts;
  }
  get auxWords(): readonly string[] {
    return this.w.auxWords;
  }
  get table(): TableInfo {
    return (this.loaded ??= this.load(this.d));
  }
}

/** An FK edge of a persisted frame: its column lists and constraint name are read from the FK's table when used. */
class StoredEdge implements EdgeData {
  constructor(
    readonly to: number,
    readonly outgoing: boolean,
    private readonly owner: DocData,
    private readonly fk: number,
    readonly subtype: boolean,
  ) {}

  private get key(): ForeignKeyInfo {
    return this.owner.table.foreignKeys[this.fk]!;
  }
  get fromColumns(): readonly string[] {
    return this.key.columns;
  }
  get toColumns(): readonly string[] {
    return this.key.targetColumns;
  }
  get constraint(): string {
    return this.key.name;
  }
}

/** An implied edge of a persisted frame (see addImpliedEdges): its columns are read from the two keys when used. */
class StoredImpliedEdge implements EdgeData {
  constructor(
    readonly to: number,
    readonly outgoing: boolean,
    private readonly owner: DocData,
    private readonly junction: DocData,
    readonly implied: { readonly fk: number; readonly junction: number; readonly key: number },
    readonly subtype: boolean,
  ) {}

  private get fk(): ForeignKeyInfo {
    return this.owner.table.foreignKeys[this.implied.fk]!;
  }
  private get key(): ForeignKeyInfo {
    return this.junction.table.foreignKeys[this.implied.key]!;
  }
  get fromColumns(): readonly string[] {
    return impliedColumns(this.fk, this.key) ?? [];
  }
  get toColumns(): readonly string[] {
    return this.key.targetColumns;
  }
  get constraint(): string {
    return impliedName(this.fk, this.key);
  }
}

/** The frame from its persisted form, or null when it is malformed; `table(d)` gives a doc's table on first use. */
function restoreFrame(f: PersistedFrame, bin: BinaryReader, lexicon: Lexicon, table: (d: number) => TableInfo): IndexFrame | null {
  const n = f.names.length;
  const source = bin.i32(f.source);
  const fks = bin.i32(f.fks);
  const implied = bin.i32(f.implied);
  const order = bin.i32(f.order);
  const personTable = bin.f32(f.person);
  const placeTable = bin.f32(f.place);
  const schema = bin.i32(f.schema);
  const words = bin.text(f.words);
  const wordsAt = bin.i32(f.wordsAt);
  if (!source || !fks || !implied || implied.length % 5 !== 0 || !order || !personTable || !placeTable || !schema || words === null || !wordsAt || !Array.isArray(f.schemas) || typeof f.kinds !== 'string' || f.kinds.length !== n) return null;
  if (source.length !== n || order.length !== n || personTable.length !== n || placeTable.length !== n || schema.length !== n || wordsAt.length !== n + 1 || fks.length % 3 !== 0) return null;
  if (wordsAt[0] !== 0 || wordsAt[n] !== words.length || schema.some((i) => f.schemas[i] === undefined)) return null;
  for (let d = 0; d < n; d++) if (wordsAt[d + 1]! < wordsAt[d]!) return null;
  const indices = (list: unknown, end: number): list is number[] => Array.isArray(list) && list.every((i) => Number.isInteger(i) && i >= 0 && i < end);
  if (!indices(f.derived, n) || !indices(f.named, n) || !indices(f.ordered, n) || !indices(f.subtypes, fks.length / 3 + implied.length / 5)) return null;
  if (!Array.isArray(f.nameDocs) || !f.nameDocs.every((e) => Array.isArray(e) && typeof e[0] === 'string' && indices(e[1], n))) return null;
  const derived = new Set(f.derived);
  const named = new Set(f.named);
  const ordered = new Set(f.ordered);
  const subtypes = new Set(f.subtypes);
  const docs: StoredDoc[] = new Array<StoredDoc>(n);
  for (let d = 0; d < n; d++) {
    const kind = f.kinds.charCodeAt(d);
    const bridge = kind < 97; // upper case
    const role = ROLES[String.fromCharCode(bridge ? kind + 32 : kind)];
    if (role === undefined) return null;
    docs[d] = new StoredDoc(f.sources[source[d]!]!, f.schemas[schema[d]!]!, f.names[d]!, role, bridge, derived.has(d), named.has(d), ordered.has(d), words, wordsAt[d]!, wordsAt[d + 1]!, d, table);
  }
  const edges: EdgeData[][] = docs.map(() => []);
  for (let i = 0; i < fks.length; i += 3) {
    const from = fks[i]!;
    const to = fks[i + 1]!;
    if (from < 0 || from >= n || to < 0 || to >= n || fks[i + 2]! < 0) return null;
    const owner = docs[from]!;
    const subtype = subtypes.has(i / 3);
    edges[from]!.push(new StoredEdge(to, true, owner, fks[i + 2]!, subtype));
    if (to !== from) edges[to]!.push(new StoredEdge(from, false, owner, fks[i + 2]!, subtype));
  }
  for (let i = 0; i < implied.length; i += 5) {
    const [from, to, fk, junction, key] = [implied[i]!, implied[i + 1]!, implied[i + 2]!, implied[i + 3]!, implied[i + 4]!];
    if ([from, to, junction].some((d) => d < 0 || d >= n) || fk < 0 || key < 0) return null;
    const via = { fk, junction, key };
    const subtype = subtypes.has(fks.length / 3 + i / 5);
    edges[from]!.push(new StoredImpliedEdge(to, true, docs[from]!, docs[junction]!, via, subtype));
    edges[to]!.push(new StoredImpliedEdge(from, false, docs[from]!, docs[junction]!, via, subtype));
  }
  const values = new Map<string, ValueEntry[]>();
  for (const [k, list] of f.values) values.set(k, list.map(([d, column, value]) => ({ d, column, value })));
  const nonZero = (a: Float32Array): Int32Array => {
    const out: number[] = [];
    for (let d = 0; d < a.length; d++) if (a[d]! > 0) out.push(d);
    return Int32Array.from(out);
  };
  const roleWords: Array<Array<{ word: string; via: string }> | undefined> = new Array(n);
  for (const [d, list] of f.roles) roleWords[d] = list.map(([word, via]) => ({ word, via }));
  const catalogWords = new Set(f.catalogWords);
  const bridges: number[] = [];
  for (let d = 0; d < n; d++) if (docs[d]!.isBridge) bridges.push(d);
  return {
    docs,
    values,
    edges,
    bridges,
    order,
    personTable,
    placeTable,
    personDocs: nonZero(personTable),
    placeDocs: nonZero(placeTable),
    vocab: withCatalogWords(lexicon, catalogWords, [...f.names, ...f.columnNames]),
    catalogWords,
    columnNames: f.columnNames,
    roleWords,
    nameDocs: new Map(f.nameDocs),
    maxDegree: edges.reduce((m, e) => Math.max(m, e.length), 0),
  };
}

export function encodeBody(data: IndexData, input: BuildSearchIndexInput, stamp: IndexStamp | null = null): Uint8Array {
  const { termIds, start, doc, sat } = data.postings;
  const terms: string[] = new Array<string>(termIds.size);
  for (const [t, id] of termIds) terms[id] = t;
  const concepts: Array<[string, number[], string[]]> = [];
  for (const [c, words] of data.conceptTerms) concepts.push([c, [...words.keys()].map((t) => termIds.get(t)!), [...words.values()]]);
  const plain = (input.entities ?? []).length === 0 && (input.metrics ?? []).length === 0;
  const bin = new BinaryWriter();
  const header: Omit<Header, 'binary'> = {
    format: INDEX_FORMAT,
    fingerprint: fingerprint(input),
    tables: data.docs.length,
    terms,
    concepts,
    postings: doc.length,
    start: bin.add(start),
    doc: bin.add(doc),
    sat: bin.add(sat),
    ...(plain ? { frame: persistFrame(data, bin), stamp } : {}),
  };
  return bin.encode(`${MAGIC}${INDEX_FORMAT}\n`, header);
}

interface Parsed {
  readonly header: Header;
  readonly bin: BinaryReader;
  readonly body: IndexBody;
}

function parse(bytes: Uint8Array): Parsed | null {
  const prefix = `${MAGIC}${INDEX_FORMAT}\n`;
  if (!(bytes instanceof Uint8Array) || bytes.length < prefix.length || Buffer.from(bytes.buffer, bytes.byteOffset, prefix.length).toString('latin1') !== prefix) return null;
  const end = bytes.indexOf(0x0a, prefix.length);
  if (end < 0) return null;
  const at = (end + 1 + 3) & ~3;
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(prefix.length, end))) as Header;
  } catch {
    return null;
  }
  if (header === null || typeof header !== 'object' || header.format !== INDEX_FORMAT || !Array.isArray(header.terms as unknown) || !Array.isArray(header.concepts as unknown)) return null;
  if (bytes.length !== at + header.binary) return null;
  const bin = new BinaryReader(bytes, at);
  const [start, doc, sat] = [bin.i32(header.start), bin.i32(header.doc), bin.f32(header.sat)];
  const terms = header.terms.length;
  if (!start || !doc || !sat || start.length !== terms + 1 || doc.length !== header.postings || sat.length !== header.postings) return null;
  const termIds = new Map<string, number>();
  header.terms.forEach((t, i) => termIds.set(t, i));
  const conceptTerms = new Map<string, Map<string, string>>();
  for (const [c, ids, surfaces] of header.concepts) {
    const words = new Map<string, string>();
    ids.forEach((id, i) => words.set(header.terms[id]!, surfaces[i]!));
    conceptTerms.set(c, words);
  }
  return { header, bin, body: { postings: { termIds, start, doc, sat }, conceptTerms } };
}

/** The index data for `input` from bytes written by encodeBody, or null when they do not belong to it. */
export function decodeBody(bytes: Uint8Array, input: BuildSearchIndexInput): IndexData | null {
  const parsed = parse(bytes);
  if (parsed === null) return null;
  const { header, body } = parsed;
  if (header.tables !== input.tables.length || header.fingerprint !== fingerprint(input)) return null;
  const lexicon = input.lexicon ?? loadLexicon();
  return assemble(buildFrame(input, lexicon), body, lexicon);
}

/** The catalog a persisted frame is checked against, without its tables in memory. */
export interface StampedCatalog {
  readonly generation: number;
  /** Source and qualified name (formatName(schema, table)) of each relation, in the order the index input lists them. */
  readonly tables: ReadonlyArray<{ readonly source: { readonly name: string }; readonly qualifiedName: string }>;
  /** Whether this process leaves a column with that tag out of the index (as searchInput is told). */
  readonly isBlocked: (tag: PiiTag) => boolean;
  /** The table of doc `d` as the index input would hold it (blocked columns left out); called on first use. */
  readonly table: (d: number) => TableInfo;
}

/**
 * The index data from bytes whose frame was persisted for this very catalog (same generation, same tables in the
 * same order, same PII decisions), or null; no table is read until a hit is explained.
 */
export function decodeStamped(bytes: Uint8Array, catalog: StampedCatalog): IndexData | null {
  const parsed = parse(bytes);
  if (parsed === null) return null;
  const { header, bin, body } = parsed;
  const { frame, stamp } = header;
  if (!frame || !stamp || stamp.generation !== catalog.generation || frame.lexicon !== WORDNET_SOURCE) return null;
  if (header.tables !== catalog.tables.length || frame.names.length !== catalog.tables.length) return null;
  for (const [tag, blocked] of stamp.tags) if (catalog.isBlocked(tag) !== blocked) return null;
  const lexicon = loadLexicon();
  const restored = restoreFrame(frame, bin, lexicon, catalog.table);
  if (restored === null) return null;
  for (let d = 0; d < restored.docs.length; d++) {
    const doc = restored.docs[d]!;
    const t = catalog.tables[d]!;
    if (t.source.name !== doc.source || (t.qualifiedName !== doc.qualifiedName && t.qualifiedName !== formatName(doc.schema, doc.name))) return null;
  }
  const conceptCache = new Map<string, readonly string[]>(Array.isArray(frame.wordConcepts) ? frame.wordConcepts : []);
  return assemble(restored, body, lexicon, undefined, conceptCache);
}

/**
 * FNV-1a over everything the postings depend on: sources, schema and table names, comments, column names and
 * comments, entities and metrics, the lexicon source and the format. Not cryptographic; it detects change.
 */
function fingerprint(input: BuildSearchIndexInput): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  const mix = (s: string | null | undefined): void => {
    const v = s ?? '\u0001';
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    h1 = Math.imul(h1 ^ 0xff, 0x01000193);
    h2 = Math.imul(h2 ^ 0xff, 0x5bd1e995);
  };
  mix(WORDNET_SOURCE);
  mix(String(INDEX_FORMAT));
  for (const { sourceName, table } of input.tables) {
    mix(sourceName);
    mix(table.schema);
    mix(table.name);
    mix(table.comment);
    for (const c of table.columns) {
      mix(c.name);
      mix(c.comment);
    }
  }
  for (const e of input.entities ?? []) [e.name, e.description, e.table, e.sourceName].forEach(mix);
  for (const m of input.metrics ?? []) [m.name, m.description, m.entity].forEach(mix);
  return `${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}`;
}
