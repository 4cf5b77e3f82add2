import fs from 'node:fs';
import path from 'node:path';
import { parsePolicyYaml, PolicyError } from '../../core/pii/policy';
import { publishDefinitions, readDefinitionFolder } from '../../core/store/shared-state';
import { parseRoleBlocks, publishPiiPolicy, type RoleBlocks } from '../../core/store/team-state';
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

const PII_USAGE = 'schemabrain pii-policy publish [--file pii-policy.yaml] [--role-block ROLE=CAT[,CAT…]]… --store postgres://user@host/db';

/**
 * Publishes the team's PII policy (the policy file: block list and column overrides) and the per-role blocks to
 * the store. Replicas load it within seconds and apply it on top of the floor; `index --store` applies its column
 * overrides on every run.
 */
export const piiPolicyPublishCommand: CliCommand = {
  name: 'pii-policy publish',
  summary: 'Publish the PII policy and per-role blocks to a team store (every replica applies them)',
  usage: PII_USAGE,
  async run(argv, io) {
    const roleBlocks: string[] = [];
    const rest: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '--role-block') roleBlocks.push(argv[++i] ?? '');
      else if (a.startsWith('--role-block=')) roleBlocks.push(a.slice(13));
      else rest.push(a);
    }
    let p: ReturnType<typeof parseArgs>;
    try {
      p = parseArgs(rest, { file: 'string', store: 'string' });
    } catch (e) {
      io.stderr.write(`schemabrain pii-policy publish: ${(e as Error).message}\nusage: ${PII_USAGE}\n`);
      return EXIT_OPERATIONAL;
    }
    const file = stringFlag(p, 'file');
    let body: string | null = null;
    let roleBlock: RoleBlocks = {};
    return withStore(
      io,
      'pii-policy publish',
      PII_USAGE,
      () => {
        const url = stringFlag(p, 'store') ?? io.env.SCHEMABRAIN_STORE;
        if (!url) throw new UsageError('--store postgres://user@host/db is required (or SCHEMABRAIN_STORE)');
        if (!file && roleBlocks.length === 0) throw new UsageError('give --file and/or --role-block');
        try {
          if (file) {
            body = fs.readFileSync(path.resolve(file), 'utf8');
            parsePolicyYaml(body);
          }
          roleBlock = parseRoleBlocks(roleBlocks);
        } catch (e) {
          throw new UsageError(e instanceof PolicyError ? e.message : `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        }
        return url;
      },
      async (store) => {
        const id = await publishPiiPolicy(store.pool, { body, roleBlock, by: cliActor() });
        const roles = Object.entries(roleBlock).map(([r, c]) => `${r}: ${(c ?? []).join(',')}`);
        io.stderr.write(`published PII policy version ${id}${body ? ' (policy file)' : ''}${roles.length ? ` (role blocks ${roles.join('; ')})` : ''}\n`);
        return EXIT_OK;
      },
    );
  },
};
