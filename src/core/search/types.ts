/** Public shapes of the retrieval engine. */
import type { TableInfo } from '../catalog/model';
import type { Lexicon } from './lexicon';
import type { IndexStamp } from './serialize';

export interface SearchTableInput {
  readonly sourceName: string;
  readonly table: TableInfo;
}

/** A semantic-layer entity bound to one table (`schema.table`, optionally only in `sourceName`). */
export interface SearchEntityInput {
  readonly name: string;
  readonly description?: string | null;
  readonly table: string;
  readonly sourceName?: string;
}

/** A metric defined on an entity; it lends its words to the entity's table. */
export interface SearchMetricInput {
  readonly name: string;
  readonly description?: string | null;
  readonly entity: string;
}

export interface BuildSearchIndexInput {
  readonly tables: readonly SearchTableInput[];
  readonly entities?: readonly SearchEntityInput[];
  readonly metrics?: readonly SearchMetricInput[];
  /** Defaults to the bundled WordNet + thesaurus lexicon. */
  readonly lexicon?: Lexicon;
}

export interface SearchOptions {
  /** Maximum hits returned (default 10). */
  readonly limit?: number;
  /** Only tables of this source. */
  readonly source?: string;
  /** Only tables of this schema. */
  readonly schema?: string;
  /** Also return the FK edges that connect the returned hits. */
  readonly withJoinTree?: boolean;
}

export interface SearchHit {
  readonly sourceName: string;
  readonly qualifiedName: string;
  /** 0..1: relative to the best hit, scaled by how much of the question the best hit covers. */
  readonly score: number;
  /** Short human-readable reasons, strongest first. */
  readonly why: readonly string[];
  readonly matchedColumns: readonly string[];
}

export interface JoinEdge {
  readonly sourceName: string;
  /** The referencing table (holds the FK columns). */
  readonly from: string;
  readonly fromColumns: readonly string[];
  readonly to: string;
  readonly toColumns: readonly string[];
  readonly constraint: string;
}

/** One area of the catalog: a cluster of tables around its most connected entity. */
export interface SchemaArea {
  readonly name: string;
  readonly sourceName: string;
  readonly tables: number;
  /** One line: size, the central table (and its comment), how many lookups/junctions/history tables. */
  readonly summary: string;
  /** Up to five tables of the area, the central one first. */
  readonly examples: readonly string[];
}

/**
 * Set when the question matched nothing, or only a small part of it matched, or held no word to search for (only
 * words that ask, like "show me everything"): the hits are the best candidates (with no match, the most connected
 * tables in scope) and `areas` maps the catalog for browsing.
 */
export interface SearchFallback {
  readonly reason: 'no_match' | 'weak_match' | 'no_words';
  readonly areas: readonly SchemaArea[];
}

/**
 * Whether the hits are only the central tables offered when no word matched, or there was none to match: a map for
 * browsing, not evidence that any table answers the text (completion and entity ranking leave them out).
 */
export function matchedNothing(result: SearchResult): boolean {
  return result.fallback?.reason === 'no_match' || result.fallback?.reason === 'no_words';
}

export interface SearchResult {
  readonly hits: readonly SearchHit[];
  readonly fallback?: SearchFallback;
  /** How many tables matched before `limit` was applied (lets callers report truncation). */
  readonly totalMatches: number;
  /** The query terms after stop-word removal and stemming (empty for `*`). */
  readonly terms: readonly string[];
  readonly joinTree?: readonly JoinEdge[];
}

export interface SearchIndex {
  /** Number of tables indexed. */
  readonly size: number;
  /**
   * Rank tables for a natural-language question or keywords. `*` lists every table (most connected first); a blank
   * query returns no hits; one with no word to search for ("show me everything") returns the central tables with the
   * `no_words` fallback.
   */
  search(query: string, opts?: SearchOptions): SearchResult;
  /**
   * The postings and concept map as bytes, for deserializeIndex with the same input; with a stamp, also the frame
   * ready to use, for openPersistedIndex on the catalog the stamp names.
   */
  serialize(stamp?: IndexStamp | null): Uint8Array;
}
