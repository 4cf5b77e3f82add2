/** Example queries mined from pg_stat_statements, normalised, persisted in the catalog and served PII-redacted. */
export type * from './types';
export { mineExampleQueries, ENABLE_HINT, MAX_MINED, type MineOptions } from './mine';
export { stripLiterals, replaceIdentifiers } from './normalize';
export { examplesForTable, type ColumnGate, type RelationRef, type ServeInput, type ServedQuery, type ServeResult } from './serve';
export { exampleQueriesKey, loadExampleQueries, saveExampleQueries } from './store';
