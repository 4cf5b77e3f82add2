import { runStdioServer } from '../../server/run';
import { SERVER_USAGE } from '../../server/options';
import type { CliCommand } from '../command';

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Run the MCP server on stdio (what MCP clients launch)',
  usage: SERVER_USAGE,
  async run(argv) {
    const code = await runStdioServer(argv);
    // A running server keeps the process alive and exits on its own; only a start-up failure returns.
    return code >= 0 ? code : new Promise<number>(() => undefined);
  },
};
