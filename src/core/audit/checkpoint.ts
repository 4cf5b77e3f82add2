import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson, sha256Hex } from './canonical';
import type { AuditHead } from './record';
import { verifyAudit, type VerifyResult } from './verify';
import { readRegularFile } from '../util/regular-file';
import { writeAll } from '../util/write-all';
import { makeDirs } from '../util/make-dirs';

/**
 * Signed audit checkpoints: an anchor that the writer of the log cannot forge.
 *
 * Whoever can write the log can rebuild a consistent hash chain, and so can rewrite an anchor kept beside it. A
 * checkpoint is the log's head (seq and hash) signed with an Ed25519 key the server never holds: a witness (an
 * operator's cron job, running as another user) verifies the log, signs its head and appends the checkpoint to
 * a file the server cannot write (another user's directory, an append-only file, a different mount, or the
 * operator's SIEM via the printed line). `verifyWithCheckpoints` then proves the log up to the last checkpoint:
 * a row edited, removed, reordered or re-chained at or before a checkpointed seq changes the hash at that seq, and
 * removing rows from the end drops the checkpointed seq itself. Rows after the last checkpoint are reported as
 * unproven: a later checkpoint proves (or disproves) them.
 */

export const CHECKPOINT_VERSION = 1;

export interface Checkpoint {
  readonly v: number;
  /** sha256 of the public key (SPKI DER), so a verifier knows which key signed. */
  readonly key_id: string;
  readonly seq: number;
  readonly hash: string;
  /** When the witness signed it (ISO 8601 UTC). */
  readonly time: string;
  /** The log's path as the witness saw it (informational). */
  readonly log: string;
  /** base64 Ed25519 signature over the canonical JSON of every other member. */
  readonly signature: string;
}

export interface KeyPairFiles {
  readonly privateKey: string;
  readonly publicKey: string;
  readonly keyId: string;
}

/** Creates an Ed25519 key pair as PEM files (private key 0600, never overwritten). */
export function generateCheckpointKeys(privateFile: string, publicFile: string): KeyPairFiles {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  makeDirs(path.dirname(path.resolve(privateFile)), 0o700);
  makeDirs(path.dirname(path.resolve(publicFile)));
  fs.writeFileSync(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  fs.writeFileSync(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644, flag: 'wx' });
  return { privateKey: path.resolve(privateFile), publicKey: path.resolve(publicFile), keyId: keyId(publicKey) };
}

export function keyId(publicKey: crypto.KeyObject): string {
  return sha256Hex(publicKey.export({ type: 'spki', format: 'der' })).slice(0, 32);
}

/**
 * Reads a key file with `parse` (crypto.createPrivateKey or createPublicKey). A file that cannot be read is named with
 * its errno code; one that is empty, not PEM, or a key of another type is named as what it is not, rather than
 * surfacing OpenSSL's decoder code (`error:1E08010C:DECODER routines::unsupported`).
 */
function loadEd25519Key(file: string, what: 'private' | 'public', parse: (pem: Buffer) => crypto.KeyObject): crypto.KeyObject {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file); // a pipe would block the read for good
  } catch (e) {
    throw new Error(`cannot read the ${what} key file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const invalid = `${file} is not a valid Ed25519 ${what} key (PEM, as written by 'schemabrain audit keygen')`;
  let key: crypto.KeyObject;
  try {
    key = parse(bytes);
  } catch {
    throw new Error(invalid);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${invalid}: it holds a ${key.asymmetricKeyType ?? 'symmetric'} key`);
  return key;
}

export function loadPrivateKey(file: string): crypto.KeyObject {
  return loadEd25519Key(file, 'private', (pem) => crypto.createPrivateKey(pem));
}

export function loadPublicKey(file: string): crypto.KeyObject {
  return loadEd25519Key(file, 'public', (pem) => crypto.createPublicKey(pem));
}

function payload(c: Omit<Checkpoint, 'signature'>): Buffer {
  return Buffer.from(canonicalJson({ v: c.v, key_id: c.key_id, seq: c.seq, hash: c.hash, time: c.time, log: c.log }), 'utf8');
}

export function signCheckpoint(head: AuditHead, logPath: string, key: crypto.KeyObject, time: string = new Date().toISOString()): Checkpoint {
  const pub = crypto.createPublicKey(key);
  const body = { v: CHECKPOINT_VERSION, key_id: keyId(pub), seq: head.seq, hash: head.hash, time, log: path.resolve(logPath) };
  return { ...body, signature: crypto.sign(null, payload(body), key).toString('base64') };
}

export function checkpointSignatureValid(c: Checkpoint, key: crypto.KeyObject): boolean {
  try {
    return c.key_id === keyId(key) && crypto.verify(null, payload(c), key, Buffer.from(c.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Appends one checkpoint line and fsyncs (the file is the witness's, never the server's). */
export function appendCheckpoint(file: string, c: Checkpoint): void {
  makeDirs(path.dirname(path.resolve(file)), 0o700);
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, 0o644);
  try {
    writeAll(fd, `${JSON.stringify(c)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Checkpoint lines of a file (lines that do not parse are returned as `malformed` line numbers). */
export function readCheckpoints(file: string): { checkpoints: Checkpoint[]; malformed: number[] } {
  const checkpoints: Checkpoint[] = [];
  const malformed: number[] = [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const c = JSON.parse(line) as Checkpoint;
      if (!Number.isSafeInteger(c.seq) || typeof c.hash !== 'string' || typeof c.signature !== 'string' || typeof c.key_id !== 'string') throw new Error('shape');
      checkpoints.push(c);
    } catch {
      malformed.push(i + 1);
    }
  });
  return { checkpoints, malformed };
}

export type CheckpointProblemKind = 'forged_checkpoint' | 'malformed_checkpoint' | 'truncated' | 'rewritten' | 'chain_broken';

export interface CheckpointProblem {
  readonly kind: CheckpointProblemKind;
  readonly seq: number | null;
  readonly detail: string;
}

export interface CheckpointReport {
  readonly ok: boolean;
  readonly chain: VerifyResult;
  /** Checkpoints with a valid signature by the given key. */
  readonly trusted: number;
  /** The highest seq proven by a trusted checkpoint that matches the log (0: none). */
  readonly provenSeq: number;
  readonly provenAt: string | null;
  /** Rows after the last proven checkpoint: intact as a chain, but a rewrite of them would not show yet. */
  readonly unprovenRows: number;
  readonly problems: readonly CheckpointProblem[];
}

/**
 * Verifies the chain and every checkpoint signed by `publicKey`: each checkpointed seq must be in the log with the
 * checkpointed hash. A forged or altered checkpoint (bad signature, other key) is a problem in itself, never trusted.
 */
export async function verifyWithCheckpoints(logPath: string, checkpointsFile: string, publicKey: crypto.KeyObject): Promise<CheckpointReport> {
  const problems: CheckpointProblem[] = [];
  const { checkpoints, malformed } = readCheckpoints(checkpointsFile);
  for (const line of malformed) problems.push({ kind: 'malformed_checkpoint', seq: null, detail: `line ${line} of ${checkpointsFile} is not a checkpoint` });
  const trusted: Checkpoint[] = [];
  for (const c of checkpoints) {
    if (checkpointSignatureValid(c, publicKey)) trusted.push(c);
    else problems.push({ kind: 'forged_checkpoint', seq: c.seq, detail: `the checkpoint for seq ${c.seq} is not signed by this key (forged or altered)` });
  }
  const wanted = new Map<number, Checkpoint>();
  for (const c of trusted) wanted.set(c.seq, c);
  const seen = new Map<number, string>();
  const exists = fs.existsSync(logPath);
  const chain: VerifyResult = exists
    ? await verifyAudit(logPath, { full: true, onRow: (seq, hash) => (wanted.has(seq) ? seen.set(seq, hash) : undefined) })
    : { ok: true, rows: 0, headSeq: 0, headHash: '0'.repeat(64), anchorChecked: false };
  if (!chain.ok) for (const b of chain.breaks) problems.push({ kind: 'chain_broken', seq: b.seq, detail: `line ${b.line}: ${b.reason} — ${b.detail}` });
  let provenSeq = 0;
  let provenAt: string | null = null;
  for (const c of [...wanted.values()].sort((a, b) => a.seq - b.seq)) {
    const got = seen.get(c.seq);
    if (got === undefined) {
      problems.push({
        kind: 'truncated',
        seq: c.seq,
        detail: `checkpointed row seq ${c.seq} (signed ${c.time}) is missing: the log ${exists ? `ends at seq ${chain.headSeq}` : 'does not exist'}; rows were removed`,
      });
    } else if (got !== c.hash) {
      problems.push({ kind: 'rewritten', seq: c.seq, detail: `row seq ${c.seq} does not carry the hash checkpointed at ${c.time}: rows at or before it were removed, edited or re-chained` });
    } else if (c.seq > provenSeq) {
      provenSeq = c.seq;
      provenAt = c.time;
    }
  }
  const ok = problems.length === 0;
  return { ok, chain, trusted: trusted.length, provenSeq, provenAt, unprovenRows: Math.max(0, chain.headSeq - provenSeq), problems };
}
