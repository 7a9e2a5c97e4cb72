// `npm run bench` runs every scenario; `npm run bench -- <scenario>…` runs some (their results go to
// bench/results/tmp/partial.*). `--no-build` skips `npm run build`. See bench/README.md.
import { parseArgs } from 'node:util';
import { BENCH_SETTINGS, UPSTREAM_PROFILES } from './bench-settings.js';
import { stopAllChildren } from './processes/child-registry.js';
import { ensureBuild } from './processes/ensure-build.js';
import type { BenchResults, ScenarioResult } from './report/bench-results.js';
import { loadAverage, machineInfo, packageVersions } from './report/machine-info.js';
import { renderReport } from './report/render-report.js';
import { checkTargets } from './report/targets.js';
import { writeResults } from './report/write-results.js';
import { SCENARIOS } from './scenarios/all-scenarios.js';
import type { BenchContext } from './scenarios/scenario.js';
import { startServices, stopServices } from './targets/start-services.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'no-build': { type: 'boolean', default: false } },
  });
  const unknown = positionals.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0)
    throw new Error(
      `unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}`,
    );
  const selected =
    positionals.length > 0 ? SCENARIOS.filter((scenario) => positionals.includes(scenario.name)) : SCENARIOS;
  const started = performance.now();
  const loadBefore = loadAverage();
  log(`bench: ${selected.map((scenario) => scenario.name).join(', ')} (load average ${loadBefore.join(' ')})`);
  const runtime = ensureBuild({ skip: values['no-build'], log });
  const context: BenchContext = { runtime, log };
  const scenarios: ScenarioResult[] = [];
  const failures: BenchResults['failures'] = [];
  try {
    if (selected.some((scenario) => scenario.needsServices)) context.services = await startServices(runtime, log);
    for (const scenario of selected) {
      log(`\n[${scenario.name}] ${scenario.description}`);
      const scenarioStarted = performance.now();
      const load = loadAverage();
      try {
        const output = await scenario.run(context);
        scenarios.push({
          name: scenario.name,
          description: scenario.description,
          ...output,
          seconds: Math.round((performance.now() - scenarioStarted) / 1000),
          load_average: load,
        });
      } catch (error) {
        // One broken scenario must not cost the numbers of the others.
        log(`[${scenario.name}] failed: ${(error as Error).stack ?? String(error)}`);
        failures.push({ scenario: scenario.name, error: (error as Error).message });
      }
    }
  } finally {
    if (context.services)
      await stopServices(context.services).catch((error: Error) => log(`stopping services: ${error.message}`));
    await stopAllChildren();
  }
  const results: BenchResults = {
    generated_at: new Date().toISOString(),
    command: `npm run bench${positionals.length > 0 ? ` -- ${positionals.join(' ')}` : ''}`,
    machine: machineInfo(),
    load_average: { before: loadBefore, after: loadAverage() },
    versions: packageVersions(),
    gateway_runtime: `${runtime.kind === 'dist' ? 'node dist/cli/main.js serve' : 'node --import tsx src/cli/main.ts serve'} (${runtime.note})`,
    settings: { ...BENCH_SETTINGS, upstreams: UPSTREAM_PROFILES },
    scenarios,
    failures,
    total_seconds: Math.round((performance.now() - started) / 1000),
  };
  results.targets = checkTargets(results);
  process.stdout.write(renderReport(results, false));
  const written = writeResults(results, positionals.length === 0);
  log(`\nwrote ${written.join(', ')}`);
  if (failures.length > 0) process.exitCode = 1;
}

main().catch(async (error: Error) => {
  log(`bench failed: ${error.stack ?? error.message}`);
  await stopAllChildren();
  process.exit(1);
});
