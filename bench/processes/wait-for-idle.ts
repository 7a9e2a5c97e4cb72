import { readFileSync } from 'node:fs';

const POLL_MS = 100;
/** Clock ticks (1/100 s) a process may use per poll and still count as idle: 10 % of a core. */
const IDLE_TICKS = 1;
const QUIET_POLLS = 2;

/**
 * Waits until none of `pids` uses CPU any more, at most `timeoutMs`. A non-streamed run outlives a client
 * that went away, so a gateway can still be finishing the last round's requests when the next target's
 * round starts; on two cores that work would be charged to whichever target comes next.
 */
export async function waitForIdle(pids: readonly number[], timeoutMs = 10_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  let previous = pids.map(cpuTicks);
  let quiet = 0;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const current = pids.map(cpuTicks);
    const busy = current.some((ticks, index) => ticks - previous[index] > IDLE_TICKS);
    previous = current;
    quiet = busy ? 0 : quiet + 1;
    if (quiet >= QUIET_POLLS) return true;
  }
  return false;
}

/** utime + stime of a process from /proc/<pid>/stat; 0 once it is gone. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name, which may itself contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
