import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { auditVerifyCommand } from '../../../src/cli/commands/audit';
import { auditCheckpointCommand, auditKeygenCommand } from '../../../src/cli/commands/audit-checkpoint';
import { appendCheckpoint, loadPublicKey, signCheckpoint, verifyWithCheckpoints } from '../../../src/core/audit/checkpoint';
import { openAuditLog } from '../../../src/core/audit/log';
import { readLines, rechain, row, writeLines } from '../../unit/audit/helpers';
import { tempDir } from './support';

async function cli(cmd: { run(argv: readonly string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv; isTTY: boolean }): Promise<number> }, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await cmd.run(argv, { stdout, stderr, env: {}, isTTY: false });
  return { code, out, err };
}

async function appendRows(file: string, n: number, tool = 'describe_table'): Promise<void> {
  const log = openAuditLog(file);
  for (let i = 0; i < n; i++) await log.append(row({ tool, rowCount: i }));
  await log.close();
}

describe('faults: tampering with the audit log is detected with signed checkpoints', function () {
  this.timeout(60_000);
  let dir: string;
  let log: string;
  let cps: string;
  let priv: string;
  let pub: string;

  before(async () => {
    dir = tempDir('tamper');
    // The witness's key and checkpoints live outside the server's home; the server never sees the private key.
    priv = path.join(dir, 'witness', 'checkpoint.key');
    pub = path.join(dir, 'witness', 'checkpoint.pub');
    assert.equal((await cli(auditKeygenCommand, ['--private-key', priv, '--public-key', pub])).code, 0);
    assert.equal(fs.statSync(priv).mode & 0o777, 0o600);
    log = path.join(dir, 'home', 'audit.log');
    cps = path.join(dir, 'witness', 'checkpoints.jsonl');
    await appendRows(log, 50);
    const signed = await cli(auditCheckpointCommand, ['--key', priv, '--checkpoints', cps, '--path', log]);
    assert.equal(signed.code, 0, signed.err);
    await appendRows(log, 20); // rows 51..70: after the last checkpoint
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the log for one tampering, verified against the witness's checkpoints. */
  async function tampered(name: string, change: (file: string) => void): Promise<{ code: number; out: string }> {
    const copy = path.join(dir, `${name}.log`);
    fs.copyFileSync(log, copy);
    change(copy);
    const r = await cli(auditVerifyCommand, ['--checkpoints', cps, '--public-key', pub, '--path', copy]);
    return { code: r.code, out: r.out + r.err };
  }

  it('an intact log: proven up to the checkpoint, the rows after it reported as unproven', async () => {
    const r = await tampered('intact', () => undefined);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /proven: rows 1–50/);
    assert.match(r.out, /unproven: the 20 row\(s\) after seq 50/);
  });

  it('forged rows appended at the end are reported as unproven (never as proven)', async () => {
    const r = await tampered('appended', (f) => {
      const lines = readLines(f);
      const forged = JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
      writeLines(f, rechain([...lines, JSON.stringify({ ...forged, tool: 'forged' })]));
    });
    assert.match(r.out, /unproven: the 21 row\(s\) after seq 50/);
    assert.doesNotMatch(r.out, /proven: rows 1–(5[1-9]|[6-9]\d)/);
  });

  const detected: Array<[string, (file: string) => void, RegExp]> = [
    ['a deleted tail (rows 40–70)', (f) => writeLines(f, readLines(f).slice(0, 39)), /truncated \(seq 50\)/],
    ['a re-chained deletion of row 10', (f) => writeLines(f, rechain(readLines(f).filter((_, i) => i !== 9))), /rewritten \(seq 50\)/],
    ['an emptied file', (f) => fs.writeFileSync(f, ''), /truncated \(seq 50\)/],
    ['a removed file', (f) => fs.rmSync(f), /truncated \(seq 50\)/],
    [
      'acknowledged rows removed and disguised as a crash-torn tail',
      (f) => {
        const lines = readLines(f).slice(0, 45);
        fs.writeFileSync(f, `${lines.map((l) => `${l}\n`).join('')}{"args_fingerprint":"ab`);
      },
      /truncated \(seq 50\)/,
    ],
    [
      'a row edited in place',
      (f) => {
        const lines = readLines(f);
        lines[4] = lines[4].replace('"status":"success"', '"status":"error"');
        writeLines(f, lines);
      },
      /chain_broken.*hash_mismatch/,
    ],
    [
      'a row edited and the whole log re-chained',
      (f) => {
        const lines = readLines(f);
        lines[4] = lines[4].replace('"status":"success"', '"status":"error"');
        writeLines(f, rechain(lines));
      },
      /rewritten \(seq 50\)/,
    ],
  ];
  for (const [name, change, expected] of detected) {
    it(`detects ${name}`, async () => {
      const r = await tampered(name.replace(/\W+/g, '-'), change);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, expected);
    });
  }

  it('the log’s writer cannot forge a checkpoint: its own key, or an altered checkpoint, is refused', async () => {
    const copy = path.join(dir, 'forged.log');
    fs.copyFileSync(log, copy);
    writeLines(copy, rechain(readLines(copy).filter((_, i) => i !== 9))); // the rewrite the checkpoint should catch
    const forgedCps = path.join(dir, 'forged-checkpoints.jsonl');
    fs.copyFileSync(cps, forgedCps);
    // The writer signs its rewritten head with a key of its own...
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    const lines = readLines(copy);
    const head = JSON.parse(lines[lines.length - 1]) as { seq: number; hash: string };
    appendCheckpoint(forgedCps, signCheckpoint({ seq: head.seq, hash: head.hash }, copy, privateKey));
    // ...and edits the genuine checkpoint's hash to match its rewrite.
    const genuine = readLines(forgedCps);
    const at50 = JSON.parse(lines[49]) as { hash: string };
    genuine[0] = JSON.stringify({ ...(JSON.parse(genuine[0]) as object), hash: at50.hash });
    writeLines(forgedCps, genuine);
    const r = await verifyWithCheckpoints(copy, forgedCps, loadPublicKey(pub));
    assert.equal(r.ok, false);
    assert.equal(r.trusted, 0, 'neither the altered nor the self-signed checkpoint is trusted');
    assert.equal(r.problems.filter((p) => p.kind === 'forged_checkpoint').length, 2);
    assert.equal(r.provenSeq, 0);
  });

  it('a key file that is empty, not PEM or another kind of key is refused by name with exit 2, never an OpenSSL code', async () => {
    const empty = path.join(dir, 'empty.pub');
    fs.writeFileSync(empty, '');
    const garbage = path.join(dir, 'garbage.pub');
    fs.writeFileSync(garbage, 'not a key\n');
    const rsa = path.join(dir, 'rsa.pub');
    fs.writeFileSync(rsa, crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }));
    for (const [key, why] of [[empty, /is not a valid Ed25519 public key \(PEM/], [garbage, /is not a valid Ed25519 public key \(PEM/], [rsa, /is not a valid Ed25519 public key .*: it holds a rsa key/], [path.join(dir, 'none.pub'), /cannot read the public key file .*none\.pub \(ENOENT\)/]] as const) {
      const r = await cli(auditVerifyCommand, ['--checkpoints', cps, '--public-key', key, '--path', log]);
      assert.equal(r.code, 2, key);
      assert.match(r.err, new RegExp(`^schemabrain audit verify: .*${why.source}`), r.err);
      assert.doesNotMatch(r.err, /DECODER|error:[0-9A-F]{8}|\n\s+at /);
    }
    const before = fs.readFileSync(cps);
    const sign = await cli(auditCheckpointCommand, ['--key', garbage, '--checkpoints', cps, '--path', log]);
    assert.equal(sign.code, 2);
    assert.match(sign.err, /^schemabrain audit checkpoint: .*garbage\.pub is not a valid Ed25519 private key \(PEM/);
    assert.ok(fs.readFileSync(cps).equals(before), 'nothing was appended to the checkpoints');
  });

  it('a later checkpoint refuses to sign a rewritten log, and verify without checkpoints says what it cannot prove', async () => {
    const copy = path.join(dir, 'later.log');
    fs.copyFileSync(log, copy);
    writeLines(copy, rechain(readLines(copy).filter((_, i) => i !== 9)));
    const sign = await cli(auditCheckpointCommand, ['--key', priv, '--checkpoints', cps, '--path', copy]);
    assert.equal(sign.code, 1);
    assert.match(sign.err, /not signing.*\n.*rewritten/);
    const plain = await cli(auditVerifyCommand, ['--path', copy, '--no-anchor']);
    assert.equal(plain.code, 0, 'a consistent rewrite passes a chain check alone');
    assert.match(plain.out, /not provable without signed checkpoints/);
  });
});
