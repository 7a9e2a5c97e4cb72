import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import { LogCapture, TEST_API_KEY } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { injectFetch } from '../support/inject.js';
import { startFakeBlueprintService, type FakeBlueprintService } from './fake-blueprint-service.js';

/** A clock tests move by hand: no assertion depends on the wall clock. */
export interface TestClock {
  (): Date;
  set(iso: string): void;
  advance(ms: number): void;
}

export function createTestClock(start = '2026-11-23T08:00:00.000Z'): TestClock {
  let now = new Date(start).getTime();
  const clock = (() => new Date(now)) as TestClock;
  clock.set = (iso) => (now = new Date(iso).getTime());
  clock.advance = (ms) => (now += ms);
  return clock;
}

export interface ApiAnswer {
  status: number;
  body: any;
}

export interface AutopilotHarness {
  app: App;
  url: string;
  logs: LogCapture;
  dataDir: string;
  clock: TestClock;
  service: FakeBlueprintService;
  upstream: FakeUpstream;
  api(
    method: string,
    path: string,
    body?: unknown,
    options?: { project?: string; headers?: Record<string, string> },
  ): Promise<ApiAnswer>;
  /** Restarts the app on the same data dir (same service and upstream). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** Extra lines inside the `autopilot:` section, indented by two spaces. */
  autopilot?: string[];
  env?: NodeJS.ProcessEnv;
  /** false: no service_url configured. */
  withService?: boolean;
  /** false: no autopilot.model configured. */
  withModel?: boolean;
  /** Lines appended to the YAML (e.g. a tools section). */
  extraYaml?: string;
}

function yaml(options: HarnessOptions): string {
  return [
    'auth:',
    '  api_keys: ["${TEST_API_KEY}"]',
    'providers:',
    '  upstream: { type: openai-compatible, base_url: "${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }',
    'agents:',
    '  - name: helper',
    '    model: upstream/test-model',
    'autopilot:',
    ...(options.withService === false ? [] : ['  service_url: "${BLUEPRINT_SERVICE_URL}"']),
    ...(options.withModel === false ? [] : ['  model: upstream/test-model']),
    '  scheduler_poll_ms: 0',
    ...(options.autopilot ?? []).map((line) => `  ${line}`),
    options.extraYaml ?? '',
  ].join('\n');
}

/** A fake hosted service, a fake OpenAI-compatible upstream and a real app between them, on loopback. */
export async function startAutopilot(options: HarnessOptions = {}): Promise<AutopilotHarness> {
  const service = await startFakeBlueprintService();
  const upstream = await startFakeUpstream();
  const temp = tempDataDir();
  const file = join(temp.dataDir, 'agent-gateway.yaml');
  writeFileSync(file, yaml(options));
  const env = { TEST_API_KEY, UPSTREAM_URL: upstream.url, BLUEPRINT_SERVICE_URL: service.url, ...options.env };
  let config: Config;
  try {
    config = loadConfig({ file, env }).config;
  } catch (error) {
    await Promise.all([service.close(), upstream.close()]);
    temp.remove();
    throw error;
  }
  const clock = createTestClock();
  const harness = { service, upstream, clock, dataDir: temp.dataDir } as AutopilotHarness;

  async function boot() {
    const logs = new LogCapture();
    const app = await createApp({
      config: { ...config, server: { ...config.server, host: '127.0.0.1', port: 0, data_dir: temp.dataDir } },
      logStream: logs,
      clock,
    });
    Object.assign(harness, { app, logs, url: await app.listen() });
  }
  await boot();
  harness.api = async (method, path, body, requestOptions = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${TEST_API_KEY}`, ...requestOptions.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (requestOptions.project) headers['x-project-id'] = requestOptions.project;
    // Through inject(): these calls check status and body only (the CLI tests reach harness.url over a socket).
    const response = await injectFetch(harness.app.server, `/api/v1/autopilot${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  harness.restart = async () => {
    await harness.app.close();
    await boot();
  };
  harness.stop = async () => {
    await harness.app.close();
    await Promise.all([service.close(), upstream.close()]);
    temp.remove();
  };
  return harness;
}

/** Waits until the app has no mission execution in flight (executions run in the background). */
export async function settle(harness: AutopilotHarness): Promise<void> {
  await harness.app.autopilot.idle();
}
