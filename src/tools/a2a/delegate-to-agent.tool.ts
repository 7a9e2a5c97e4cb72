import type { TraceSpan } from '../../telemetry/index.js';
import type { A2aConfig, A2aRemoteConfig } from '../../config/index.js';
import type { RawAgentCard } from './a2a-client.js';
// The A2A client SDK loads on the first delegation, not at start-up.
const loadClient = () => import('./a2a-client.js');
import type { RegisteredTool } from '../registered-tool.js';
import { ToolExecutionError } from '../types.js';

/** The tool's own deadline fires first, so the model reads "did not finish in N ms" rather than a bare timeout. */
const GRACE_MS = 3_000;
/** Remote contexts remembered for runs in progress (one per run and remote). */
const MAX_REMEMBERED_CONTEXTS = 10_000;

/**
 * Built-in `delegate_to_agent`: hands a task to a configured remote A2A agent with the official SDK
 * client and returns the remote's final answer. The only credential that crosses is the remote's own
 * scoped token from `a2a.remotes`. Undefined when no remote is configured.
 */
export function createDelegateToAgentTool(config: A2aConfig, now: () => number = Date.now): RegisteredTool | undefined {
  if (config.remotes.length === 0) return undefined;
  const cards = new Map<string, { card: RawAgentCard; fetchedAt: number }>();
  // One conversation per remote within a run: a later call without context_id continues it.
  const contexts = new Map<string, string>();
  const remember = (key: string, contextId: string) => {
    contexts.delete(key);
    contexts.set(key, contextId);
    // Oldest first: a finished run's entries go once newer ones push them out.
    if (contexts.size > MAX_REMEMBERED_CONTEXTS) contexts.delete(contexts.keys().next().value!);
  };

  async function cardOf(remote: A2aRemoteConfig, signal: AbortSignal, trace: TraceSpan): Promise<RawAgentCard> {
    const cached = cards.get(remote.name);
    if (cached && now() - cached.fetchedAt < config.card_ttl_ms) return cached.card;
    try {
      const card = await (await loadClient()).fetchAgentCard(remote.url, signal, trace);
      cards.set(remote.name, { card, fetchedAt: now() });
      return card;
    } catch (error) {
      throw new ToolExecutionError(
        `Could not read the agent card of remote agent "${remote.name}" (${remote.url}): ${describe(error)}`,
        'failed',
      );
    }
  }

  return {
    definition: {
      name: 'delegate_to_agent',
      description: `Delegates a task to another agent (over A2A) and returns that agent's final answer. Agents: ${config.remotes
        .map((remote) => (remote.description ? `${remote.name} (${remote.description})` : remote.name))
        .join('; ')}.`,
      parameters: {
        type: 'object',
        properties: {
          agent: {
            type: 'string',
            enum: config.remotes.map((remote) => remote.name),
            description: 'Which agent to delegate to',
          },
          task: {
            type: 'string',
            minLength: 1,
            description:
              'The task, written so that the other agent can do it without further context; or your answer to its question',
          },
          task_id: {
            type: 'string',
            description: 'Only to answer a question the agent asked: the task_id it gave',
          },
          context_id: {
            type: 'string',
            description:
              'Continues another conversation with the agent (the context_id it gave); by default your earlier calls to the same agent in this conversation are continued',
          },
        },
        required: ['agent', 'task'],
        additionalProperties: false,
      },
    },
    timeoutMs: config.timeout_ms + GRACE_MS,
    async run(args, signal, call) {
      const remote = config.remotes.find((candidate) => candidate.name === args.agent)!;
      const contextKey = call?.runId ? `${call.runId}\u0000${remote.name}` : undefined;
      const givenContext = typeof args.context_id === 'string' && args.context_id ? args.context_id : undefined;
      const contextId = givenContext ?? (contextKey ? contexts.get(contextKey) : undefined);
      const deadline = AbortSignal.timeout(config.timeout_ms);
      const stop = AbortSignal.any([signal, deadline]);
      const card = await cardOf(remote, stop, call?.trace);
      let result;
      try {
        result = await (
          await loadClient()
        ).sendA2aTask({
          card,
          task: String(args.task),
          token: remote.token,
          signal: stop,
          taskId: typeof args.task_id === 'string' && args.task_id ? args.task_id : undefined,
          contextId,
          trace: call?.trace,
        });
      } catch (error) {
        // The endpoint may have moved: the next delegation reads the card again.
        cards.delete(remote.name);
        if (deadline.aborted)
          throw new ToolExecutionError(
            `Remote agent "${remote.name}" did not finish the task within ${config.timeout_ms} ms; it was asked to cancel it`,
            'timeout',
          );
        if (signal.aborted)
          throw new ToolExecutionError(`Delegation to remote agent "${remote.name}" was aborted`, 'aborted');
        throw new ToolExecutionError(
          `Remote agent "${remote.name}" did not accept the task: ${describe(error)}`,
          'failed',
        );
      }
      if (contextKey && result.contextId) remember(contextKey, result.contextId);
      if (result.state === 'completed')
        return result.text || `Remote agent "${remote.name}" completed the task without an answer text.`;
      // The remote waits for us: its question goes to the model, which answers with another call.
      if (result.state === 'input-required')
        return `Remote agent "${remote.name}" needs more input: ${result.text || 'it asked no question'}\nTo answer, call delegate_to_agent again with agent "${remote.name}", task_id "${result.taskId ?? ''}", context_id "${result.contextId ?? ''}" and your answer as the task.`;
      throw new ToolExecutionError(
        `Remote agent "${remote.name}" ended the task as ${result.state}: ${result.text || 'no reason given'}`,
        'failed',
      );
    },
  };
}

/** The remote's own message, said plainly when it refused our credential; network errors by their code. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const info = (error as { data?: unknown }).data;
  const type = Array.isArray(info)
    ? (info[0] as { metadata?: { type?: string } } | undefined)?.metadata?.type
    : undefined;
  if (type === 'authentication_error' || type === 'permission_error')
    return `its gateway refused our token (${message}); the token in a2a.remotes may be revoked, expired or lack the a2a scope`;
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined)?.code : undefined;
  return cause ? `${message} (${cause})` : message;
}
