/**
 * Retrieval engine behind `find_relevant_tables`: hybrid lexical search over the catalog with no network and no
 * model. See rank.ts for the scoring and build.ts for what is indexed.
 */
import { buildIndexData } from './build';
import { searchIndex } from './rank';
import type { BuildSearchIndexInput, SearchIndex } from './types';

export type {
  BuildSearchIndexInput,
  JoinEdge,
  SearchEntityInput,
  SearchHit,
  SearchIndex,
  SearchMetricInput,
  SearchOptions,
  SearchResult,
  SearchTableInput,
} from './types';
export { loadLexicon, type Lexicon } from './lexicon';
export { identifierTerms, segmentWord, splitIdentifierRaw, stem, textTerms } from './tokenize';
export { parseQuery } from './query';
export { RANKING } from './rank';

export function buildSearchIndex(input: BuildSearchIndexInput): SearchIndex {
  const data = buildIndexData(input);
  return {
    size: data.docs.length,
    search: (query, opts) => searchIndex(data, query, opts),
  };
}
