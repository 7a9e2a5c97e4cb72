// What a registered OpenTelemetry context manager costs by itself on Node 20: AsyncLocalStorageContextManager
// (what NodeTracerProvider.register() sets by default) makes Node run a promise hook for every promise of the
// process. One "request" here makes PROMISES promises (a non-streamed chat completion makes about 490:
// kysely, undici, the runtime), inside a context as the old code did. Interleaved rounds, same process:
// `npx tsx bench/telemetry-promise-hook-cost.ts` (BENCH_REQUESTS, BENCH_PROMISES, BENCH_ROUNDS).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createContextKey, ROOT_CONTEXT, type Context } from '@opentelemetry/api';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5_000);
const PROMISES = Number(process.env.BENCH_PROMISES ?? 490);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const KEY = createContextKey('bench');

async function step(i: number): Promise<number> {
  // An async function call and an await: two promises, as most library calls are.
  return (await Promise.resolve(i)) + 1;
}

async function work(): Promise<void> {
  let n = 0;
  for (let i = 0; i < PROMISES / 2; i += 1) n = await step(n);
}

// The manager's `context.with(ctx, fn)` is `storage.run(ctx, fn)` on one AsyncLocalStorage: the same thing here,
// without reaching into the SDK's own (transitive) package.
async function cpuPerRequest(storage?: AsyncLocalStorage<Context>): Promise<number> {
  const start = process.cpuUsage();
  const ctx = ROOT_CONTEXT.setValue(KEY, 1);
  for (let i = 0; i < REQUESTS; i += 1) await (storage ? storage.run(ctx, work) : work());
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REQUESTS;
}

await cpuPerRequest(); // warm-up
const without: number[] = [];
const withManager: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  without.push(await cpuPerRequest());
  const storage = new AsyncLocalStorage<Context>();
  withManager.push(await cpuPerRequest(storage));
  // The last storage disabled removes Node's promise hook again, so the next round runs without it.
  storage.disable();
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const show = (values: number[]) => values.map((value) => value.toFixed(1)).join(', ');
console.log(`| context manager (${PROMISES} promises per request) | CPU µs per request, median | rounds |`);
console.log('|---|---:|---|');
console.log(`| none (explicit context) | ${median(without).toFixed(1)} | ${show(without)} |`);
console.log(
  `| AsyncLocalStorage (the old context manager) | ${median(withManager).toFixed(1)} | ${show(withManager)} |`,
);
console.log(`added by the manager: ${(median(withManager) - median(without)).toFixed(1)} µs per request`);
