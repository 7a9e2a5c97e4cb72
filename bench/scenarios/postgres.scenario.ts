import pg from 'pg';
import { BENCH_SETTINGS } from '../bench-settings.js';
import type { HttpLoadJob } from '../load/load-jobs.js';
import type { Measurement } from '../report/bench-results.js';
import { computeRatios } from '../report/compute-ratios.js';
import { createGatewayTarget, type BenchTarget } from '../targets/bench-target.js';
import { startGateway } from '../targets/start-gateway.js';
import { chatCompletionRequest } from './chat-body.js';
import { interleave } from './interleave.js';
import { requireServices, type Scenario } from './scenario.js';
import { summarizeHttpRounds } from './summarize-http.js';

/** The machine's PostgreSQL (trust auth on loopback) and Redis, as the tests use them. */
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// BENCH_REDIS_URL=none leaves Redis out (in-process bus and counters): what Redis costs, by difference.
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
const CONCURRENCY = 32;

/**
 * The scaled deployment (PostgreSQL for every record, Redis for the run bus and the rate-limit counters) side
 * by side with the SQLite gateway and Portkey at c=32, non-streamed, in one interleaved run. A fresh database
 * per run; the stored runs are counted afterwards against the 200s, so the same records are persisted.
 */
export const postgresScenario: Scenario = {
  name: 'postgres',
  description: `Non-streamed chat completions at c=${CONCURRENCY} (fast upstream): one gateway on PostgreSQL + Redis (fresh database) against the SQLite gateway and Portkey, interleaved; runs stored checked against the 200s.`,
  needsServices: true,
  async run(context) {
    const services = requireServices(context);
    const database = `bench_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    const databaseUrl = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
    const gateway = await startGateway({
      runtime: context.runtime,
      upstreams: services.upstreams,
      guardrails: false,
      name: 'gateway (PostgreSQL + Redis)',
      env: { DATABASE_URL: databaseUrl, ...(REDIS_URL === 'none' ? {} : { REDIS_URL }) },
    });
    try {
      const targets: BenchTarget[] = [
        services.targets.find((target) => target.name === 'ours')!,
        createGatewayTarget('ours+pg', gateway.url, gateway.process.pid),
        services.targets.find((target) => target.name === 'portkey')!,
      ];
      const job = (target: BenchTarget, seconds: number): HttpLoadJob => ({
        kind: 'http',
        method: 'POST',
        ...chatCompletionRequest(target, 'fast', false),
        connections: CONCURRENCY,
        seconds,
      });
      const results = await interleave({
        targets,
        rounds: BENCH_SETTINGS.rounds,
        settle: services.settle,
        measure: (target) => services.worker.run(job(target, BENCH_SETTINGS.roundSeconds)),
        warmUp: (target) => services.worker.run(job(target, BENCH_SETTINGS.warmupSeconds)),
      });
      const measurements: Measurement[] = [];
      let ok200 = 0;
      for (const [target, rounds] of results) {
        const summary = summarizeHttpRounds(rounds);
        measurements.push({ case: `closed loop c=${CONCURRENCY}`, target, ...summary });
        if (target === 'ours+pg') ok200 = rounds.reduce((sum, round) => sum + round.ok, 0);
        context.log(
          `    ${target.padEnd(16)} ${String(summary.metrics.rps).padStart(8)} req/s  p50 ${summary.metrics.p50_ms} ms  p99 ${summary.metrics.p99_ms} ms`,
        );
      }
      await gateway.stop();
      const stored = new pg.Client({ connectionString: databaseUrl });
      await stored.connect();
      const runs = Number((await stored.query<{ n: string }>(`select count(*) as n from runs`)).rows[0].n);
      const usage = Number((await stored.query<{ n: string }>(`select count(*) as n from usage_records`)).rows[0].n);
      await stored.end();
      return {
        measurements,
        ratios: computeRatios(measurements, ['rps', 'p50_ms', 'p99_ms']),
        notes: [
          `PostgreSQL + Redis gateway: ${runs} runs and ${usage} usage records stored (warm-ups included) for ${ok200} measured 200s; database ${POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, '')}/${database} (dropped), Redis ${REDIS_URL}.`,
        ],
      };
    } finally {
      await gateway.stop().catch(() => undefined);
      await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
      await admin.end();
    }
  },
};
