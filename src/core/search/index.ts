/**
 * Retrieval engine behind `find_relevant_tables`: hybrid lexical search over the catalog with no network and no
 * model. See rank.ts for the scoring and build.ts for what is indexed.
 */
import { buildIndexData } from './build';
import { searchIndex } from './rank';
import { decodeBody, decodeStamped, encodeBody, type IndexStamp, type StampedCatalog } from './serialize';
import type { IndexData } from './build';
import type { BuildSearchIndexInput, SearchIndex } from './types';

export type {
  BuildSearchIndexInput,
  JoinEdge,
  SchemaArea,
  SearchEntityInput,
  SearchFallback,
  SearchHit,
  SearchIndex,
  SearchMetricInput,
  SearchOptions,
  SearchResult,
  SearchTableInput,
} from './types';
export { matchedNothing } from './types';
export { isThesaurusConcept, loadLexicon, type Lexicon } from './lexicon';
export { identifierTerms, segmentWord, splitIdentifierRaw, stem, textTerms } from './tokenize';
export { findMentions, parseQuery, type Mention } from './query';
export { MAX_QUERY_CHARS, RANKING } from './rank';

export { INDEX_FORMAT, type IndexStamp, type StampedCatalog } from './serialize';

export function buildSearchIndex(input: BuildSearchIndexInput): SearchIndex {
  return wrap(buildIndexData(input), input);
}

/**
 * Bytes to persist (for example as a catalog artifact) so that a later process can skip tokenisation with
 * deserializeIndex. Valid only together with the same tables, entities and metrics.
 */
export function serializeIndex(index: SearchIndex, stamp: IndexStamp | null = null): Uint8Array {
  return index.serialize(stamp);
}

/** The index for `input` from serializeIndex bytes, or null when they were made from other input (then rebuild). */
export function deserializeIndex(bytes: Uint8Array, input: BuildSearchIndexInput): SearchIndex | null {
  const data = decodeBody(bytes, input);
  return data === null ? null : wrap(data, input);
}

/**
 * The index persisted with a stamp (serializeIndex with one) for exactly this catalog, ready to use: nothing is
 * recomputed from the tables, and `catalog.table` is called only for the tables a search explains. Null when the
 * bytes were made for another catalog generation, other tables or another PII policy (then use deserializeIndex
 * or buildSearchIndex with the tables).
 */
export function openPersistedIndex(bytes: Uint8Array, catalog: StampedCatalog): SearchIndex | null {
  const data = decodeStamped(bytes, catalog);
  if (data === null) return null;
  return { size: data.docs.length, search: (query, opts) => searchIndex(data, query, opts), serialize: () => bytes };
}

function wrap(data: IndexData, input: BuildSearchIndexInput): SearchIndex {
  return {
    size: data.docs.length,
    search: (query, opts) => searchIndex(data, query, opts),
    serialize: (stamp) => encodeBody(data, input, stamp ?? null),
  };
}

export { searchInput, visibleTable, SEARCH_INDEX_ARTIFACT } from './input';
