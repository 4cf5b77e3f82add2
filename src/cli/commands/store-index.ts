import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { downloadCatalog, publishCatalog, withCatalogLock } from '../../core/store/shared-state';
import { currentPiiPolicy, finishIndexRun, startIndexRun } from '../../core/store/team-state';
import { assertNoPasswordInLocator } from '../../core/store/url';
import { UsageError } from '../args';
import { EXIT_OK, EXIT_OPERATIONAL, type CliCommand, type CliIO } from '../command';
import { cliActor, withStore } from './token';

/** Splits `--store URL` / `--store=URL` out of argv. */
export function takeStoreFlag(argv: readonly string[]): { store: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let store: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--store') store = argv[++i];
    else if (a.startsWith('--store=')) store = a.slice(8);
    else rest.push(a);
  }
  return { store, rest };
}

function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i]!.startsWith(`${name}=`)) return argv[i]!.slice(name.length + 1);
  }
  return undefined;
}

/**
 * `schemabrain index … --store URL`: under the store's catalog advisory lock (so concurrent runs from any machine
 * take turns), fetch the newest generation, run the ordinary indexer into that copy, and publish the result as the
 * next generation. Replicas load it on the notification. The source URL must not carry a password: the servers
 * read it from their own environment, a mounted file or ~/.pgpass.
 */
export async function indexIntoStore(argv: readonly string[], io: CliIO, indexCommand: CliCommand): Promise<number> {
  const { store: url, rest } = takeStoreFlag(argv);
  return withStore(
    io,
    'index',
    indexCommand.usage,
    () => {
      if (!url) throw new UsageError('--store needs a postgres:// URL');
      if (flagValue(rest, '--catalog') !== undefined) throw new UsageError('--catalog and --store exclude each other: with --store the catalog lives in the store');
      const source = flagValue(rest, '--source');
      if (source) assertNoPasswordInLocator(source);
      return url;
    },
    async (store) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemabrain-index-'));
      try {
        const sourceName = flagValue(rest, '--name') ?? null;
        // The run is recorded in the store from its start (a run that dies stays visible as running).
        const runId = await startIndexRun(store.pool, sourceName, cliActor());
        let outcome: { exitCode: number; generation: number | null; message?: string | null } = { exitCode: EXIT_OPERATIONAL, generation: null, message: 'the run stopped before it finished' };
        try {
          return await withCatalogLock(store.pool, async (client) => {
            const file = path.join(dir, 'catalog.sqlite');
            await downloadCatalog(client, file);
            const args = [...rest, '--catalog', file];
            // The team's PII policy (column overrides) from the store applies unless the run names its own file.
            if (flagValue(rest, '--pii-policy') === undefined) {
              const policy = await currentPiiPolicy(client);
              if (policy?.body) {
                const policyFile = path.join(dir, 'pii-policy.yaml');
                fs.writeFileSync(policyFile, policy.body, { mode: 0o600 });
                args.push('--pii-policy', policyFile);
              }
            }
            const code = await indexCommand.run(args, io);
            if (code !== EXIT_OK) {
              outcome = { exitCode: code, generation: null, message: 'the indexer failed (see its output)' };
              return code;
            }
            const generation = await publishCatalog(client, file, cliActor(), sourceName);
            outcome = { exitCode: EXIT_OK, generation };
            io.stderr.write(`published catalog generation ${generation} to ${store.url}\n`);
            return EXIT_OK;
          });
        } finally {
          await finishIndexRun(store.pool, runId, outcome).catch(() => undefined);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}
