import fs from 'node:fs';
import path from 'node:path';
import {
  appendCheckpoint,
  generateCheckpointKeys,
  loadPrivateKey,
  loadPublicKey,
  readCheckpoints,
  signCheckpoint,
  verifyWithCheckpoints,
  type CheckpointReport,
} from '../../core/audit/checkpoint';
import { verifyAudit } from '../../core/audit/verify';
import { terminalSafeLines } from '../../core/util/terminal-text';
import { parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_OPERATIONAL, type CliCommand, type CliIO } from '../command';
import { resolveAuditPath } from './audit';

/**
 * Signed checkpoints for the audit log (see core/audit/checkpoint.ts). The server never holds the private key:
 * an operator creates it with `audit keygen` as another user, and a cron job of that user runs `audit checkpoint`
 * to sign the verified head into a file the server cannot write. `audit verify --checkpoints F --public-key K`
 * proves the log up to the last checkpoint.
 */

async function guarded(io: CliIO, name: string, usage: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`schemabrain ${name}: ${e.message}\nusage: ${usage}\n`);
      return EXIT_OPERATIONAL;
    }
    const code = (e as NodeJS.ErrnoException).code;
    io.stderr.write(`schemabrain ${name}: ${code === 'EEXIST' ? 'refusing to overwrite an existing key file' : (e as Error).message}\n`);
    return EXIT_OPERATIONAL;
  }
}

const KEYGEN_USAGE = 'schemabrain audit keygen --private-key FILE --public-key FILE';

export const auditKeygenCommand: CliCommand = {
  name: 'audit keygen',
  summary: 'Create the Ed25519 key pair for signed audit checkpoints (keep the private key away from the server)',
  usage: KEYGEN_USAGE,
  run: (argv, io) =>
    guarded(io, 'audit keygen', KEYGEN_USAGE, async () => {
      const p = parseArgs(argv, { 'private-key': 'string', 'public-key': 'string' });
      const priv = stringFlag(p, 'private-key');
      const pub = stringFlag(p, 'public-key');
      if (!priv || !pub) throw new UsageError('--private-key and --public-key are required');
      const k = generateCheckpointKeys(priv, pub);
      io.stdout.write(
        `private key: ${k.privateKey} (0600; keep it where the SchemaBrain server's user cannot read it)\npublic key:  ${k.publicKey}\nkey id:      ${k.keyId}\n`,
      );
      return EXIT_OK;
    }),
};

const CHECKPOINT_USAGE = 'schemabrain audit checkpoint --key PRIVATE_KEY --checkpoints FILE [--path LOG] [--json]';

/**
 * Verifies the chain (and the previous checkpoints of the same key), then signs the head and appends it. Refuses
 * to sign a log that is broken or no longer matches an earlier checkpoint: a checkpoint only ever vouches for a
 * log that was intact when it was made.
 */
export const auditCheckpointCommand: CliCommand = {
  name: 'audit checkpoint',
  summary: 'Verify the audit log and append a signed checkpoint of its head (run by a witness, not the server)',
  usage: CHECKPOINT_USAGE,
  run: (argv, io) =>
    guarded(io, 'audit checkpoint', CHECKPOINT_USAGE, async () => {
      const p = parseArgs(argv, { key: 'string', checkpoints: 'string', path: 'string', json: 'boolean' });
      const keyFile = stringFlag(p, 'key');
      const out = stringFlag(p, 'checkpoints');
      if (!keyFile || !out) throw new UsageError('--key and --checkpoints are required');
      const file = resolveAuditPath(stringFlag(p, 'path'), io.env);
      if (!fs.existsSync(file)) throw new Error(`no audit log at ${file}`);
      const key = loadPrivateKey(keyFile);
      const publicKey = (await import('node:crypto')).createPublicKey(key);
      let problems: string[] = [];
      let head: { seq: number; hash: string };
      if (fs.existsSync(out)) {
        const r = await verifyWithCheckpoints(file, out, publicKey);
        problems = r.problems.map((x) => `${x.kind}: ${x.detail}`);
        head = { seq: r.chain.headSeq, hash: r.chain.headHash };
      } else {
        const r = await verifyAudit(file, { full: true });
        if (!r.ok) problems = r.breaks.map((b) => `line ${b.line}: ${b.reason} — ${b.detail}`);
        head = { seq: r.headSeq, hash: r.headHash };
      }
      if (problems.length) {
        io.stderr.write(terminalSafeLines(`schemabrain audit checkpoint: not signing ${file}:\n${problems.map((x) => `  ${x}`).join('\n')}\n`));
        return EXIT_CHECK_FAILED;
      }
      const c = signCheckpoint(head, file, key);
      appendCheckpoint(out, c);
      // One line an operator's SIEM can keep as well (stdout; the checkpoint itself is already in the file).
      if (p.flags.json === true) io.stdout.write(`${JSON.stringify(c)}\n`);
      else io.stdout.write(`checkpoint signed: seq ${c.seq} ${c.hash.slice(0, 16)}… at ${c.time} (key ${c.key_id}) → ${path.resolve(out)}\n`);
      return EXIT_OK;
    }),
};

export const VERIFY_CHECKPOINTS_USAGE = 'schemabrain audit verify --checkpoints FILE --public-key FILE [--path LOG] [--json]';

/** `audit verify --checkpoints F --public-key K`: exit 0 when the chain and every checkpoint hold, 1 otherwise. */
export async function verifyCheckpointsCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return guarded(io, 'audit verify', VERIFY_CHECKPOINTS_USAGE, async () => {
    const p = parseArgs(argv, { checkpoints: 'string', 'public-key': 'string', path: 'string', json: 'boolean', full: 'boolean', 'no-anchor': 'boolean' });
    const cps = stringFlag(p, 'checkpoints');
    const pub = stringFlag(p, 'public-key');
    if (!cps || !pub) throw new UsageError('--checkpoints needs --public-key (the witness key, never the server’s)');
    const file = resolveAuditPath(stringFlag(p, 'path'), io.env);
    if (!fs.existsSync(cps)) throw new Error(`no checkpoints file at ${cps}`);
    const report = await verifyWithCheckpoints(file, cps, loadPublicKey(pub));
    if (p.flags.json === true) io.stdout.write(`${JSON.stringify(reportJson(file, report))}\n`);
    else io.stdout.write(terminalSafeLines(reportText(file, report, readCheckpoints(cps).checkpoints.length)));
    return report.ok ? EXIT_OK : EXIT_CHECK_FAILED;
  });
}

function reportJson(file: string, r: CheckpointReport): Record<string, unknown> {
  return {
    path: file,
    ok: r.ok,
    rows: r.chain.rows,
    head_seq: r.chain.headSeq,
    trusted_checkpoints: r.trusted,
    proven_seq: r.provenSeq,
    proven_at: r.provenAt,
    unproven_rows: r.unprovenRows,
    torn: r.chain.torn ?? null,
    problems: r.problems,
  };
}

function reportText(file: string, r: CheckpointReport, total: number): string {
  const lines: string[] = [];
  if (r.ok) {
    lines.push(`audit log ${file}: ${r.chain.rows} rows, head seq ${r.chain.headSeq}; ${r.trusted} of ${total} checkpoints signed by this key`);
    if (r.provenSeq > 0) lines.push(`proven: rows 1–${r.provenSeq} are exactly as they were when checkpointed at ${r.provenAt} (nothing edited, removed, reordered or re-chained)`);
    else lines.push('proven: nothing yet — no checkpoint covers any row of this log');
  } else {
    lines.push(`audit log ${file} FAILS its checkpoints:`);
    for (const x of r.problems) lines.push(`  ${x.kind}${x.seq !== null ? ` (seq ${x.seq})` : ''}: ${x.detail}`);
  }
  if (r.unprovenRows > 0) {
    lines.push(
      `unproven: the ${r.unprovenRows} row(s) after seq ${r.provenSeq} form an intact chain, but whoever can write the log could have appended or rewritten them; the next checkpoint proves or disproves them`,
    );
  }
  if (r.chain.torn) lines.push(`note: a final fragment of ${r.chain.torn.bytes} bytes has no newline (an append interrupted before it was acknowledged, or a removed row: a checkpoint past it decides)`);
  return `${lines.join('\n')}\n`;
}
