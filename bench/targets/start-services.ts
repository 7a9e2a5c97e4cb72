import { startLoadWorker } from '../load/load-worker-client.js';
import type { GatewayRuntime } from '../processes/ensure-build.js';
import { readRssMb } from '../processes/read-rss.js';
import { waitForIdle } from '../processes/wait-for-idle.js';
import type { BenchServices } from '../scenarios/scenario.js';
import { createDirectTarget, createGatewayTarget, createPortkeyTarget } from './bench-target.js';
import { startGateway } from './start-gateway.js';
import { startPortkey } from './start-portkey.js';
import { startUpstreams } from './start-upstreams.js';

/** Idle time after start-up before the idle RSS is read: lazy module loading and timers settle first. */
const IDLE_SETTLE_MS = 2_000;

/** Starts the upstreams, both gateway configs, Portkey and the load generator, one after the other. */
export async function startServices(runtime: GatewayRuntime, log: (line: string) => void): Promise<BenchServices> {
  log('starting fake upstreams, two gateways (guardrails off/on), Portkey and the load generator…');
  const upstreams = await startUpstreams();
  const ours = await startGateway({ runtime, upstreams, guardrails: false });
  const guarded = await startGateway({ runtime, upstreams, guardrails: true });
  const portkey = await startPortkey();
  const worker = startLoadWorker();
  const targets = [
    createDirectTarget(upstreams),
    createGatewayTarget('ours', ours.url, ours.process.pid),
    createGatewayTarget('ours+guardrails', guarded.url, guarded.process.pid),
    createPortkeyTarget(portkey.url, portkey.process.pid, upstreams),
  ];
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  const idleRssMb = Object.fromEntries(
    targets.flatMap((target) => (target.pid === undefined ? [] : [[target.name, readRssMb(target.pid)]])),
  );
  log(
    `  upstreams ${Object.values(upstreams)
      .map((upstream) => upstream.url)
      .join(' ')}; gateway ${ours.url}, guardrails ${guarded.url}, portkey ${portkey.url}`,
  );
  const pids = [
    ours.process.pid,
    guarded.process.pid,
    portkey.process.pid,
    worker.pid,
    ...Object.values(upstreams).map((upstream) => upstream.process.pid),
  ];
  return { upstreams, ours, guarded, portkey, targets, worker, idleRssMb, settle: () => waitForIdle(pids) };
}

export async function stopServices(services: BenchServices): Promise<void> {
  await Promise.all([
    services.ours.stop(),
    services.guarded.stop(),
    services.portkey.process.stop(),
    services.worker.close(),
  ]);
  await Promise.all(Object.values(services.upstreams).map((upstream) => upstream.process.stop()));
}
