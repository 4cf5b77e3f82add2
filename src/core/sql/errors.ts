import type { ErrorKind } from '../envelope/kinds';
import type { QueryOutcome } from './types';
import { safeDatabaseMessage } from './error-text';

/**
 * Maps a failed outcome to a charter error kind and message for the `run_query` tool. Guard refusals are
 * `policy_blocked` (a refusal: the agent should rewrite, not retry); timeouts are `cost_cap_exceeded`; unknown
 * relations/columns are `unknown_name` (the tool adds fuzzy matches from the catalog); a statement that fails on its
 * own terms (division by zero, a bad cast, an ambiguous name) is `invalid_argument`; everything else the database
 * reported is `internal_error`. Messages go through `safeDatabaseMessage`, so no quoted value reaches the agent.
 */
export function toToolError(failed: Extract<QueryOutcome, { ok: false }>): { kind: ErrorKind; message: string } {
  if (failed.kind === 'refused') {
    const reason = failed.guard.reason;
    return { kind: reason === 'invalid_input' ? 'invalid_argument' : reason === 'schema_drift' ? 'schema_drift' : 'policy_blocked', message: failed.guard.message };
  }
  // the database's text, with any quoted value removed (error-text.ts): an error must never carry row data
  const outcome = { ...failed, message: safeDatabaseMessage(failed.message, failed.code) };
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
      // retryable: the database is down or refused the connection; the same call works once it is back
      return { kind: 'unreachable', message: `the source could not be reached: ${outcome.message}. Retry in a few seconds; get_index_status shows the source's state` };
    case 'busy':
      // retryable: the same call succeeds once a running query finishes (pg-pool.ts SourcePool)
      return { kind: 'unreachable', message: failed.message };
    case 'too_large':
      return { kind: 'cost_cap_exceeded', message: failed.message };
    case 'query_error':
      // the statement failed on its own terms (a value, a subquery's rows, a rule of the language): rewrite it
      return { kind: 'invalid_argument', message: `argument 'sql' failed in the database: ${outcome.message}; rewrite the query` };
    default:
      return { kind: 'internal_error', message: outcome.message };
  }
}
