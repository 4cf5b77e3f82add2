import assert from 'node:assert/strict';
import { blindDatabase, goalParts } from '../../../bench/retrieval/blind-sets';
import { goalVerdict, pool, wilson } from '../../../bench/retrieval/scores';

describe('bench retrieval scores: intervals and pools', () => {
  it('gives the Wilson interval of a share, inside [0, 1] at the ends', () => {
    const [lo0, hi0] = wilson(0, 10);
    assert.equal(lo0, 0);
    assert.ok(Math.abs(hi0 - 0.2775) < 1e-4, `upper bound of 0/10 is ${hi0}`);
    const [lo, hi] = wilson(5, 10);
    assert.ok(Math.abs(lo - 0.2366) < 1e-4 && Math.abs(hi - 0.7634) < 1e-4, `5/10 gives ${lo}–${hi}`);
    const [lo10, hi10] = wilson(10, 10);
    assert.ok(Math.abs(lo10 - 0.7225) < 1e-4, `lower bound of 10/10 is ${lo10}`);
    assert.equal(hi10, 1);
    // A few hundred questions still leave a few points either way.
    const [a, b] = wilson(370, 880);
    assert.ok(a < 0.42 && b > 0.42 && b - a > 0.06 && b - a < 0.07, `370/880 gives ${a}–${b}`);
    assert.deepEqual(wilson(0, 0), [0, 1]);
  });

  it('pools per-set means weighted by their question counts', () => {
    const s = (n: number, full10: number, r10: number) => ({ n, r1: 0, r3: 0, r5: 0, r10, full5: 0, full10, mrr: 0 });
    const p = pool([s(25, 0.2, 0.5), s(75, 0.6, 0.9)]);
    assert.equal(p.n, 100);
    assert.ok(Math.abs(p.full10 - 0.5) < 1e-12);
    assert.ok(Math.abs(p.r10 - 0.8) < 1e-12);
    assert.equal(pool([]).n, 0);
    assert.equal(pool([]).full10, 0);
  });

  it('names the database of a blind set and says how far a share falls short of its goal', () => {
    assert.equal(blindDatabase('musicbrainz-blind'), 'musicbrainz');
    assert.equal(blindDatabase('adventureworks-blind35'), 'adventureworks');
    assert.equal(blindDatabase('spider-dev-per-db'), null);
    assert.equal(goalVerdict(0.929, 0.9), 'met');
    assert.equal(goalVerdict(0.9, 0.9), 'met');
    assert.equal(goalVerdict(0.413, 0.6), 'not met (0.187 short)');
  });

  it('pools a database\'s blind sets into held-out halves (judged), dev halves and the untuned rounds whole', () => {
    const results = [
      { name: 'pagila-blind', dev: 'p1d', heldOut: 'p1h' },
      { name: 'pagila-blind11', dev: 'p11d', heldOut: 'p11h' },
      { name: 'pagila-blind5', dev: 'p5d', heldOut: null },
      { name: 'musicbrainz-blind', dev: 'm1d', heldOut: 'm1h' },
      { name: 'spider-dev-per-db', dev: 'sd', heldOut: 'sh' },
    ];
    const parts = goalParts(results, 'pagila', (r, split) => r[split]);
    assert.deepEqual(parts, [
      { label: 'held-out', halves: ['p1h'], judged: true },
      { label: 'dev', halves: ['p1d', 'p5d'], judged: false },
      { label: 'untuned rounds', halves: ['p11d', 'p11h'], judged: false },
    ]);
    // A part with no halves is left out; a database with no sets has no parts.
    assert.deepEqual(goalParts(results, 'musicbrainz', (r, split) => r[split]).map((p) => p.label), ['held-out', 'dev']);
    assert.deepEqual(goalParts(results, 'adventureworks', (r, split) => r[split]), []);
  });
});
