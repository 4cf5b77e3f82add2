import os from 'node:os';
import { openPgStore, type PgStore } from '../../core/store/pg-store';
import { createToken, listTokens, parseDuration, revokeToken, TokenError } from '../../core/store/tokens';
import { StoreConfigError } from '../../core/store/url';
import { parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_OPERATIONAL, type CliCommand, type CliIO } from '../command';

/** Who ran a store command, recorded beside what it wrote. */
export function cliActor(): string {
  let user = 'unknown';
  try {
    user = os.userInfo().username;
  } catch {
    // no passwd entry (containers): keep 'unknown'
  }
  return `${user}@${os.hostname()}`;
}

function storeFlag(p: ReturnType<typeof parseArgs>, io: CliIO): string {
  const url = stringFlag(p, 'store') ?? io.env.SCHEMABRAIN_STORE;
  if (!url) throw new UsageError('--store postgres://user@host/db is required (or SCHEMABRAIN_STORE)');
  return url;
}

/** Opens the store, runs `body`, closes it; usage and store errors become a message and exit 2. */
export async function withStore(io: CliIO, name: string, usage: string, url: () => string, body: (store: PgStore) => Promise<number>): Promise<number> {
  let store: PgStore | null = null;
  try {
    store = await openPgStore(url(), { env: io.env, max: 2 });
    return await body(store);
  } catch (e) {
    if (e instanceof UsageError) io.stderr.write(`schemabrain ${name}: ${e.message}\nusage: ${usage}\n`);
    else if (e instanceof StoreConfigError || e instanceof TokenError) io.stderr.write(`schemabrain ${name}: ${e.message}\n`);
    else io.stderr.write(`schemabrain ${name}: the team store failed: ${(e as Error).message}\n`);
    return EXIT_OPERATIONAL;
  } finally {
    await store?.close().catch(() => undefined);
  }
}

const CREATE_USAGE = 'schemabrain token create --principal NAME --role catalog|analyst|admin [--sources a,b] [--expires 30d] --store postgres://user@host/db [--json]';

export const tokenCreateCommand: CliCommand = {
  name: 'token create',
  summary: 'Issue a bearer token for a team server (printed once; only its hash is stored)',
  usage: CREATE_USAGE,
  async run(argv, io) {
    let p: ReturnType<typeof parseArgs>;
    try {
      p = parseArgs(argv, { principal: 'string', role: 'string', sources: 'string', expires: 'string', store: 'string', json: 'boolean' });
    } catch (e) {
      io.stderr.write(`schemabrain token create: ${(e as Error).message}\nusage: ${CREATE_USAGE}\n`);
      return EXIT_OPERATIONAL;
    }
    return withStore(io, 'token create', CREATE_USAGE, () => storeFlag(p, io), async (store) => {
      const principal = stringFlag(p, 'principal');
      const role = stringFlag(p, 'role');
      if (!principal || !role) throw new UsageError('--principal and --role are required');
      const sources = stringFlag(p, 'sources')?.split(',').map((s) => s.trim()).filter(Boolean) ?? null;
      const expires = stringFlag(p, 'expires');
      const issued = await createToken(store.pool, { principal, role, sources, expiresInMs: expires ? parseDuration(expires) : null, createdBy: cliActor() });
      if (p.flags.json === true) io.stdout.write(`${JSON.stringify({ id: issued.id, token: issued.token, principal, role, sources, expires_at: issued.expiresAt?.toISOString() ?? null })}\n`);
      else {
        io.stdout.write(`${issued.token}\n`);
        io.stderr.write(`token ${issued.id} for ${principal} (${role}${sources ? `, sources ${sources.join(', ')}` : ''}${issued.expiresAt ? `, expires ${issued.expiresAt.toISOString()}` : ''}); it is shown only now\n`);
      }
      return EXIT_OK;
    });
  },
};

const REVOKE_USAGE = 'schemabrain token revoke ID --store postgres://user@host/db';

export const tokenRevokeCommand: CliCommand = {
  name: 'token revoke',
  summary: 'Revoke a team server token by its id (every replica stops accepting it)',
  usage: REVOKE_USAGE,
  async run(argv, io) {
    let p: ReturnType<typeof parseArgs>;
    try {
      p = parseArgs(argv, { store: 'string' });
    } catch (e) {
      io.stderr.write(`schemabrain token revoke: ${(e as Error).message}\nusage: ${REVOKE_USAGE}\n`);
      return EXIT_OPERATIONAL;
    }
    return withStore(io, 'token revoke', REVOKE_USAGE, () => storeFlag(p, io), async (store) => {
      const id = p.positional[0];
      if (!id || !/^[0-9a-f]{12}$/.test(id)) throw new UsageError('give the token id (12 hex digits, as printed by token create or token list)');
      const done = await revokeToken(store.pool, id);
      io.stderr.write(done ? `token ${id} revoked\n` : `no live token ${id}\n`);
      return done ? EXIT_OK : EXIT_CHECK_FAILED;
    });
  },
};

const LIST_USAGE = 'schemabrain token list --store postgres://user@host/db [--json]';

export const tokenListCommand: CliCommand = {
  name: 'token list',
  summary: 'List team server tokens (ids, principals, roles, expiry; never the tokens)',
  usage: LIST_USAGE,
  async run(argv, io) {
    let p: ReturnType<typeof parseArgs>;
    try {
      p = parseArgs(argv, { store: 'string', json: 'boolean' });
    } catch (e) {
      io.stderr.write(`schemabrain token list: ${(e as Error).message}\nusage: ${LIST_USAGE}\n`);
      return EXIT_OPERATIONAL;
    }
    return withStore(io, 'token list', LIST_USAGE, () => storeFlag(p, io), async (store) => {
      for (const t of await listTokens(store.pool)) {
        const state = t.revokedAt ? 'revoked' : t.expiresAt && t.expiresAt.getTime() <= Date.now() ? 'expired' : 'live';
        if (p.flags.json === true) io.stdout.write(`${JSON.stringify({ id: t.id, principal: t.principal, role: t.role, sources: t.sources, state, created_by: t.createdBy, created_at: t.createdAt.toISOString(), expires_at: t.expiresAt?.toISOString() ?? null })}\n`);
        else io.stdout.write(`${t.id}  ${t.principal.padEnd(16)} ${t.role.padEnd(8)} ${state.padEnd(8)} ${t.sources ? t.sources.join(',') : '*'}\n`);
      }
      return EXIT_OK;
    });
  },
};
