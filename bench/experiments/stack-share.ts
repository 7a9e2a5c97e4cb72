// The share of a CPU profile's busy time spent under frames that match a pattern, by the outermost matching
// frame and by the function that was running: what a feature costs in place, callees included (self time per
// function, as summarize-cpu-profile.ts gives, splits a feature across the libraries it calls).
// `npx tsx bench/experiments/stack-share.ts <file.cpuprofile> [pattern, default: OpenTelemetry and src/telemetry]`
// (e.g. on the profiles `BENCH_CPU_PROF_DIR=… npx tsx bench/telemetry.ts` writes).
import { readFileSync } from 'node:fs';
import { shortPath, withOriginalFrame, type CpuProfile, type ProfileNode } from '../profile/summarize-cpu-profile.js';

export interface StackShare {
  /** Busy (not idle) milliseconds after the skipped start. */
  busyMs: number;
  /** Percent of busy time with a matching frame on the stack. */
  percent: number;
  /** By the outermost matching frame (the entry into the feature). */
  entries: { frame: string; percent: number }[];
  /** By the frame that was running (the leaf), within the matching stacks. */
  leaves: { frame: string; percent: number }[];
}

export function stackShare(file: string, pattern: RegExp, options: { skipMs?: number; top?: number } = {}): StackShare {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map<number, string>();
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    frames.set(node.id, describe(withOriginalFrame(node)));
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const entries = new Map<string, number>();
  const leaves = new Map<string, number>();
  let elapsedUs = 0;
  let busyUs = 0;
  let matchedUs = 0;
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index] ?? 0;
    elapsedUs += us;
    if (elapsedUs < (options.skipMs ?? 4_000) * 1000) return;
    const leaf = frames.get(id)!;
    if (leaf.startsWith('(idle)')) return;
    busyUs += us;
    let outermost: string | undefined;
    for (let current: number | undefined = id; current !== undefined; current = parents.get(current))
      if (pattern.test(frames.get(current)!)) outermost = frames.get(current);
    if (!outermost) return;
    matchedUs += us;
    entries.set(outermost, (entries.get(outermost) ?? 0) + us);
    leaves.set(leaf, (leaves.get(leaf) ?? 0) + us);
  });
  const top = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, options.top ?? 20)
      .map(([frame, us]) => ({ frame, percent: round((us / busyUs) * 100) }));
  return {
    busyMs: Math.round(busyUs / 1000),
    percent: round((matchedUs / busyUs) * 100),
    entries: top(entries),
    leaves: top(leaves),
  };
}

function describe(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'}${url ? ` ${shortPath(url)}:${lineNumber + 1}` : ''}`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, pattern] = process.argv.slice(2);
  if (!file) {
    console.error('usage: npx tsx bench/experiments/stack-share.ts <file.cpuprofile> [pattern]');
    process.exit(2);
  }
  const share = stackShare(file, new RegExp(pattern ?? '@opentelemetry|src/telemetry'));
  console.log(`${share.percent} % of ${share.busyMs} ms busy under /${pattern ?? '@opentelemetry|src/telemetry'}/`);
  console.log('\nby entry (outermost matching frame):');
  for (const { frame, percent } of share.entries) console.log(`${percent.toFixed(2).padStart(7)} %  ${frame}`);
  console.log('\nby running function:');
  for (const { frame, percent } of share.leaves) console.log(`${percent.toFixed(2).padStart(7)} %  ${frame}`);
}
