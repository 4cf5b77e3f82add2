/**
 * Persisting the expensive part of a search index (postings and concept map: tokenisation and lexicon look-ups),
 * so that a process can load it instead of rebuilding it. The frame (docs, FK graph, value index, semantic
 * classes) is recomputed from the same tables, which is a cheap linear pass. The bytes carry a fingerprint of
 * every input that shaped the postings; loading against different tables returns null and the caller rebuilds.
 *
 * Layout (little-endian): "SBSI", u32 format, u32 header length, UTF-8 JSON header, zero padding to 4 bytes,
 * then Int32 `start` (terms + 1), Int32 `doc` (postings), Float32 `sat` (postings).
 */
import { WORDNET_SOURCE } from './data/wordnet-data';
import { assemble, buildFrame, type IndexBody, type IndexData } from './build';
import { loadLexicon } from './lexicon';
import type { BuildSearchIndexInput } from './types';

const MAGIC = 0x49534253; // "SBSI" read as a little-endian u32
/** Bump when the tokeniser, the BM25F constants or the layout change: old bytes then fail to load. */
export const INDEX_FORMAT = 4;

interface Header {
  readonly format: number;
  readonly fingerprint: string;
  readonly tables: number;
  readonly terms: readonly string[];
  /** [concept, term ids, surface words] */
  readonly concepts: ReadonlyArray<readonly [string, readonly number[], readonly string[]]>;
  readonly postings: number;
}

export function encodeBody(data: IndexData, input: BuildSearchIndexInput): Uint8Array {
  const { termIds, start, doc, sat } = data.postings;
  const terms: string[] = new Array<string>(termIds.size);
  for (const [t, id] of termIds) terms[id] = t;
  const concepts: Array<[string, number[], string[]]> = [];
  for (const [c, words] of data.conceptTerms) concepts.push([c, [...words.keys()].map((t) => termIds.get(t)!), [...words.values()]]);
  const header: Header = { format: INDEX_FORMAT, fingerprint: fingerprint(input), tables: data.docs.length, terms, concepts, postings: doc.length };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const headLen = 12 + json.length;
  const pad = (4 - (headLen % 4)) % 4;
  const total = headLen + pad + 4 * (start.length + doc.length + sat.length);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, INDEX_FORMAT, true);
  view.setUint32(8, json.length, true);
  out.set(json, 12);
  let at = headLen + pad;
  for (const arr of [start, doc, sat]) {
    out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), at);
    at += arr.byteLength;
  }
  return out;
}

/** The index data for `input` from bytes written by encodeBody, or null when they do not belong to it. */
export function decodeBody(bytes: Uint8Array, input: BuildSearchIndexInput): IndexData | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== INDEX_FORMAT) return null;
  const jsonLen = view.getUint32(8, true);
  if (12 + jsonLen > bytes.length) return null;
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLen))) as Header;
  } catch {
    return null;
  }
  if (header.format !== INDEX_FORMAT || header.tables !== input.tables.length || header.fingerprint !== fingerprint(input)) return null;
  const headLen = 12 + jsonLen;
  const base = headLen + ((4 - (headLen % 4)) % 4);
  const terms = header.terms.length;
  if (base + 4 * (terms + 1 + 2 * header.postings) !== bytes.length) return null;
  // Copy into fresh, aligned buffers: the input may be a view at any offset of a larger buffer.
  const slice = (from: number, count: number): ArrayBuffer => bytes.slice(base + 4 * from, base + 4 * (from + count)).buffer;
  const start = new Int32Array(slice(0, terms + 1));
  const doc = new Int32Array(slice(terms + 1, header.postings));
  const sat = new Float32Array(slice(terms + 1 + header.postings, header.postings));
  const termIds = new Map<string, number>();
  header.terms.forEach((t, i) => termIds.set(t, i));
  const conceptTerms = new Map<string, Map<string, string>>();
  for (const [c, ids, surfaces] of header.concepts) {
    const words = new Map<string, string>();
    ids.forEach((id, i) => words.set(header.terms[id]!, surfaces[i]!));
    conceptTerms.set(c, words);
  }
  const body: IndexBody = { postings: { termIds, start, doc, sat }, conceptTerms };
  const lexicon = input.lexicon ?? loadLexicon();
  return assemble(buildFrame(input, lexicon), body, lexicon);
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
