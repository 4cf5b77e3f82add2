// Preloaded with `node -r` by the benchmarks: records the process's peak resident memory (KiB) on exit.
// https://nodejs.org/api/process.html#processresourceusage
const fs = require('node:fs');
const file = process.env.SB_BENCH_MAXRSS_FILE;
if (file) {
  process.on('exit', () => {
    fs.writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
