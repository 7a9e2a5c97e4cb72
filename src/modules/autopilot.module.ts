import type { RunService } from '../agents/index.js';
import {
  autopilotRoutes,
  createAutopilot,
  missionsRoutes,
  type Autopilot,
  type NodeAgents,
} from '../autopilot/index.js';
import { createPiiScrubber } from '../guardrails/index.js';
import { registerLifecycle } from '../http/index.js';
import type { ModelClient } from '../llm/index.js';
import type { ToolRegistry } from '../tools/index.js';
import type { AppContext } from './app-context.js';

/**
 * Autopilot over the run service, with its routes. It starts once the server is ready; executions a stopped
 * process left running are recovered by the topology: all at once when this process is its database's only
 * one, else each once its lease lapsed, so a replica that starts never interrupts a live replica's execution.
 * At stop, executions still going after `server.shutdown_timeout_ms` are interrupted (and run again later).
 */
export async function registerAutopilot(
  { server, config, database, topology, clock, backgroundLog }: AppContext,
  deps: { runs: RunService; models: ModelClient; nodeAgents: NodeAgents; tools: ToolRegistry },
): Promise<Autopilot> {
  const autopilot = await createAutopilot({
    config: config.autopilot,
    db: database.db,
    runs: deps.runs,
    nodeAgents: deps.nodeAgents,
    models: deps.models,
    toolNames: () => deps.tools.list().map((tool) => tool.name),
    clock,
    log: backgroundLog,
    dataDir: config.server.data_dir,
    providers: config.providers,
    scrub: createPiiScrubber(),
  });
  registerLifecycle(server, {
    start: () => autopilot.start({ lease: topology.sharedDatabase ? topology.lease : undefined }),
    stop: () => autopilot.close(config.server.shutdown_timeout_ms),
  });
  await server.register(autopilotRoutes, { autopilot });
  await server.register(missionsRoutes, { autopilot });
  return autopilot;
}
