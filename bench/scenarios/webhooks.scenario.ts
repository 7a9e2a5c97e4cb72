import { BENCH_SETTINGS, BENCH_WEBHOOK_SECRET } from '../bench-settings.js';
import type { HttpLoadJob } from '../load/load-jobs.js';
import type { Measurement } from '../report/bench-results.js';
import { round } from '../report/sample-stats.js';
import { countStoredDeliveries } from './count-stored-deliveries.js';
import { requireServices, type Scenario } from './scenario.js';
import { summarizeHttpRounds } from './summarize-http.js';

const { connections } = BENCH_SETTINGS.webhooks;

/** Signed webhook deliveries: verified, stored in the inbox, answered 202. Only our gateway has an inbox. */
export const webhooksScenario: Scenario = {
  name: 'webhooks',
  description: `Webhook ingestion: POST /webhooks/bench at c=${connections}, every body unique and signed (hmac-sha256, X-Signature); 202s per second, checked against the rows the gateway committed to SQLite (the handler-less webhook stores each delivery as "ignored", so no agent run follows).`,
  needsServices: true,
  async run(context) {
    const { ours, worker, settle } = requireServices(context);
    const job = (seconds: number): HttpLoadJob => ({
      kind: 'http',
      url: `${ours.url}/webhooks/bench`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      connections,
      seconds,
      sign: { secret: BENCH_WEBHOOK_SECRET, header: 'x-signature' },
    });
    await worker.run(job(BENCH_SETTINGS.warmupSeconds));
    await settle();
    const before = countStoredDeliveries(ours.dataDir, 'bench');
    const rounds = [];
    for (let index = 0; index < BENCH_SETTINGS.rounds; index += 1) {
      await settle();
      rounds.push(await worker.run(job(BENCH_SETTINGS.roundSeconds)));
    }
    const stored = countStoredDeliveries(ours.dataDir, 'bench') - before;
    const summary = summarizeHttpRounds(rounds);
    const accepted = summary.metrics.requests ?? 0;
    const seconds = rounds.reduce((sum, result) => sum + result.seconds, 0);
    // Requests still in flight when a round stops can be stored without their 202 being counted, so only a shortfall means loss.
    const metrics: Record<string, number | null> = { ...summary.metrics, stored_per_second: round(stored / seconds, 1), accepted, stored, accepted_not_stored: Math.max(0, accepted - stored) };
    const measurements: Measurement[] = [{ case: `signed deliveries c=${connections}`, target: 'ours', metrics, rounds: summary.rounds }];
    context.log(`  ours             ${metrics.rps} deliveries/s accepted, ${metrics.stored_per_second}/s stored (${stored} rows for ${accepted} 202s)  p50 ${metrics.p50_ms} ms  p99 ${metrics.p99_ms} ms  errors ${metrics.errors}`);
    return { measurements, ratios: [], notes: ['The upstream and Portkey have no webhook inbox: no baseline.'] };
  },
};
