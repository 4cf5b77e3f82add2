/**
 * Counts tool calls in flight so that shutdown can wait for them: a call that has started is answered (and its
 * audit row written) before the transport, the audit log and the connection pools close.
 */
export interface CallGate {
  /** Marks one call as started; the returned function marks it finished (idempotent). */
  enter(): () => void;
  readonly inFlight: number;
  /** Resolves once no call is in flight, or after `timeoutMs`, with the number still running then. */
  drain(timeoutMs: number): Promise<number>;
}

export function createCallGate(): CallGate {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const settle = (): void => {
    if (inFlight !== 0) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  return {
    enter(): () => void {
      inFlight++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        inFlight--;
        settle();
      };
    },
    get inFlight(): number {
      return inFlight;
    },
    drain(timeoutMs: number): Promise<number> {
      if (inFlight === 0) return Promise.resolve(0);
      return new Promise<number>((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== finish);
          resolve(inFlight);
        }, timeoutMs);
        const finish = (): void => {
          clearTimeout(timer);
          resolve(0);
        };
        waiters.push(finish);
      });
    },
  };
}
