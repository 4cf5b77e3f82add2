/** Guarded read-only SQL: parser allow-list (layer 1), READ ONLY transaction (layer 2), row/byte caps (layer 3). */
export type * from './types';
export { DEFAULT_CAPS } from './types';
export { loadSqlGuard, guardSql, type SqlGuard } from './guard';
export { MAX_SQL_LENGTH } from './pg-guard';
export { runReadOnlyPostgres, classifyPostgresError, type ExpectedRelation, type PgConnectable } from './pg-exec';
export { runReadOnlySqlite } from './sqlite-exec';
export { runReadOnlyMysql, classifyMysqlError, type MysqlExecTarget } from './mysql-exec';
export { SqliteQueryWorker, type SqliteWorkerOptions } from './sqlite-worker';
export { sendCancelRequest } from './pg-cancel';
export { createReadOnlyPool, type PostgresSourceConfig } from './pg-pool';
export { checkAllowlist, type AllowlistViolation } from './allowlist';
export { toToolError } from './errors';
export { rawColumnRefs, VALUE_DISCLOSING_AGGREGATES, type RawColumnRef } from './projections';
export { maskPostgres, type MaskColumn, type MaskOutcome, type RelationLookup, type ResolveRelation } from './pg-mask';
export { applySqliteMask, sqliteDecidingBlockedColumn, type SqliteMaskPlan } from './sqlite-mask';
export { safeDatabaseMessage } from './error-text';
