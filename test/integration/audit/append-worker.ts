// Child process for the multi-process audit tests: appends rows and prints `ack <seq> <worker> <i>` once each
// append has resolved (i.e. is durable). argv: <log path> <worker id> <count, 0 = until killed>
import { openAuditLog } from '../../../src/core/audit/log';
import { row } from '../../unit/audit/helpers';

async function main(): Promise<void> {
  const [file, worker, countText] = process.argv.slice(2);
  const count = Number(countText);
  const log = openAuditLog(file, { lock: { timeoutMs: 30_000 } });
  for (let i = 0; count === 0 || i < count; i++) {
    const rec = await log.append(row({ tool: `worker_${worker}`, rowCount: i }));
    process.stdout.write(`ack ${rec.seq} ${worker} ${i}\n`);
  }
  await log.close();
}

main().catch((err: Error) => {
  process.stderr.write(`worker failed: ${err.message}\n`);
  process.exit(3);
});
