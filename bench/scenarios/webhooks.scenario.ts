import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_SETTINGS, BENCH_WEBHOOK_SECRET } from '../bench-settings.js';
import type { HttpLoadJob } from '../load/load-jobs.js';
import type { Measurement } from '../report/bench-results.js';
import { round } from '../report/sample-stats.js';
import { countStoredDeliveries, readDeliveryProgress, type DeliveryProgress } from './count-stored-deliveries.js';
import { requireServices, type BenchServices, type Scenario } from './scenario.js';
import { summarizeHttpRounds } from './summarize-http.js';

const { connections, processedSeconds, drainTimeoutSeconds } = BENCH_SETTINGS.webhooks;

/** POSTs to one webhook at c=`connections`, every body unique and signed (hmac-sha256, X-Signature). */
function deliveriesJob(baseUrl: string, webhook: string, seconds: number): HttpLoadJob {
  return {
    kind: 'http',
    url: `${baseUrl}/webhooks/${webhook}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections,
    seconds,
    sign: { secret: BENCH_WEBHOOK_SECRET, header: 'x-signature' },
  };
}

/** Signed webhook deliveries: verified, stored in the inbox, answered 202, then run. Only our gateway has an inbox. */
export const webhooksScenario: Scenario = {
  name: 'webhooks',
  description: `Webhook ingestion: POST /webhooks/bench at c=${connections}, every body unique and signed (hmac-sha256, X-Signature); 202s per second, checked against the rows the gateway committed to SQLite (the handler-less webhook stores each delivery as "ignored", so no agent run follows). Then processing: ${processedSeconds} s of the same load on /webhooks/bench-runs, whose handler runs bench-fast (upstream answering at once) per delivery, and the backlog drained; processed = the delivery is "done" (its run ended), read from SQLite with the server's received_at/finished_at.`,
  needsServices: true,
  async run(context) {
    const services = requireServices(context);
    const { ours, worker, settle } = services;
    await worker.run(deliveriesJob(ours.url, 'bench', BENCH_SETTINGS.warmupSeconds));
    await settle();
    const before = countStoredDeliveries(ours.dataDir, 'bench');
    const rounds = [];
    for (let index = 0; index < BENCH_SETTINGS.rounds; index += 1) {
      await settle();
      rounds.push(await worker.run(deliveriesJob(ours.url, 'bench', BENCH_SETTINGS.roundSeconds)));
    }
    const stored = countStoredDeliveries(ours.dataDir, 'bench') - before;
    const summary = summarizeHttpRounds(rounds);
    const accepted = summary.metrics.requests ?? 0;
    const seconds = rounds.reduce((sum, result) => sum + result.seconds, 0);
    // Requests still in flight when a round stops can be stored without their 202 being counted, so only a shortfall means loss.
    const metrics: Record<string, number | null> = {
      ...summary.metrics,
      stored_per_second: round(stored / seconds, 1),
      accepted,
      stored,
      accepted_not_stored: Math.max(0, accepted - stored),
    };
    context.log(
      `  ours             ${metrics.rps} deliveries/s accepted, ${metrics.stored_per_second}/s stored (${stored} rows for ${accepted} 202s)  p50 ${metrics.p50_ms} ms  p99 ${metrics.p99_ms} ms  errors ${metrics.errors}`,
    );

    const processed = await measureProcessing(services, context.log);
    const measurements: Measurement[] = [
      { case: `signed deliveries c=${connections}`, target: 'ours', metrics, rounds: summary.rounds },
      processed,
    ];
    const notes = ['The upstream and Portkey have no webhook inbox: no baseline.'];
    if (processed.metrics.unfinished)
      notes.push(
        `${processed.metrics.unfinished} deliveries of bench-runs were neither done nor failed after ${drainTimeoutSeconds} s.`,
      );
    return { measurements, ratios: [], notes };
  },
};

/**
 * Loads the webhook whose handler runs an agent, then waits until every stored delivery is done or failed.
 * Processed per second spans the first delivery stored to the last one done; the drain is the last 202
 * (its delivery's received_at) to the last one done. All from the server's timestamps, so one clock.
 */
async function measureProcessing(services: BenchServices, log: (line: string) => void): Promise<Measurement> {
  const { ours, worker, settle } = services;
  await settle();
  const load = await worker.run(deliveriesJob(ours.url, 'bench-runs', processedSeconds));
  const summary = summarizeHttpRounds([load]);
  const deadline = Date.now() + drainTimeoutSeconds * 1_000;
  let progress = readDeliveryProgress(ours.dataDir, 'bench-runs');
  while (progress.done + progress.failed < progress.stored && Date.now() < deadline) {
    await sleep(100);
    progress = readDeliveryProgress(ours.dataDir, 'bench-runs');
  }
  const span = elapsedMs(progress.firstReceivedAt, progress.lastFinishedAt);
  const metrics: Record<string, number | null> = {
    rps: summary.metrics.rps,
    p50_ms: summary.metrics.p50_ms,
    p99_ms: summary.metrics.p99_ms,
    errors: summary.metrics.errors,
    accepted: summary.metrics.requests,
    stored: progress.stored,
    processed: progress.done,
    failed: progress.failed,
    unfinished: progress.stored - progress.done - progress.failed,
    processed_per_second: span ? round(progress.done / (span / 1_000), 1) : null,
    drain_ms: elapsedMs(progress.lastReceivedAt, progress.lastFinishedAt),
  };
  log(
    `  ours (handler)   ${metrics.rps} deliveries/s accepted for ${processedSeconds} s, ${metrics.processed}/${metrics.stored} processed at ${metrics.processed_per_second}/s; last 202 → last processed ${formatSeconds(metrics.drain_ms)}  failed ${metrics.failed}  errors ${metrics.errors}`,
  );
  return { case: `deliveries running an agent c=${connections} for ${processedSeconds} s`, target: 'ours', metrics };
}

function elapsedMs(from: DeliveryProgress['firstReceivedAt'], to: DeliveryProgress['lastFinishedAt']): number | null {
  return from && to ? Date.parse(to) - Date.parse(from) : null;
}

function formatSeconds(ms: number | null): string {
  return ms === null ? 'n/a' : `${round(ms / 1_000, 2)} s`;
}
