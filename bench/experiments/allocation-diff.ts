// Bytes allocated per request by function, two sampled allocation profiles side by side (B minus A, largest
// first): what a change adds to the garbage each request makes. Profiles from sample-allocations.cjs;
// attribution follows V8's inlining, so a function that is inlined in one build and not in the other moves
// bytes to its caller: read the totals and the clearly new frames, not every row.
//
//   npx tsx bench/experiments/allocation-diff.ts <a.heapprofile> <requests-a> <b.heapprofile> <requests-b> [rows, default 30]
import { readFileSync } from 'node:fs';

interface SamplingHeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children?: SamplingHeapProfileNode[];
}

function bytesByFunction(file: string): { total: number; byFunction: Map<string, number> } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: SamplingHeapProfileNode };
  const byFunction = new Map<string, number>();
  let total = 0;
  const pending = [profile.head];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const { functionName, url, lineNumber } = node.callFrame;
    // Chunk names without their content hash, so that two builds' frames line up.
    const where = url
      .replace(/^.*node_modules\//, '')
      .replace(/^.*\/(dist|src)\//, '$1/')
      .replace(/-[A-Z0-9]{8}\.js$/, '.js');
    const name = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    total += node.selfSize;
    pending.push(...(node.children ?? []));
  }
  return { total, byFunction };
}

const [fileA, requestsA, fileB, requestsB, rows = '30'] = process.argv.slice(2);
if (!requestsB)
  throw new Error('usage: allocation-diff.ts <a.heapprofile> <requests-a> <b.heapprofile> <requests-b> [rows]');
const a = bytesByFunction(fileA);
const b = bytesByFunction(fileB);
const perA = (bytes: number) => bytes / Number(requestsA);
const perB = (bytes: number) => bytes / Number(requestsB);
console.log(`bytes per request: A ${perA(a.total).toFixed(0)}, B ${perB(b.total).toFixed(0)}`);
console.log('B - A      A      B  function');
const names = new Set([...a.byFunction.keys(), ...b.byFunction.keys()]);
const diffs = [...names]
  .map((name) => ({ name, a: perA(a.byFunction.get(name) ?? 0), b: perB(b.byFunction.get(name) ?? 0) }))
  .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a));
for (const { name, a: bytesA, b: bytesB } of diffs.slice(0, Number(rows)))
  console.log(
    `${(bytesB - bytesA).toFixed(0).padStart(6)} ${bytesA.toFixed(0).padStart(6)} ${bytesB.toFixed(0).padStart(6)}  ${name}`,
  );
