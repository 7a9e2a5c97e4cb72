import { createAgentRegistry, createAgentStore, createRunService, createRunStore, createSessionService, createSessionStore, type RunService, type RunStore } from '../../src/agents/index.js';
import type { AgentConfig } from '../../src/config/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { tempDataDir } from '../support/databases.js';
import { createFakeModelClient, createFakeToolRegistry, type FakeModelClient, type FakeTool, type FakeToolRegistry } from './fakes.js';

export interface RunHarness {
  runs: RunService;
  runStore: RunStore;
  models: FakeModelClient;
  tools: FakeToolRegistry;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export function agentConfig(overrides: Partial<AgentConfig> & { name: string }): AgentConfig {
  return { model: 'up/test-model', system_prompt: '', description: '', capabilities: [], tools: [], temperature: 0.7, max_iterations: 10, a2a: true, ...overrides };
}

/** A run service over fakes and a real SQLite database in a temp dir. */
export async function createRunHarness(agents: AgentConfig[], tools: Record<string, FakeTool> = {}): Promise<RunHarness> {
  const temp = tempDataDir();
  const database = await createDatabase({ dataDir: temp.dataDir });
  const registry = await createAgentRegistry({ agents, store: createAgentStore(database.db) });
  const models = createFakeModelClient();
  const registryOfTools = createFakeToolRegistry(tools);
  const runStore = createRunStore(database.db);
  const sessions = createSessionService({ store: createSessionStore(database.db) });
  const runs = createRunService({ agents: registry, models, tools: registryOfTools, runStore, sessions });
  return {
    runs,
    runStore,
    models,
    tools: registryOfTools,
    database,
    async close() {
      await database.close();
      temp.remove();
    },
  };
}
