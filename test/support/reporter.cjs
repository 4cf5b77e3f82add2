// Mocha's spec output plus one closing line in the plain form CI reads: "N passed, N failed[, N skipped]".
// The same counts are written to $SCHEMABRAIN_TEST_SUMMARY (JSON) so scripts/test.mjs can add suites up.
const Mocha = require('mocha');
const fs = require('node:fs');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const s = this.stats;
      const line = `${s.passes} passed, ${s.failures} failed` + (s.pending ? `, ${s.pending} skipped` : '');
      process.stdout.write(`mocha: ${line}\n`);
      const out = process.env.SCHEMABRAIN_TEST_SUMMARY;
      if (out) fs.writeFileSync(out, JSON.stringify({ passed: s.passes, failed: s.failures, skipped: s.pending }));
    });
  }
}
module.exports = SummaryReporter;
