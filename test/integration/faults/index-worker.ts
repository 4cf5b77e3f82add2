// Child process for the concurrent-indexer fault test. For each round r it waits for `<base>/go-<r>`, then indexes
// its own SQLite source into `<base>/r<r>/catalog.sqlite` (shared by all workers of the round) and prints
// `done <r> <generation> <mode>` or `err <r> <kind> <message>`. argv: <base> <source file> <source name> <rounds>
import fs from 'node:fs';
import path from 'node:path';
import { classifyColumn } from '../../../src/core/pii';
import { runIndex } from '../../../src/core/indexing/run-index';
import { createIntrospector } from '../../../src/core/sources';
import { parseSourceSpec } from '../../../src/core/sources/locator';
import { describeIndexError } from '../../../src/cli/commands/index-source';

async function main(): Promise<void> {
  const [base, source, name, roundsText] = process.argv.slice(2);
  const rounds = Number(roundsText);
  const spec = parseSourceSpec(source, { name });
  process.stdout.write('ready\n');
  for (let r = 0; r < rounds; r++) {
    const go = path.join(base, `go-${r}`);
    while (!fs.existsSync(go)) await new Promise((res) => setTimeout(res, 1));
    const catalogPath = path.join(base, `r${r}`, 'catalog.sqlite');
    try {
      const out = await runIndex({ spec, sourceInput: source, catalogPath, deps: { createIntrospector, classifyColumn }, sampleRows: 0 });
      process.stdout.write(`done ${r} ${out.generation} ${out.mode}\n`);
    } catch (e) {
      const info = describeIndexError(e, catalogPath);
      process.stdout.write(`err ${r} ${info.kind} ${info.message.replace(/\n/g, ' ')}\n`);
    }
  }
}

main().catch((err: Error) => {
  process.stderr.write(`worker failed: ${err.stack ?? err.message}\n`);
  process.exit(3);
});
