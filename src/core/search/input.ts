import type { PiiTag, TableInfo } from '../catalog/model';
import type { BuildSearchIndexInput, SearchTableInput } from './types';
import { INDEX_FORMAT } from './format';

/** Catalog artifact key of the persisted index (the format is part of it, so a new format never reads old bytes). */
export const SEARCH_INDEX_ARTIFACT = `search-index/v${INDEX_FORMAT}`;

/**
 * What gets indexed for search: every relation of every source, in catalog order, with PII-blocked columns left out
 * (so neither their names nor their values can surface in a hit or its explanation). The indexer and the server
 * both build the input through here, so a persisted index matches what the server would build.
 */
export function searchInput(tables: ReadonlyArray<{ sourceName: string; table: TableInfo }>, isBlocked: (tag: PiiTag | null) => boolean): BuildSearchIndexInput {
  const out: SearchTableInput[] = tables.map(({ sourceName, table }) => ({ sourceName, table: visibleTable(table, isBlocked) }));
  return { tables: out };
}

/** The table as the search index holds it: PII-blocked columns left out (the same object when none is). */
export function visibleTable(table: TableInfo, isBlocked: (tag: PiiTag | null) => boolean): TableInfo {
  const hidden = table.columns.filter((c) => isBlocked(c.pii));
  if (hidden.length === 0) return table;
  const names = new Set(hidden.map((c) => c.name));
  return { ...table, columns: table.columns.filter((c) => !names.has(c.name)) };
}
