import assert from 'node:assert/strict';
import { parseDuration } from '../../../src/core/store/tokens';

describe('token --expires durations', () => {
  it('reads minutes, hours and days', () => {
    assert.equal(parseDuration('90m'), 90 * 60_000);
    assert.equal(parseDuration('12h'), 12 * 3_600_000);
    assert.equal(parseDuration('30d'), 30 * 86_400_000);
  });

  it('refuses zero (it would mean a token that never expires), negatives, seconds and words', () => {
    for (const bad of ['0m', '0d', '00h', '-1m', '5s', 'soon', '']) assert.throws(() => parseDuration(bad), /at least 1m/, bad);
  });
});
