import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_SETTINGS } from '../bench-settings.js';
import { summarizeCpuProfile } from '../profile/summarize-cpu-profile.js';
import type { Measurement } from '../report/bench-results.js';
import { createGatewayTarget } from '../targets/bench-target.js';
import { startGateway } from '../targets/start-gateway.js';
import { chatCompletionRequest } from './chat-body.js';
import { requireServices, type Scenario } from './scenario.js';

const PROFILE_DIR = fileURLToPath(new URL('../results/tmp/profiles/', import.meta.url));
const CONCURRENCIES = [1, 32];

/** Not part of the default run: a CPU profile of a separate gateway under each non-streamed load. */
export const profileScenario: Scenario = {
  name: 'profile',
  description: `CPU profile (node --cpu-prof) of a fresh gateway under ${BENCH_SETTINGS.profile.seconds} s of non-streamed completions at c=${CONCURRENCIES.join(' and c=')}; top self-time functions, and self time by module (native work counted for its JavaScript caller), start-up and warm-up left out. The .cpuprofile files stay in bench/results/tmp/profiles/ (open them in Chrome DevTools).`,
  needsServices: true,
  async run(context) {
    const { upstreams, worker } = requireServices(context);
    const measurements: Measurement[] = [];
    const notes: string[] = [];
    for (const connections of CONCURRENCIES) {
      const dir = join(PROFILE_DIR, `nonstream-c${connections}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const gateway = await startGateway({
        runtime: context.runtime,
        upstreams,
        guardrails: false,
        cpuProfileDir: dir,
      });
      const target = createGatewayTarget('ours', gateway.url, gateway.process.pid);
      const load = {
        kind: 'http' as const,
        method: 'POST' as const,
        ...chatCompletionRequest(target, 'fast', false),
        connections,
      };
      await worker.run({ ...load, seconds: BENCH_SETTINGS.warmupSeconds });
      const skipMs = performance.now() - gateway.process.spawnedAt;
      const result = await worker.run({ ...load, seconds: BENCH_SETTINGS.profile.seconds });
      // SIGTERM makes the gateway drain and exit normally, which is when V8 writes the profile.
      await gateway.stop();
      const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
      if (!file) {
        notes.push(`c=${connections}: no .cpuprofile was written`);
        continue;
      }
      const summary = summarizeCpuProfile(join(dir, file), { skipMs });
      context.log(`  c=${connections}: ${result.ok} requests, ${summary.totalMs} ms profiled; top self time:`);
      for (const entry of summary.functions) context.log(`    ${String(entry.percent).padStart(5)} %  ${entry.name}`);
      context.log('  by module:');
      for (const entry of summary.modules) context.log(`    ${String(entry.percent).padStart(5)} %  ${entry.name}`);
      for (const entry of summary.functions)
        measurements.push({
          case: `c=${connections} function`,
          target: entry.name,
          metrics: { self_ms: entry.selfMs, percent: entry.percent },
        });
      for (const entry of summary.modules)
        measurements.push({
          case: `c=${connections} module`,
          target: entry.name,
          metrics: { self_ms: entry.selfMs, percent: entry.percent },
        });
      notes.push(
        `c=${connections}: ${join('bench/results/tmp/profiles', `nonstream-c${connections}`, file)}, ${result.ok} requests in ${BENCH_SETTINGS.profile.seconds} s, ${summary.totalMs} ms of samples after start-up and warm-up.`,
      );
    }
    return { measurements, ratios: [], notes };
  },
};
