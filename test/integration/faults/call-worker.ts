// Child process for the audit fault tests: a real SchemaBrain server (createServer + recorder, no transport) that
// answers find_relevant_tables calls in a loop and prints `ans <i> <status> <error kind|->` for each answer.
// argv: <catalog> <audit log> <worker id> <count, 0 = until killed> [lock timeout ms]
import { auditedServer, questionArgs } from './support';

async function main(): Promise<void> {
  const [catalog, audit, worker, countText, lockText] = process.argv.slice(2);
  const count = Number(countText);
  const { server, recorder } = await auditedServer(catalog, audit, { lockTimeoutMs: lockText ? Number(lockText) : undefined });
  process.stdout.write('ready\n');
  for (let i = 0; count === 0 || i < count; i++) {
    const env = await server.callTool('find_relevant_tables', questionArgs(`${worker}-${i}`));
    process.stdout.write(`ans ${i} ${env.status} ${env.error?.kind ?? '-'}\n`);
  }
  await recorder.close();
}

main().catch((err: Error) => {
  process.stderr.write(`worker failed: ${err.stack ?? err.message}\n`);
  process.exit(3);
});
