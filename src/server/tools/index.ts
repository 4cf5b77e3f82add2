import type { ToolDefinition } from '../tool';
import { describeColumn } from './describe-column';
import { describeTable } from './describe-table';
import { getIndexStatus } from './get-index-status';
import { listIndexedSchemas } from './list-indexed-schemas';
import { suggestJoins } from './suggest-joins';

/** Every tool the server exposes, listed by hand (the order is the order of tools/list). */
export const allTools: readonly ToolDefinition[] = [
  listIndexedSchemas,
  describeTable,
  describeColumn,
  suggestJoins,
  getIndexStatus,
] as unknown as readonly ToolDefinition[];
