/**
 * Indexing a database across a link with latency, as to a database on another host:
 *
 *   npx tsx bench/perf/latency-link.ts [--delays 0,2,5] [--runs N] [--baseline DIR --baseline-label TEXT] [--build]
 *
 * A TCP relay in this process listens on a free loopback port and forwards to the benchmark's MusicBrainz database,
 * holding every chunk for the given one-way delay in each direction (order kept), so each round trip costs twice the
 * delay. For each delay: whole-process full indexes (`node dist/cli.js index --json`, a fresh catalog each time) and,
 * with --baseline, the same with another build's dist directory, alternating run by run; and `pg_dump --schema-only`
 * over the same relay. Delay 0 connects directly, without the relay. Writes bench/results/index-latency.{md,json}.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { benchMusicBrainz, ensureBuilt, pgDumpArgs } from '../core/musicbrainz';
import { DIST, flagValue as arg, loadAvg, machineFacts, median, round, runMain, runOk, tempDir, timeProcess, writeResults } from '../core/measure';

interface Relay {
  readonly port: number;
  close(): Promise<void>;
}

/** Forwards 127.0.0.1:<port> to `target`, each chunk held `delayMs` before it is written on, in both directions. */
function startRelay(target: { host: string; port: number }, delayMs: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const pipe = (from: net.Socket, to: net.Socket): void => {
      from.on('data', (chunk: Buffer) => setTimeout(() => to.write(chunk), delayMs));
      from.on('end', () => setTimeout(() => to.end(), delayMs));
      from.on('error', () => to.destroy());
      from.on('close', () => sockets.delete(from));
    };
    pipe(client, upstream);
    pipe(upstream, client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

interface Row {
  readonly delayMs: number;
  readonly pgDumpMs: number;
  readonly indexMs: number;
  readonly baselineIndexMs: number | null;
  readonly raw: { pgDump: number[]; index: number[]; baseline: number[] };
}

async function main(): Promise<void> {
  const delays = (arg('--delays') ?? '0,2,5').split(',').map(Number);
  const runs = Number(arg('--runs') ?? 10);
  const baseline = arg('--baseline');
  const baselineLabel = arg('--baseline-label') ?? baseline ?? '';
  if (delays.some((d) => !Number.isFinite(d) || d < 0) || !Number.isInteger(runs) || runs < 1) throw new Error('usage: --delays 0,2,5 --runs N');
  if (baseline && !fs.existsSync(path.join(baseline, 'cli.js'))) throw new Error(`--baseline ${baseline}: no cli.js there`);
  await ensureBuilt(process.argv.includes('--build'), (cmd, args) => runOk(cmd, args));
  const facts = machineFacts();
  const db = await benchMusicBrainz();
  const work = tempDir('sb-latency-');
  const rows: Row[] = [];
  try {
    const direct = new URL(db.url);
    for (const delayMs of delays) {
      const relay = delayMs > 0 ? await startRelay({ host: direct.hostname, port: Number(direct.port || 5432) }, delayMs) : null;
      const url = new URL(db.url);
      if (relay) url.port = String(relay.port);
      const index = async (dist: string): Promise<number> => {
        const catalog = path.join(work, `c-${path.basename(dist)}.sqlite`);
        fs.rmSync(catalog, { force: true });
        const r = await runOk(process.execPath, [path.join(dist, 'cli.js'), 'index', '--source', url.toString(), '--catalog', catalog, '--json']);
        return r.ms;
      };
      const pgDump: number[] = [];
      const mine: number[] = [];
      const theirs: number[] = [];
      // One unmeasured run of each build first: the code caches are written and the connection paths warmed.
      await index(DIST);
      if (baseline) await index(baseline);
      for (let i = 0; i < runs; i++) {
        // The order alternates, so neither build always runs right after the other.
        const order = baseline ? (i % 2 === 0 ? [DIST, baseline] : [baseline, DIST]) : [DIST];
        for (const dist of order) (dist === DIST ? mine : theirs).push(await index(dist));
        if (i < 3) {
          const d = await timeProcess('pg_dump', pgDumpArgs(url.toString()), { timeoutMs: 120_000 });
          if (d.code !== 0) throw new Error(`pg_dump exited ${d.code}: ${d.stderr.slice(-500)}`);
          pgDump.push(d.ms);
        }
      }
      await relay?.close();
      rows.push({
        delayMs,
        pgDumpMs: round(median(pgDump), 0),
        indexMs: round(median(mine), 0),
        baselineIndexMs: baseline ? round(median(theirs), 0) : null,
        raw: { pgDump: pgDump.map((x) => round(x, 0)), index: mine.map((x) => round(x, 0)), baseline: theirs.map((x) => round(x, 0)) },
      });
      process.stderr.write(`latency bench: one-way delay ${delayMs} ms done\n`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    await db.release();
  }
  facts.loadAvgEnd = loadAvg();
  const md: string[] = [
    '# Indexing across a link with latency',
    '',
    `Generated by \`npx tsx bench/perf/latency-link.ts\` on ${new Date().toISOString()}: ${facts.nproc} CPUs (${facts.cpu}), Node ${facts.node}, commit ${facts.commit}${facts.srcFilesModified ? ` (${facts.srcFilesModified} files under src/ modified)` : ''}.`,
    `Load average at start ${facts.loadAvgStart.join(' / ')}, at end ${facts.loadAvgEnd.join(' / ')}.`,
    '',
    `MusicBrainz (371 relations) in the local PostgreSQL server, reached through a TCP relay in the benchmark process that holds every chunk for the one-way delay in each direction, so a round trip costs twice the delay (0: direct, no relay). Medians of ${runs} whole-process full indexes (\`node dist/cli.js index --json\`, a fresh catalog each time)${baseline ? `, alternating with the baseline build (${baselineLabel})` : ''}, and of 3 \`pg_dump --schema-only\` over the same link.`,
    '',
    baseline ? '| one-way delay | round trip | `pg_dump` | full index | ÷ `pg_dump` | baseline full index | this build − baseline |' : '| one-way delay | round trip | `pg_dump` | full index | ÷ `pg_dump` |',
    baseline ? '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |' : '| ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => {
      const base = `| ${r.delayMs} ms | ${2 * r.delayMs} ms | ${r.pgDumpMs} ms | ${r.indexMs} ms | ${round(r.indexMs / r.pgDumpMs, 2)}× |`;
      return r.baselineIndexMs === null ? base : `${base} ${r.baselineIndexMs} ms | ${r.indexMs - r.baselineIndexMs} ms |`;
    }),
    '',
    `Raw runs (ms): ${rows.map((r) => `delay ${r.delayMs}: pg_dump ${r.raw.pgDump.join(', ')}; index ${r.raw.index.join(', ')}${baseline ? `; baseline ${r.raw.baseline.join(', ')}` : ''}`).join(' · ')}.`,
    '',
    '`pg_dump` sends queries per table, so its time grows with the round trip; the index reads the catalog in a handful of bulk queries on two connections, so it grows by a few round trips only.',
  ];
  writeResults('index-latency', { facts, runs, baseline: baseline ? baselineLabel : null, rows }, md.join('\n'));
  process.stderr.write('latency bench: wrote bench/results/index-latency.md\n');
}

runMain('latency bench', main);
