/**
 * The PostgreSQL parser (libpg-query, WASM), required on first use: processes that never guard SQL (the indexer,
 * `tail`, `audit`, a server answering only catalog tools) never load or compile it.
 */
type PgParser = typeof import('libpg-query');

let parser: PgParser | undefined;

export function pgParser(): PgParser {
  parser ??= require('libpg-query') as PgParser;
  return parser;
}
