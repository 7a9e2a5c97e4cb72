import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_API_KEY, BENCH_WEBHOOK_SECRET, type UpstreamProfile } from '../bench-settings.js';
import type { GatewayRuntime } from '../processes/ensure-build.js';
import { findFreePort } from '../processes/free-port.js';
import { spawnService, type ServiceProcess } from '../processes/spawn-service.js';

const CONFIG_FILE = fileURLToPath(new URL('../gateway.yaml', import.meta.url));

export interface GatewayInstance {
  url: string;
  process: ServiceProcess;
  dataDir: string;
  /** Stops the gateway (SIGTERM: it drains and, with --cpu-prof, writes its profile) and deletes its data dir. */
  stop(): Promise<void>;
}

export interface StartGatewayOptions {
  runtime: GatewayRuntime;
  upstreams: Record<UpstreamProfile, { url: string }>;
  /** The 50 MB upstream of the stalled-readers scenario (agent bench-huge). */
  hugeUpstreamUrl?: string;
  /** Starts this CLI instead of the build's (BENCH_GATEWAY_CLI: e.g. a build of an earlier commit, for a before/after). */
  cli?: string;
  guardrails: boolean;
  /** Writes a V8 CPU profile into this directory when the gateway exits. */
  cpuProfileDir?: string;
  /** More environment, e.g. DATABASE_URL and REDIS_URL for the PostgreSQL + Redis deployment. */
  env?: Record<string, string>;
  /** The name in the bench's logs. */
  name?: string;
}

/** `agent-gateway serve --config bench/gateway.yaml` on a fresh SQLite data dir, timed from spawn. */
export async function startGateway(options: StartGatewayOptions): Promise<GatewayInstance> {
  const port = await findFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-bench-'));
  const url = `http://127.0.0.1:${port}`;
  try {
    const process = await spawnService({
      name: options.name ?? (options.guardrails ? 'gateway (guardrails on)' : 'gateway'),
      nodeArgs: [
        ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
        ...(options.cli ? [options.cli] : options.runtime.nodeArgs),
        'serve',
        '--config',
        CONFIG_FILE,
      ],
      env: {
        ...globalThis.process.env,
        BENCH_GATEWAY_PORT: String(port),
        BENCH_DATA_DIR: dataDir,
        BENCH_API_KEY,
        BENCH_WEBHOOK_SECRET,
        BENCH_GUARDRAILS: String(options.guardrails),
        BENCH_UPSTREAM_FAST: options.upstreams.fast.url,
        BENCH_UPSTREAM_PACED: options.upstreams.paced.url,
        BENCH_UPSTREAM_SLOW: options.upstreams.slow.url,
        ...(options.hugeUpstreamUrl ? { BENCH_UPSTREAM_HUGE: options.hugeUpstreamUrl } : {}),
        ...options.env,
      },
      readyLine: /^listening on (http:\/\/\S+)$/,
      healthUrl: `${url}/healthz`,
    });
    return {
      url,
      process,
      dataDir,
      async stop() {
        await process.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
