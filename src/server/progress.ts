import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

/** Seconds between heartbeats while a slow tool runs. */
export const PROGRESS_INTERVAL_MS = 1000;

/**
 * `notifications/progress` for one request that carried a progressToken: 0 at the start, one step per interval
 * while the database works (the client shows elapsed time; the total is unknown until the end), and a final step
 * with `total` equal to it. The database layers do not report row counts mid-query, so elapsed time is the honest
 * measure. Returns the function that sends the final step and stops the timer.
 */
export function startProgress(token: string | number, tool: string, send: (n: ServerNotification) => Promise<void>, intervalMs = PROGRESS_INTERVAL_MS): (outcome: string) => Promise<void> {
  let step = 0;
  const started = Date.now();
  const notify = (progress: number, message: string, total?: number): void => {
    void send({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message } }).catch(() => undefined);
  };
  notify(0, `${tool} started`);
  const timer = setInterval(() => {
    step++;
    notify(step, `${tool} running (${Math.round((Date.now() - started) / 1000)} s)`);
  }, intervalMs);
  timer.unref();
  return async (outcome: string) => {
    clearInterval(timer);
    step++;
    notify(step, `${tool} ${outcome}`, step);
  };
}
