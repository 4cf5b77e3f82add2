import type { Logger } from '../core/util/logger';

/**
 * The last line of defence for a long-running server: an exception thrown outside every try (a driver callback, a
 * timer) or a promise rejected with nobody listening is logged to stderr and the process keeps serving. Node's
 * default is to exit, which for an MCP server over stdio ends the agent's whole session ("Connection closed") over
 * one bad call. Each failure path that is known is handled where it happens (pg-pool.ts limits message sizes, the
 * tools return typed envelopes); this only catches what nobody foresaw, so it says so in the log.
 */
export function installLastResortHandlers(logger: Pick<Logger, 'error'>, proc: NodeJS.Process = process): () => void {
  const onException = (e: unknown): void => {
    logger.error(`uncaught exception (the server keeps serving; this is a bug in SchemaBrain): ${(e as Error)?.stack ?? String(e)}`);
  };
  const onRejection = (reason: unknown): void => {
    logger.error(`unhandled promise rejection (the server keeps serving; this is a bug in SchemaBrain): ${(reason as Error)?.stack ?? String(reason)}`);
  };
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  return () => {
    proc.off('uncaughtException', onException);
    proc.off('unhandledRejection', onRejection);
  };
}
