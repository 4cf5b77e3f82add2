/**
 * node-postgres, required on first use. Importing it costs tens of milliseconds at start-up (it probes for a
 * Cloudflare runtime by building a fetch Response), which a server answering tools/list or a SQLite-only index
 * never needs to pay.
 */
type PgModule = typeof import('pg');
type CursorClass = typeof import('pg-cursor');

let pg: PgModule | undefined;
let cursor: CursorClass | undefined;

export function pgDriver(): PgModule {
  pg ??= require('pg') as PgModule;
  return pg;
}

export function pgCursor(): CursorClass {
  cursor ??= require('pg-cursor') as CursorClass;
  return cursor;
}
