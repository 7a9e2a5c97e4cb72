import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SESSION_ID_PATTERN, type AgentRegistry, type RegisteredAgent } from '../../agents/index.js';
import type { Principal } from '../../auth/index.js';

/** What a call of an agent's tool takes: the message, and the session to continue (one is started without it). */
export const agentToolArguments = z.strictObject({
  message: z.string().min(1, 'message must not be empty'),
  session_id: z.string().regex(SESSION_ID_PATTERN, 'session_id is 1-128 letters, digits, _ . : or -').optional(),
});

export type AgentToolArguments = z.infer<typeof agentToolArguments>;

const INPUT_SCHEMA: Tool['inputSchema'] = {
  type: 'object',
  properties: {
    message: { type: 'string', minLength: 1, description: 'What to ask the agent' },
    session_id: {
      type: 'string',
      pattern: SESSION_ID_PATTERN.source,
      description: 'Continue this conversation (the session_id of an earlier answer); omitted: a new one starts',
    },
  },
  required: ['message'],
  additionalProperties: false,
};

const OUTPUT_SCHEMA: NonNullable<Tool['outputSchema']> = {
  type: 'object',
  properties: {
    answer: { type: 'string', description: "The agent's answer (also the text content)" },
    run_id: { type: 'string', description: 'The run that answered: GET /api/v1/admin/runs/{run_id} shows it' },
    session_id: { type: 'string', description: 'Send it back as session_id to continue the conversation' },
  },
  required: ['answer', 'run_id', 'session_id'],
};

/** The agents `principal` may call: every agent for an operator, its own for an access token. */
export function reachableAgents(agents: AgentRegistry, principal: Principal): RegisteredAgent[] {
  if (principal.kind === 'operator') return agents.list();
  const own = agents.find(principal.agentName);
  return own ? [own] : [];
}

/** One MCP tool per agent, named after it (agent names are valid MCP tool names: letters, digits, _ . -). */
export function mapAgentToTool(agent: RegisteredAgent): Tool {
  return {
    name: agent.name,
    title: agent.name,
    description: agent.description || `Ask the agent "${agent.name}"`,
    inputSchema: INPUT_SCHEMA,
    outputSchema: OUTPUT_SCHEMA,
  };
}
