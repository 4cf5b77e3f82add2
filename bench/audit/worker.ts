// One writer process for the multi-process benchmark: waits for "go" on stdin, appends <count> rows one after
// another (each awaited, i.e. durable), and prints its start and end times.
import { openAuditLog } from '../../src/core/audit/log';
import { benchRow } from './rows';

async function main(): Promise<void> {
  const [file, countText] = process.argv.slice(2);
  const count = Number(countText);
  const log = openAuditLog(file, { lock: { timeoutMs: 60_000 } });
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const start = performance.timeOrigin + performance.now();
  for (let i = 0; i < count; i++) await log.append(benchRow(i));
  const end = performance.timeOrigin + performance.now();
  await log.close();
  process.stdout.write(`${JSON.stringify({ start, end, count })}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`bench worker failed: ${err.message}\n`);
  process.exit(3);
});
