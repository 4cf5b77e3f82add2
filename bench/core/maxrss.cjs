// Preloaded with `node -r` by the benchmarks: on exit, records the process's peak resident memory (KiB) and the CPU
// time it used (user + system, ms) as JSON in the file named by SB_BENCH_MAXRSS_FILE.
// https://nodejs.org/api/process.html#processresourceusage
const fs = require('node:fs');
const file = process.env.SB_BENCH_MAXRSS_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    fs.writeFileSync(file, JSON.stringify({ maxRssKiB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  });
}
