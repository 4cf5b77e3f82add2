import type { AuditRowInput } from '../../src/core/audit/record';

/** A representative row: a get_metric call with PII categories, a SQL fingerprint and counts. */
export function benchRow(i: number): AuditRowInput {
  return {
    sessionId: '3f2b8c1e-5d4a-4e6f-9a7b-0c1d2e3f4a5b',
    clientName: 'Visual Studio Code',
    clientVersion: '1.101.0',
    tool: i % 3 === 0 ? 'get_metric' : i % 3 === 1 ? 'describe_table' : 'run_query',
    status: i % 17 === 0 ? 'refused' : 'success',
    errorKind: i % 17 === 0 ? 'pii_blocked' : null,
    piiCategories: i % 2 ? ['contact', 'financial'] : [],
    argsFingerprint: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    sqlFingerprint: i % 3 === 2 ? 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' : null,
    rowCount: i % 100,
    truncated: false,
    durationMs: 3.25,
    catalogGeneration: 12,
  };
}
