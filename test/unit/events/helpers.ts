import type { Logger } from '../../../src/core/util/logger';

/** A logger that keeps what it was told, to assert on the stderr lines a component would print. */
export function captureLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string): void => {
    lines.push(m);
  };
  return { lines, debug: push, info: push, warn: push, error: push };
}
