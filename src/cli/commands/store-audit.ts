import path from 'node:path';
import { appendStoreAnchor, readStoreAnchor, verifyStoreAudit } from '../../core/store/pg-audit';
import { parseArgs, stringFlag, UsageError } from '../args';
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_OPERATIONAL, type CliIO } from '../command';
import { withStore } from './token';

export const STORE_VERIFY_USAGE = 'schemabrain audit verify --store postgres://user@host/db [--anchor FILE] [--json]';

/**
 * `audit verify --store`: walks the chain in the store (exit 0 intact, 1 broken, 2 operational). With `--anchor
 * FILE` (an append-only file kept outside the database) the last checkpoint in it is checked, and after a clean run
 * the new head is appended, so a consistent rewrite between two runs is caught.
 */
export async function verifyStoreCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let p: ReturnType<typeof parseArgs>;
  try {
    p = parseArgs(argv, { store: 'string', anchor: 'string', json: 'boolean' });
  } catch (e) {
    io.stderr.write(`schemabrain audit verify: ${(e as Error).message}\nusage: ${STORE_VERIFY_USAGE}\n`);
    return EXIT_OPERATIONAL;
  }
  const anchorFile = stringFlag(p, 'anchor') ? path.resolve(stringFlag(p, 'anchor')!) : null;
  return withStore(
    io,
    'audit verify',
    STORE_VERIFY_USAGE,
    () => {
      const url = stringFlag(p, 'store');
      if (!url) throw new UsageError('--store needs a postgres:// URL');
      return url;
    },
    async (store) => {
      const anchor = anchorFile ? readStoreAnchor(anchorFile) : null;
      const result = await verifyStoreAudit(store.pool, { anchor });
      if (result.ok && anchorFile && result.head.seq > 0) appendStoreAnchor(anchorFile, result.head);
      if (p.flags.json === true) io.stdout.write(`${JSON.stringify({ ok: result.ok, rows: result.rows, head: result.head, anchor: result.anchor, breaks: result.breaks })}\n`);
      else {
        for (const b of result.breaks) io.stdout.write(`seq ${b.seq ?? '-'}: ${b.reason} — ${b.detail}\n`);
        io.stdout.write(result.ok ? `audit chain intact: ${result.rows} rows, head seq ${result.head.seq}${anchor ? `, anchor seq ${anchor.seq} holds` : ''}\n` : `audit chain BROKEN: ${result.breaks.length} problem(s) in ${result.rows} rows\n`);
      }
      return result.ok ? EXIT_OK : EXIT_CHECK_FAILED;
    },
  );
}
