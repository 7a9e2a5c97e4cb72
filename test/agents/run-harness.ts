import {
  createAgentRegistry,
  createAgentStore,
  createRunService,
  createRunStore,
  createSessionService,
  createSessionStore,
  type AgentRegistry,
  type RunService,
  type RunServiceOptions,
  type RunStore,
} from '../../src/agents/index.js';
import { createRunEventBus, type RunEventBus } from '../../src/bus/index.js';
import type { AgentConfig } from '../../src/config/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { tempDataDir } from '../support/databases.js';
import {
  createFakeModelClient,
  createFakeToolRegistry,
  type FakeModelClient,
  type FakeTool,
  type FakeToolRegistry,
} from './fakes.js';

export interface RunHarness {
  runs: RunService;
  runStore: RunStore;
  models: FakeModelClient;
  tools: FakeToolRegistry;
  database: DatabaseHandle;
  bus: RunEventBus;
  /** Another run service on the same database, as a second process would be. */
  peer(options?: { bus?: RunEventBus; multiProcess?: boolean }): RunService;
  close(): Promise<void>;
}

export interface RunHarnessOptions {
  /** Defaults to a fresh in-process bus. */
  bus?: RunEventBus;
  multiProcess?: boolean;
  lease?: { intervalMs: number; staleMs: number };
  /** More run service options (pricing, usage sink, guardrails). */
  service?: Partial<RunServiceOptions>;
  /** Wraps the run store the service writes through (to make a write fail). */
  wrapStore?: (store: RunStore) => RunStore;
  /** Tools of `tools` marked idempotent. */
  idempotentTools?: string[];
}

export function agentConfig(overrides: Partial<AgentConfig> & { name: string }): AgentConfig {
  return {
    model: 'up/test-model',
    system_prompt: '',
    description: '',
    capabilities: [],
    tools: [],
    temperature: 0.7,
    max_iterations: 10,
    a2a: true,
    ...overrides,
  };
}

/** A run service over fakes and a real SQLite database in a temp dir. */
export async function createRunHarness(
  agents: AgentConfig[],
  tools: Record<string, FakeTool> = {},
  options: RunHarnessOptions = {},
): Promise<RunHarness> {
  const temp = tempDataDir();
  const database = await createDatabase({ dataDir: temp.dataDir });
  const registry = await createAgentRegistry({ agents, store: createAgentStore(database.db) });
  const models = createFakeModelClient();
  const registryOfTools = createFakeToolRegistry(tools, options.idempotentTools);
  const runStore = createRunStore(database.db, database.writes);
  const bus = options.bus ?? createRunEventBus();
  const build = (serviceBus: RunEventBus, multiProcess: boolean) =>
    buildRunService({
      ...options.service,
      database,
      agents: registry,
      models,
      tools: registryOfTools,
      bus: serviceBus,
      multiProcess,
      lease: options.lease,
      wrapStore: options.wrapStore,
    });
  const runs = build(bus, options.multiProcess ?? false);
  const peers: RunService[] = [];
  return {
    runs,
    runStore,
    models,
    tools: registryOfTools,
    database,
    bus,
    peer(peerOptions = {}) {
      const peer = build(peerOptions.bus ?? bus, peerOptions.multiProcess ?? true);
      peers.push(peer);
      return peer;
    },
    async close() {
      await Promise.all([runs, ...peers].map((service) => service.drain(0)));
      await bus.close();
      await database.close();
      temp.remove();
    },
  };
}

interface RunServiceDeps
  extends
    Pick<RunHarnessOptions, 'lease' | 'wrapStore'>,
    Partial<Omit<RunServiceOptions, 'agents' | 'models' | 'tools' | 'bus' | 'runStore' | 'sessions'>> {
  database: DatabaseHandle;
  agents: AgentRegistry;
  models: FakeModelClient;
  tools: FakeToolRegistry;
  bus: RunEventBus;
  multiProcess: boolean;
}

function buildRunService({ database, wrapStore = (store) => store, ...deps }: RunServiceDeps): RunService {
  const sessions = createSessionService({ store: createSessionStore(database.db, database.writes) });
  return createRunService({ ...deps, runStore: wrapStore(createRunStore(database.db, database.writes)), sessions });
}
