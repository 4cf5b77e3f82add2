import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { downloadCatalog, publishCatalog, withCatalogLock } from '../../core/store/shared-state';
import { assertNoPasswordInLocator } from '../../core/store/url';
import { UsageError } from '../args';
import { EXIT_OK, type CliCommand, type CliIO } from '../command';
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
        return await withCatalogLock(store.pool, async (client) => {
          const file = path.join(dir, 'catalog.sqlite');
          await downloadCatalog(client, file);
          const code = await indexCommand.run([...rest, '--catalog', file], io);
          if (code !== EXIT_OK) return code;
          const generation = await publishCatalog(client, file, cliActor(), flagValue(rest, '--name') ?? null);
          io.stderr.write(`published catalog generation ${generation} to ${store.url}\n`);
          return EXIT_OK;
        });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}
