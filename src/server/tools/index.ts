import type { ToolDefinition } from '../tool';
import { describeColumn } from './describe-column';
import { describeTable } from './describe-table';
import { findRelevantTables } from './find-relevant-tables';
import { getIndexStatus } from './get-index-status';
import { listIndexedSchemas } from './list-indexed-schemas';
import { runQuery } from './run-query';
import { suggestJoins } from './suggest-joins';

/** Every tool the server exposes, listed by hand (the order is the order of tools/list). */
export const allTools: readonly ToolDefinition[] = [
  listIndexedSchemas,
  findRelevantTables,
  describeTable,
  describeColumn,
  suggestJoins,
  runQuery,
  getIndexStatus,
] as unknown as readonly ToolDefinition[];
