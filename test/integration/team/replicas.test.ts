import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { argsFingerprint } from '../../../src/core/audit/recorder';
import { ERROR_KINDS } from '../../../src/core/envelope/kinds';
import { verifyStoreAudit } from '../../../src/core/store/pg-audit';
import { openPgStore, type PgStore } from '../../../src/core/store/pg-store';
import { publishDefinitions, readDefinitionFolder } from '../../../src/core/store/shared-state';
import { createToken } from '../../../src/core/store/tokens';
import { ensureBuilt, ROOT } from '../../support/build';
import { CHINOOK_SQLITE } from '../../support/server-harness';
import { call, cli, connectClient, freshTeamDb, startReplica, tempDir, type Replica, type TeamDb } from './support';

/**
 * Calls in the run: 300 by default (keeps the default suite's run well under two minutes on a loaded machine; the
 * kill, the restart and the mid-run publish still happen inside it); SCHEMABRAIN_TEAM_CALLS=20000 for the full run,
 * whose last result is recorded in bench/results/team.md.
 */
const TOTAL = Number(process.env.SCHEMABRAIN_TEAM_CALLS ?? 300);
/**
 * The 2 s bound for a published definition holds with CPU to spare. On a machine whose run queue is several times
 * its core count (a shared CI box), every replica's event loop lags by seconds and the bound cannot be met by any
 * design; there the test reports the figure and holds it to 10 s instead, saying so.
 */
const LOAD_AT_START = os.loadavg()[0]!;
const definitionBoundMs = (): number => (Math.max(LOAD_AT_START, os.loadavg()[0]!) > os.cpus().length * 3 ? 10_000 : 2000);
const CLIENTS = 30;
const REPLICAS = 3;
const PROBE_METRIC = 'team_probe_metric';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('team server: three replicas over one store, 30 clients, one replica killed and restarted', function () {
  this.timeout(Math.max(180_000, TOTAL * 60));
  let db: TeamDb | null = null;
  let store: PgStore;
  const replicas: Replica[] = [];

  before(async function () {
    db = await freshTeamDb(this, 'sb_team_replicas');
    if (!db) return;
    ensureBuilt();
    const r = await cli(['index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--store', db.url, '--json'], { ...db.env, SCHEMABRAIN_HOME: tempDir() });
    assert.equal(r.code, 0, r.stderr);
    store = await openPgStore(db.url, { env: db.env });
    await publishDefinitions(store.pool, readDefinitionFolder(path.join(ROOT, 'samples', 'chinook-workspace', '.schemabrain')), 'test');
    for (let i = 0; i < REPLICAS; i++) replicas.push(await startReplica(db, { args: ['--rate-limit', '0'] }));
  });
  after(async () => {
    for (const r of replicas) r.child.kill('SIGKILL');
    await store?.close();
    await db?.drop();
  });

  it('acknowledged calls have exactly one audit row each, the chain verifies, only the killed replica fails calls, and a published definition reaches every replica within 2 s', async () => {
    const tokens = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => createToken(store.pool, { principal: `agent${i}`, role: 'analyst', createdBy: 'test' })));
    const probeToken = (await createToken(store.pool, { principal: 'probe', role: 'analyst', createdBy: 'test' })).token;
    const killedIdx = 1;
    let next = 0;
    /** Calls go on past TOTAL until the mid-run publish has started, so a short run still publishes under load. */
    let publishing = false;
    let done = 0;
    let killedAt = 0;
    let restarted = false;
    const acked: string[] = [];
    const nonTyped: string[] = [];
    let connectionErrors = 0;
    const typedErrors = new Map<string, number>();
    const latencies: number[] = [];
    const perReplica = [0, 0, 0];

    interface Worker {
      readonly i: number;
      readonly replica: number;
      client: Client | null;
      /** Errors from the killed replica are expected from the kill until this worker's first answered call after the restart. */
      recovered: boolean;
    }
    const workers: Worker[] = Array.from({ length: CLIENTS }, (_, i) => ({ i, replica: i % REPLICAS, client: null, recovered: false }));
    const allowed = (w: Worker): boolean => w.replica === killedIdx && killedAt > 0 && !w.recovered;

    const run = async (w: Worker): Promise<void> => {
      while (next < TOTAL || !publishing) {
        if (!w.client) {
          try {
            w.client = await connectClient(replicas[w.replica]!.mcpUrl, tokens[w.i]!.token, `agent${w.i}`);
          } catch (e) {
            if (allowed(w)) {
              connectionErrors++;
              await sleep(100);
              continue;
            }
            nonTyped.push(`connect ${w.replica}: ${String(e)}${(e as { cause?: unknown }).cause ? ` (${String((e as { cause?: unknown }).cause)})` : ''}`);
            return;
          }
        }
        const id = next++;
        const args = { query: `artist album invoice q${id}`, limit: 1 + (id % 5) };
        const t0 = performance.now();
        try {
          const env = await call(w.client, 'find_relevant_tables', args);
          latencies.push(performance.now() - t0);
          perReplica[w.replica]!++;
          if (env.status === 'error' || env.status === 'refused') {
            if (!env.error || !(ERROR_KINDS as readonly string[]).includes(env.error.kind)) nonTyped.push(`untyped envelope: ${JSON.stringify(env).slice(0, 200)}`);
            typedErrors.set(env.error?.kind ?? '?', (typedErrors.get(env.error?.kind ?? '?') ?? 0) + 1);
            if (env.error?.kind === 'audit_unavailable') continue; // answered without data and without a row
          }
          acked.push(argsFingerprint(args));
          if (restarted) w.recovered = true;
        } catch (e) {
          if (allowed(w)) {
            connectionErrors++;
            const c = w.client;
            w.client = null;
            void c.close().catch(() => undefined);
            await sleep(100);
          } else nonTyped.push(`replica ${w.replica}: ${String(e).slice(0, 300)}${(e as { cause?: unknown }).cause ? ` (${String((e as { cause?: unknown }).cause)})` : ''}`);
        } finally {
          done++;
        }
      }
    };

    const started = performance.now();
    const chaos = (async () => {
      while (done < TOTAL * 0.2) await sleep(20);
      killedAt = performance.now();
      const port = replicas[killedIdx]!.port;
      replicas[killedIdx]!.child.kill('SIGKILL');
      await replicas[killedIdx]!.exited;
      await sleep(500);
      replicas[killedIdx] = await startReplica(db!, { port, args: ['--rate-limit', '0'] });
      restarted = true;
    })();
    const probe = (async () => {
      while (!restarted) await sleep(20);
      const clients = await Promise.all(replicas.map((r) => connectClient(r.mcpUrl, probeToken, 'probe')));
      const doneAtPublish = done;
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'probe.yaml'), `version: 1\nmetrics:\n  - name: ${PROBE_METRIC}\n    entity: invoice\n    measure: { agg: count }\n`);
      const t0 = performance.now();
      publishing = true;
      const ids = await publishDefinitions(store.pool, [...readDefinitionFolder(path.join(ROOT, 'samples', 'chinook-workspace', '.schemabrain')), ...readDefinitionFolder(dir)], 'test');
      const version = Math.max(...ids);
      const publishedAt = Number((await store.pool.query<{ ms: string }>('SELECT extract(epoch FROM published_at) * 1000 AS ms FROM schemabrain.definition WHERE id = $1', [version])).rows[0]!.ms);
      // How long after the publishing transaction each replica had the new version in place (its next call serves
      // it), by the replica's own clock stamp: the test process's event-loop lag under 30 clients does not count.
      const seen = await Promise.all(
        replicas.map(async (r) => {
          for (;;) {
            const text = await (await fetch(`${r.base}/metrics`)).text();
            const m = /schemabrain_definitions_version (\d+)/.exec(text);
            const at = /schemabrain_definitions_loaded_timestamp_seconds ([\d.]+)/.exec(text);
            if (m && at && Number(m[1]) >= version) return Number(at[1]) * 1000 - publishedAt;
            if (performance.now() - t0 > 30_000) return Infinity;
            await sleep(10);
          }
        }),
      );
      // …and confirmed through a tool call on each replica.
      const served = await Promise.all(
        clients.map(async (c) => {
          for (;;) {
            const env = await call(c, 'list_metrics', {});
            if (JSON.stringify(env.data).includes(PROBE_METRIC)) return performance.now() - t0;
            if (performance.now() - t0 > 30_000) return Infinity;
            await sleep(25);
          }
        }),
      );
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      return { seen, served, doneAtPublish };
    })();

    await Promise.all(workers.map(run));
    const wall = performance.now() - started;
    await chaos;
    const { seen, served, doneAtPublish } = await probe;
    await Promise.all(workers.map((w) => w.client?.close().catch(() => undefined)));

    const rows = (await store.pool.query<{ fp: string; n: number }>("SELECT body::json->>'args_fingerprint' AS fp, count(*)::int AS n FROM schemabrain.audit WHERE tool = 'find_relevant_tables' GROUP BY 1")).rows;
    const byFp = new Map(rows.map((r) => [r.fp, r.n]));
    const missing = acked.filter((fp) => byFp.get(fp) !== 1);
    const duplicated = rows.filter((r) => r.n > 1);
    const verify = await verifyStoreAudit(store.pool);
    latencies.sort((a, b) => a - b);
    const summary = {
      calls: next,
      acknowledged: acked.length,
      audit_rows_for_calls: rows.reduce((s, r) => s + r.n, 0),
      acknowledged_without_exactly_one_row: missing.length,
      duplicated_rows: duplicated.length,
      chain_rows: verify.rows,
      chain_ok: verify.ok,
      connection_errors_killed_replica: connectionErrors,
      typed_errors: Object.fromEntries(typedErrors),
      non_typed_errors: nonTyped.length,
      calls_per_replica: perReplica,
      wall_s: Math.round(wall / 100) / 10,
      calls_per_s: Math.round(acked.length / (wall / 1000)),
      p50_ms: Math.round(latencies[Math.floor(latencies.length * 0.5)]! * 10) / 10,
      p99_ms: Math.round(latencies[Math.floor(latencies.length * 0.99)]! * 10) / 10,
      definition_loaded_ms: seen.map((s) => Math.round(s)),
      definition_served_ms: served.map((s) => Math.round(s)),
      calls_done_at_publish: doneAtPublish,
      load_average: os.loadavg()[0]!.toFixed(1),
    };
    process.stderr.write(`team replica run: ${JSON.stringify(summary)}\n`);
    if (process.env.SCHEMABRAIN_TEAM_SUMMARY) fs.writeFileSync(process.env.SCHEMABRAIN_TEAM_SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);

    assert.deepEqual(nonTyped.slice(0, 5), []);
    assert.equal(missing.length, 0, 'every acknowledged call has exactly one audit row');
    assert.equal(duplicated.length, 0, 'no call has two rows');
    assert.equal(verify.ok, true, JSON.stringify(verify.breaks.slice(0, 5)));
    assert.ok(acked.length >= TOTAL * 0.9, `most calls acknowledged (${acked.length})`);
    assert.ok(connectionErrors > 0, 'the kill hit calls in flight or connections');
    const DEFINITION_BOUND_MS = definitionBoundMs();
    if (DEFINITION_BOUND_MS > 2000) process.stderr.write(`team replica run: load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs: definition bound relaxed to ${DEFINITION_BOUND_MS} ms\n`);
    for (const ms of seen) assert.ok(ms < DEFINITION_BOUND_MS, `definition loaded by a replica after ${ms} ms`);
    for (const ms of served) assert.ok(Number.isFinite(ms), 'every replica serves the published definition');
    assert.ok(doneAtPublish < done, 'the definition was published while calls were running');
  });
});
