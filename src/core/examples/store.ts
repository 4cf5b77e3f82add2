import type { CatalogStore } from '../catalog/store';
import type { ExampleQuery } from './types';

/**
 * Mined example queries persisted in the catalog's artifacts table, one entry per source, so get_example_queries
 * can answer when the source is not reachable at call time. Only normalised statements are stored (no literal
 * values); PII redaction happens when serving.
 */

export function exampleQueriesKey(sourceId: string): string {
  return `example_queries:v1:${sourceId}`;
}

interface StoredExamples {
  readonly version: 1;
  readonly minedAt: string;
  readonly queries: readonly ExampleQuery[];
}

export function saveExampleQueries(store: CatalogStore, sourceId: string, queries: readonly ExampleQuery[], minedAt: Date = new Date()): void {
  const doc: StoredExamples = { version: 1, minedAt: minedAt.toISOString(), queries };
  store.setArtifact(exampleQueriesKey(sourceId), new TextEncoder().encode(JSON.stringify(doc)));
}

export function loadExampleQueries(store: CatalogStore, sourceId: string): { minedAt: string; queries: readonly ExampleQuery[] } | null {
  const raw = store.getArtifact(exampleQueriesKey(sourceId));
  if (!raw) return null;
  try {
    const doc = JSON.parse(new TextDecoder().decode(raw)) as StoredExamples;
    if (doc.version !== 1 || !Array.isArray(doc.queries)) return null;
    return { minedAt: doc.minedAt, queries: doc.queries };
  } catch {
    return null;
  }
}
