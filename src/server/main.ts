import { runStdioServer } from './run';
import { terminalSafeLines } from '../core/util/terminal-text';

/** dist/server.js: the MCP server on stdio. */
runStdioServer(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    process.stderr.write(`schemabrain server failed to start: ${terminalSafeLines((e as Error).stack ?? String(e))}\n`);
    process.exit(2);
  },
);
