import { readFileSync } from 'node:fs';
import { BENCH_API_KEY, BENCH_PROMPT } from '../bench-settings.js';
import { startOwnerStream } from '../load/fanout-load.js';
import { nowMs } from '../upstream/chunk-text.js';
import type { FanoutResult } from '../load/load-jobs.js';
import type { LoadWorker } from '../load/load-worker-client.js';
import { round, summarize } from '../report/sample-stats.js';

const CPU_SAMPLE_MS = 100;

export interface FanoutMeasurement {
  metrics: Record<string, number | null>;
  /** Every subscriber's lag (ms) over the counted chunks. */
  lagMs: number[];
}

/**
 * One AG-UI run on `bench-slow` and `subscribers` SSE clients spread evenly over `workers` (each its own
 * process, attaching `attachBatch / workers` at a time, so the total in flight stays `attachBatch`). Only
 * chunks stamped after the last subscriber of every worker attached count: earlier ones come from the run
 * log's replay. Also the gateway's CPU per delivery (utime + stime over the whole job, attaches included)
 * (gateway_cpu_us_per_delivery: the delivery phase only, from the first CPU sample after the last attach)
 * and each load process's CPU and event-loop delay, which must stay low for the lag to be the gateway's.
 */
export async function measureFanout(options: {
  baseUrl: string;
  gatewayPid: number;
  workers: readonly LoadWorker[];
  subscribers: number;
  attachBatch: number;
}): Promise<FanoutMeasurement> {
  const { workers, subscribers } = options;
  // The gateway's CPU, sampled through the run, so that the delivery phase can be told from the attaches.
  const cpuSamples: Array<[number, number]> = [];
  const sampleCpu = () => cpuSamples.push([nowMs(), cpuTicks(options.gatewayPid)]);
  sampleCpu();
  const sampler = setInterval(sampleCpu, CPU_SAMPLE_MS);
  const owner = await startOwnerStream(options.baseUrl, BENCH_API_KEY, 'bench-slow', BENCH_PROMPT);
  const results: FanoutResult[] = await Promise.all(
    workers.map((worker, index) =>
      worker.run({
        kind: 'fanout',
        baseUrl: options.baseUrl,
        apiKey: BENCH_API_KEY,
        runId: owner.runId,
        subscribers: Math.floor(subscribers / workers.length) + (index < subscribers % workers.length ? 1 : 0),
        attachBatch: Math.max(1, Math.round(options.attachBatch / workers.length)),
        timeoutMs: 60_000,
      }),
    ),
  );
  const ownerClean = await owner.ended;
  clearInterval(sampler);
  sampleCpu();
  const attachedAt = Math.max(...results.map((result) => result.attachedAt));
  const [, endTicks] = cpuSamples.at(-1)!;
  const gatewayCpuMs = (endTicks - cpuSamples[0][1]) * 10;
  // From the first sample after the last attach: the counted deliveries (and the run's own stream) only.
  const fromSample = cpuSamples.find(([at]) => at >= attachedAt) ?? cpuSamples.at(-1)!;
  const deliveryCpuMs = (endTicks - fromSample[1]) * 10;
  const countedFrom = fromSample[0];
  const attachStartedAt = Math.min(...results.map((result) => result.attachStartedAt));
  const lagMs: number[] = [];
  for (const result of results)
    for (let index = 0; index < result.deliveries.length; index += 2)
      if (result.deliveries[index] >= attachedAt) lagMs.push(result.deliveries[index + 1] - result.deliveries[index]);
  const ownerLag = summarize(owner.arrivals.filter(([stamp]) => stamp >= attachedAt).map(([stamp, at]) => at - stamp));
  const lag = summarize(lagMs);
  const clientCpuMs = results.reduce((sum, result) => sum + result.client.cpuMs, 0);
  const deliveryMs = Math.max(...results.map((result) => result.client.deliveryMs));
  return {
    lagMs,
    metrics: {
      subscribers_attached: results.reduce((sum, result) => sum + result.attached, 0),
      attach_failures: results.reduce((sum, result) => sum + result.failed, 0),
      attach_ms: round(attachedAt - attachStartedAt, 1),
      deliveries: lag.count,
      lag_p50_ms: lag.p50,
      lag_p90_ms: lag.p90,
      lag_p99_ms: lag.p99,
      lag_max_ms: lag.max,
      owner_lag_p50_ms: ownerLag.p50,
      owner_lag_p99_ms: ownerLag.p99,
      chunks_min: Math.min(...results.map((result) => result.chunksPerSubscriber.min)),
      chunks_max: Math.max(...results.map((result) => result.chunksPerSubscriber.max)),
      dropped_streams: results.reduce((sum, result) => sum + result.dropped, 0) + (ownerClean ? 0 : 1),
      gateway_cpu_ms: gatewayCpuMs,
      gateway_cpu_us_per_delivery: countedAfter(results, countedFrom, deliveryCpuMs),
      load_processes: workers.length,
      // Summed over the load processes, as a share of one core over the delivery phase.
      client_cpu_pct: round((clientCpuMs / deliveryMs) * 100, 1),
      client_eld_p99_ms: round(Math.max(...results.map((result) => result.client.eventLoopDelayP99Ms))),
      client_eld_max_ms: round(Math.max(...results.map((result) => result.client.eventLoopDelayMaxMs))),
    },
  };
}

/** µs of gateway CPU per delivery of a chunk stamped after `from` (when the CPU count started). */
function countedAfter(results: FanoutResult[], from: number, cpuMs: number): number | null {
  let deliveries = 0;
  for (const result of results)
    for (let index = 0; index < result.deliveries.length; index += 2)
      if (result.deliveries[index] >= from) deliveries += 1;
  return deliveries ? round((cpuMs * 1000) / deliveries, 1) : null;
}

/** utime + stime of a process in clock ticks (1/100 s) from /proc/<pid>/stat. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name, which may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
