import assert from 'node:assert/strict';
import { JSON_PROGRESS_INTERVAL_MS, jsonProgressThrottle } from '../../../src/cli/commands/index-common';

describe('JSON progress lines', () => {
  const event = (phase: string, done: number, total: number, percent: number) => ({ phase, done, total, percent });

  it('prints the first and last event of each phase, and each change of the whole percent', () => {
    const now = 0;
    const print = jsonProgressThrottle(() => now);
    assert.equal(print(event('connect', 0, 1, 0)), true);
    assert.equal(print(event('connect', 1, 1, 5)), true);
    assert.equal(print(event('samples', 0, 10_000, 75)), true, 'a new phase');
    // Ten thousand tables between 75 % and 85 %: one line per whole percent, not one per table.
    let printed = 0;
    for (let done = 1; done < 10_000; done++) if (print(event('samples', done, 10_000, 75 + (10 * done) / 10_000))) printed++;
    assert.equal(printed, 9, 'one line as each of 76 … 84 % is reached');
    assert.equal(print(event('samples', 10_000, 10_000, 85)), true, 'the last event of a phase');
    assert.equal(print(event('classify', 0, 10_000, 85)), true);
  });

  it('prints a heartbeat when a phase goes on without the percent moving', () => {
    let now = 1_000;
    const print = jsonProgressThrottle(() => now);
    assert.equal(print(event('samples', 0, 500, 75)), true);
    now += JSON_PROGRESS_INTERVAL_MS - 1;
    assert.equal(print(event('samples', 1, 500, 75.01)), false);
    now += 1;
    assert.equal(print(event('samples', 2, 500, 75.02)), true, 'the interval has passed');
    assert.equal(print(event('samples', 3, 500, 75.03)), false);
  });
});
