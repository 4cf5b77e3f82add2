import fs from 'node:fs';

/** Whether a process with this pid exists (EPERM means it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The kernel's start time of `pid` (clock ticks since boot, field 22 of /proc/<pid>/stat), as a string; undefined
 * where /proc is not available or the process is gone. Together with the pid it names one process for good: a pid
 * reused by a later process has a different start time.
 */
export function processStartTime(pid: number): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start && /^\d+$/.test(start) ? start : undefined;
}

/** This process's own identity for owner records: `{ pid, start }` (start is '' where /proc is unavailable). */
export const SELF_START_TIME = processStartTime(process.pid) ?? '';

/**
 * Whether the process recorded as (`pid`, `start`) still runs. A recorded start time that differs from the live
 * process's means the pid was reused; an empty recorded start (older owner records, no /proc) falls back to the pid.
 */
export function ownerAlive(pid: number, start: string | undefined): boolean {
  if (!processAlive(pid)) return false;
  if (!start) return true;
  const now = processStartTime(pid);
  return now === undefined || now === start;
}
