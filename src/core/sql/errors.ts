import type { ErrorKind } from '../envelope/kinds';
import type { QueryOutcome } from './types';

/**
 * Maps a failed outcome to a charter error kind and message for the `run_query` tool. Guard refusals are
 * `policy_blocked` (a refusal: the agent should rewrite, not retry); timeouts are `cost_cap_exceeded`; unknown
 * relations/columns are `unknown_name` (the tool adds fuzzy matches from the catalog); everything else the database
 * reported is `internal_error` with the database's own message, which never contains connection secrets.
 */
export function toToolError(outcome: Extract<QueryOutcome, { ok: false }>): { kind: ErrorKind; message: string } {
  if (outcome.kind === 'refused') return { kind: 'policy_blocked', message: outcome.guard.message };
  switch (outcome.kind) {
    case 'timeout':
      return { kind: 'cost_cap_exceeded', message: `query stopped at the time cap: ${outcome.message}` };
    case 'read_only_violation':
      return { kind: 'policy_blocked', message: `the database refused a write in a read-only transaction: ${outcome.message}` };
    case 'unknown_relation':
    case 'unknown_column':
    case 'unknown_function':
      return { kind: 'unknown_name', message: outcome.message };
    case 'syntax_error':
      return { kind: 'invalid_argument', message: `argument 'sql' is not valid: ${outcome.message}` };
    case 'permission_denied':
      return { kind: 'policy_blocked', message: outcome.message };
    case 'connection':
      return { kind: 'internal_error', message: `the source could not be reached: ${outcome.message}` };
    default:
      return { kind: 'internal_error', message: outcome.message };
  }
}
