import type { AgentRegistry, RunService } from '../../agents/index.js';
import type { Logger } from '../../logger.js';
import { A2aRequestHandler } from './a2a-request-handler.js';
import type { A2aTaskStore } from './a2a-task.store.js';
import { endpointOf, restrictionsOf } from './call-context.js';
import { buildAgentCard, restrictCardSkills, type CardTool } from './cards/agent-card.js';
import { createBufferedTaskStore } from './buffered-task-store.js';
import { createTaskReconciler } from './reconcile-task.js';
import { createRunExecutor } from './run-executor.js';
import { mapInputTools } from './input-tools.js';
import type { A2aPushStore } from './push/a2a-push.store.js';
import { createPushConfigStore } from './push/push-config-store.js';
import type { PushEndpointGuard } from './push/push-endpoint-guard.js';
import { createPushRecorder, NO_SDK_PUSH_SENDER } from './push/push-sender.js';

export interface AgentHandlersOptions {
  agents: AgentRegistry;
  runs: RunService;
  store: A2aTaskStore;
  version: string;
  /** The tools an agent's `tools` list expands to, for its card's skills. */
  toolsOf(names: string[]): CardTool[];
  push: { store: A2aPushStore; guard: PushEndpointGuard; wake(): void };
  logger: Logger;
}

export interface AgentHandlers {
  /** The SDK request handler of an agent published over A2A. */
  get(agentName: string): A2aRequestHandler | undefined;
  names(): string[];
  /** Waits for the tasks still executing (the run drain ends them), then stops writing to the store. */
  close(): Promise<void>;
}

/** One SDK request handler (card, task store, executor) per agent published over A2A (`a2a: true`). */
export function createAgentHandlers(options: AgentHandlersOptions): AgentHandlers {
  const reconcile = createTaskReconciler(options.runs);
  const parts = options.agents
    .list()
    .filter((agent) => agent.a2a)
    .map((agent) => {
      const tasks = createBufferedTaskStore({ agentName: agent.name, store: options.store, reconcile });
      const inputTools = mapInputTools(agent);
      const push = createPushRecorder({
        agentName: agent.name,
        store: options.push.store,
        wake: () => options.push.wake(),
        logger: options.logger,
      });
      const executor = createRunExecutor({ agentName: agent.name, runs: options.runs, tasks, inputTools, push });
      const cardAt = (endpoint: string) =>
        buildAgentCard(agent, { endpoint, version: options.version, tools: options.toolsOf(agent.tools) });
      // The SDK reads this card for protocol versions and capabilities only; clients get one built per request.
      const localEndpoint = `http://localhost/a2a/${agent.name}`;
      const card = cardAt(localEndpoint);
      const handler = new A2aRequestHandler(card, tasks, executor, {
        follow: { runs: options.runs, inputToolNames: new Set(inputTools.map((tool) => tool.name)) },
        push: {
          store: createPushConfigStore({
            agentName: agent.name,
            store: options.push.store,
            guard: options.push.guard,
            isTaskOwnedBy: (taskId, owner) => tasks.isOwnedBy(taskId, owner),
          }),
          sender: NO_SDK_PUSH_SENDER,
        },
        extendedCard: (context) =>
          Promise.resolve(
            restrictCardSkills(cardAt(endpointOf(context) ?? localEndpoint), restrictionsOf(context)?.skills),
          ),
      });
      return { name: agent.name, tasks, executor, handler };
    });
  const byName = new Map(parts.map((part) => [part.name, part.handler]));

  return {
    get: (agentName) => byName.get(agentName),
    names: () => [...byName.keys()],
    async close() {
      await Promise.all(parts.map((part) => part.executor.idle()));
      for (const part of parts) part.tasks.close();
    },
  };
}
