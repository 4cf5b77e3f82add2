import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { constantDescriptions } from '../../../bench/retrieval/ablation';
import { RANKING } from '../../../src/core/search/rank';

describe('bench retrieval ablation: what each constant is', () => {
  it('takes the first sentence of the doc comment right before each constant', () => {
    const src = [
      'export const RANKING = {',
      '  /** One line. More after it. */',
      '  alpha: 0.5,',
      '  beta: 2,',
      '  /** Paths up to `delta` steps. */',
      '  epsilon: 3,',
      '  delta: 4,',
      '  /**',
      '   * Several lines: the first sentence',
      '   * runs on. Then another.',
      '   */',
      '  gamma: 1,',
      '};',
    ].join('\n');
    const d = constantDescriptions(src, ['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    assert.equal(d.get('alpha'), 'One line.');
    assert.equal(d.get('beta'), undefined, 'a constant no comment names has no description');
    assert.equal(d.get('delta'), '(with `epsilon`) Paths up to `delta` steps.', 'one named by another constant\'s comment borrows it, marked');
    assert.equal(d.get('gamma'), 'Several lines: the first sentence runs on.');
  });

  it('describes most constants of the real RANKING', () => {
    const file = path.join(__dirname, '..', '..', '..', 'src', 'core', 'search', 'ranking.ts');
    assert.ok(readFileSync(file, 'utf8').includes('export const RANKING'), 'ranking.ts defines RANKING');
    const names = Object.keys(RANKING);
    const d = constantDescriptions(readFileSync(file, 'utf8'), names);
    const described = names.filter((n) => (d.get(n) ?? '').length > 0);
    assert.ok(described.length >= names.length * 0.6, `${described.length} of ${names.length} constants described`);
    assert.match(d.get('thesaurus') ?? '', /^Concept matches count this much of a literal match/);
  });
});
