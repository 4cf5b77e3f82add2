import fs from 'node:fs';
import path from 'node:path';
import { publishDefinitions, readDefinitionFolder } from '../../core/store/shared-state';
import { parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_OK, EXIT_OPERATIONAL, type CliCommand } from '../command';
import { cliActor, withStore } from './token';

const USAGE = 'schemabrain definitions publish [--dir .schemabrain] --store postgres://user@host/db';

/** Publishes a reviewed `.schemabrain/` folder to the team store: every replica serves it within seconds. */
export const definitionsPublishCommand: CliCommand = {
  name: 'definitions publish',
  summary: 'Publish .schemabrain/ definitions to a team store (versioned, with who and when)',
  usage: USAGE,
  async run(argv, io) {
    let p: ReturnType<typeof parseArgs>;
    try {
      p = parseArgs(argv, { dir: 'string', store: 'string' });
    } catch (e) {
      io.stderr.write(`schemabrain definitions publish: ${(e as Error).message}\nusage: ${USAGE}\n`);
      return EXIT_OPERATIONAL;
    }
    const dir = path.resolve(stringFlag(p, 'dir') ?? '.schemabrain');
    return withStore(
      io,
      'definitions publish',
      USAGE,
      () => {
        const url = stringFlag(p, 'store') ?? io.env.SCHEMABRAIN_STORE;
        if (!url) throw new UsageError('--store postgres://user@host/db is required (or SCHEMABRAIN_STORE)');
        if (!fs.existsSync(dir)) throw new UsageError(`no definitions folder at ${dir}`);
        return url;
      },
      async (store) => {
        const ids = await publishDefinitions(store.pool, readDefinitionFolder(dir), cliActor());
        io.stderr.write(ids.length ? `published ${ids.length} changed definition file(s) from ${dir}\n` : `nothing changed in ${dir}\n`);
        return EXIT_OK;
      },
    );
  },
};
