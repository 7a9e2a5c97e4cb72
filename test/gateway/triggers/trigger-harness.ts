import { vi } from 'vitest';
import { parseConfigText, type Config } from '../../../src/config/index.js';
import { createDatabase, type DatabaseHandle } from '../../../src/db/index.js';
import {
  createInboxStore,
  createSourceLeaseStore,
  createTriggers,
  type InboxStore,
  type Sleep,
  type SourceLeaseStore,
  type Triggers,
  type TriggersOptions,
  type TriggerSourceStatus,
} from '../../../src/gateway/triggers/index.js';
import { tempDataDir, type TestDatabase } from '../../support/databases.js';
import { CapturingLogger, FakeRuns, TestClock } from './webhooks/webhook-harness.js';

export { CapturingLogger, FakeRuns, TestClock };

export const AGENTS_YAML = `
providers:
  upstream: { type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }
agents:
  - { name: billing, model: upstream/test-model }
  - { name: triage, model: upstream/test-model }
`;

/** Quick retries so reconnection tests take milliseconds, not seconds. */
export const FAST_SETTINGS_YAML = `
trigger_settings: { poll_interval_ms: 20, source_backoff: { initial_seconds: 0.02, max_seconds: 0.2 } }
`;

/** Hands each sleep to the test, which lets it end with next(); records the requested delays. */
export class ManualSleep {
  readonly delays: number[] = [];
  private readonly waiting: (() => void)[] = [];
  readonly sleep: Sleep = (ms, signal) =>
    new Promise((resolve) => {
      this.delays.push(ms);
      this.waiting.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  /** Waits for the source to sleep for the n-th time (1-based), then returns that delay. */
  async sleeping(count: number): Promise<number> {
    await vi.waitFor(
      () => {
        if (this.delays.length < count) throw new Error(`${this.delays.length} sleeps so far, waiting for ${count}`);
      },
      { timeout: 10_000, interval: 5 },
    );
    return this.delays[count - 1];
  }
  /** Ends the oldest pending sleep. */
  wake(): void {
    this.waiting.shift()?.();
  }
}

export interface TriggerHarness {
  config: Config;
  database: DatabaseHandle;
  store: InboxStore;
  /** The lease store the listeners hold SSE leases through (patch its methods to simulate a stalled database). */
  leases: SourceLeaseStore;
  runs: FakeRuns;
  logger: CapturingLogger;
  triggers: Triggers;
  /** Builds another Triggers over the same database (the restarted process). */
  restart(overrides?: Partial<TriggersOptions>): Promise<Triggers>;
  status(name: string): TriggerSourceStatus;
  /** Waits until the worker has started this many runs. */
  runsStarted(count: number): Promise<void>;
  close(): Promise<void>;
}

/** The trigger pieces wired as src/app.ts wires them, over a real database; `yaml` holds the pollers/listeners sections. */
export async function startTriggerHarness(
  yaml: string,
  options: { database?: TestDatabase; env?: NodeJS.ProcessEnv; triggers?: Partial<TriggersOptions> } = {},
): Promise<TriggerHarness> {
  const temp = options.database ? undefined : tempDataDir();
  const config = parseConfigText(`${AGENTS_YAML}\n${yaml}`, 'triggers.yaml', options.env ?? {});
  const database = await createDatabase({
    databaseUrl: options.database?.databaseUrl,
    dataDir: options.database?.dataDir ?? temp!.dataDir,
  });
  const store = createInboxStore(database.db);
  const runs = new FakeRuns();
  const logger = new CapturingLogger();
  const sourceLeases = createSourceLeaseStore(database.db);
  const build = (overrides: Partial<TriggersOptions> = {}) =>
    createTriggers({ store, runs, config, logger, sourceLeases, ...options.triggers, ...overrides });
  let current = build();
  return {
    config,
    database,
    store,
    leases: sourceLeases,
    runs,
    logger,
    get triggers() {
      return current;
    },
    async restart(overrides) {
      await current.stop();
      current = build(overrides);
      return current;
    },
    status(name) {
      const source = current.sources.find((candidate) => candidate.name === name);
      if (!source) throw new Error(`no source named ${name}`);
      return source.status();
    },
    async runsStarted(count) {
      await vi.waitFor(
        () => {
          if (runs.calls.length < count) throw new Error(`${runs.calls.length} runs so far, waiting for ${count}`);
        },
        { timeout: 15_000, interval: 10 },
      );
    },
    async close() {
      await current.stop();
      await database.close();
      temp?.remove();
    },
  };
}

/** Waits until a source reaches a state. */
export async function waitForState(
  harness: TriggerHarness,
  name: string,
  state: TriggerSourceStatus['state'],
  timeout = 15_000,
): Promise<TriggerSourceStatus> {
  return vi.waitFor(
    () => {
      const status = harness.status(name);
      if (status.state !== state)
        throw new Error(`${name} is ${status.state} (${status.last_error ?? 'no error'}), waiting for ${state}`);
      return status;
    },
    { timeout, interval: 10 },
  );
}
