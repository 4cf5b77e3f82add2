import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

/** Seconds between heartbeats while a slow tool runs. */
export const PROGRESS_INTERVAL_MS = 1000;

/**
 * `notifications/progress` for one request that carried a progressToken: 0 at the start, one step per interval
 * while the database works (the client shows elapsed time; the total is unknown until the end), and a final step
 * with `total` equal to it. The database layers do not report row counts mid-query, so elapsed time is the honest
 * measure. Returns `finish`, which sends the final step and stops the timer, and `sent`, the number of
 * notifications sent so far (the call's event records it, so an operator sees how long a client watched a call).
 */
export interface ProgressReporter {
  finish(outcome: string): Promise<void>;
  sent(): number;
}

export function startProgress(token: string | number, tool: string, send: (n: ServerNotification) => Promise<void>, intervalMs = PROGRESS_INTERVAL_MS): ProgressReporter {
  let step = 0;
  let sent = 0;
  const started = Date.now();
  const notify = (progress: number, message: string, total?: number): void => {
    sent++;
    void send({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message } }).catch(() => undefined);
  };
  notify(0, `${tool} started`);
  const timer = setInterval(() => {
    step++;
    notify(step, `${tool} running (${Math.round((Date.now() - started) / 1000)} s)`);
  }, intervalMs);
  timer.unref();
  return {
    async finish(outcome: string): Promise<void> {
      clearInterval(timer);
      step++;
      notify(step, `${tool} ${outcome}`, step);
    },
    sent: () => sent,
  };
}
