import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalJson, sha256Hex } from '../../../src/core/audit/canonical';
import { GENESIS_HASH, type AuditRowInput } from '../../../src/core/audit/record';

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sb-audit-${prefix}-`));
}

export function row(overrides: Partial<AuditRowInput> = {}): AuditRowInput {
  return {
    sessionId: '6f1c2a4e-0000-4000-8000-000000000001',
    clientName: 'test-client',
    clientVersion: '1.0.0',
    tool: 'describe_table',
    status: 'success',
    errorKind: null,
    piiCategories: [],
    argsFingerprint: sha256Hex('{}'),
    sqlFingerprint: null,
    rowCount: null,
    truncated: null,
    durationMs: 1.25,
    catalogGeneration: 3,
    ...overrides,
  };
}

export function readLines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
}

export function writeLines(file: string, lines: readonly string[]): void {
  fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
}

/** Re-chains every line after edits, as an attacker with write access would: valid seqs and hashes throughout. */
export function rechain(lines: readonly string[]): string[] {
  let prev = GENESIS_HASH;
  return lines.map((line, i) => {
    const obj = JSON.parse(line) as Record<string, unknown>;
    delete obj.hash;
    obj.seq = i + 1;
    obj.prev_hash = prev;
    const body = canonicalJson(obj);
    const hash = sha256Hex(prev + body);
    prev = hash;
    return `${body.slice(0, -1)},"hash":"${hash}"}`;
  });
}
