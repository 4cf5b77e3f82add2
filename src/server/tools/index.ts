import type { ToolDefinition } from '../tool';
import { describeColumn } from './describe-column';
import { describeTable } from './describe-table';
import { findRelevantTables } from './find-relevant-tables';
import { getExampleQueries } from './get-example-queries';
import { getIndexStatus } from './get-index-status';
import { listIndexedSchemas } from './list-indexed-schemas';
import { profileTable } from './profile-table';
import { runQuery } from './run-query';
import { suggestJoins } from './suggest-joins';
import { describeEntity } from './describe-entity';
import { findRelevantEntities } from './find-relevant-entities';
import { getMetric } from './get-metric';
import { listEntities } from './list-entities';
import { listJoins } from './list-joins';
import { listMetrics } from './list-metrics';
import { resolveJoin } from './resolve-join';

/** Every tool the server exposes, listed by hand (the order is the order of tools/list). */
export const allTools: readonly ToolDefinition[] = [
  listIndexedSchemas,
  findRelevantTables,
  describeTable,
  describeColumn,
  suggestJoins,
  getExampleQueries,
  findRelevantEntities,
  listEntities,
  describeEntity,
  listJoins,
  resolveJoin,
  listMetrics,
  getMetric,
  runQuery,
  profileTable,
  getIndexStatus,
] as unknown as readonly ToolDefinition[];
