import { readRssMb } from './read-rss.js';

export interface RssSampler {
  /** Stops sampling; returns the highest RSS seen (MiB). */
  stop(): number | null;
}

/** Reads a process's RSS every `intervalMs` while a load runs, for its peak. */
export function sampleRss(pid: number, intervalMs: number): RssSampler {
  let peak: number | null = readRssMb(pid) ?? null;
  const timer = setInterval(() => {
    const rss = readRssMb(pid);
    if (rss !== undefined && (peak === null || rss > peak)) peak = rss;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
