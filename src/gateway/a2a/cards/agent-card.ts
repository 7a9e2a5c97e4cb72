import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { RegisteredAgent } from '../../../agents/index.js';

/**
 * A tool as a public card may show it: its name only. Tool descriptions are written for the model and
 * may carry configuration (http_request lists its allowed hosts); the authenticated /api/v1/tools shows them.
 */
export interface CardTool {
  name: string;
}

export interface AgentCardSettings {
  /** The agent's A2A endpoint, `<base>/a2a/<name>`. */
  endpoint: string;
  /** The gateway's version, published as the card's version. */
  version: string;
  tools: CardTool[];
}

export const BEARER_SCHEME = 'bearer';

export function describeAgent(agent: RegisteredAgent): string {
  return agent.description || `The ${agent.name} agent`;
}

/**
 * The standard A2A 1.0 card of an agent. One JSON-RPC endpoint serves 1.0 and, through the SDK's
 * compatibility layer, 0.3 peers, so the card lists it once per protocol version. The system prompt,
 * model settings and tool descriptions or configuration never appear: the agent's name, description,
 * capabilities, skills (capabilities and tool names) and endpoint.
 */
export function buildAgentCard(agent: RegisteredAgent, settings: AgentCardSettings): AgentCard {
  return {
    name: agent.name,
    description: describeAgent(agent),
    supportedInterfaces: duplicateInterfacesForLegacy(
      [{ url: settings.endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }],
      ['JSONRPC'],
    ),
    provider: undefined,
    version: settings.version,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: true },
    securitySchemes: {
      [BEARER_SCHEME]: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            scheme: 'Bearer',
            bearerFormat: '',
            description: `An access token (sat-…) with the a2a scope for agent "${agent.name}", or an API key or JWT of the gateway`,
          },
        },
      },
    },
    securityRequirements: [{ schemes: { [BEARER_SCHEME]: { list: [] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: buildSkills(agent, settings.tools),
    signatures: [],
  };
}

/** One skill per declared capability and per tool; an agent with neither gets one general skill. */
function buildSkills(agent: RegisteredAgent, tools: CardTool[]): AgentSkill[] {
  const skill = (id: string, name: string, description: string, tags: string[]): AgentSkill => ({
    id,
    name,
    description,
    tags,
    examples: [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  });
  const skills = [
    ...agent.capabilities.map((capability) =>
      skill(slug(capability), capability, `${agent.name}: ${capability}`, ['capability']),
    ),
    ...tools.map((tool) => skill(`tool-${slug(tool.name)}`, tool.name, `Uses the tool ${tool.name}`, ['tool'])),
  ];
  return skills.length > 0 ? skills : [skill('general', agent.name, describeAgent(agent), ['general'])];
}

/**
 * The authenticated extended card of a caller: the agent's card with only the skills the caller's
 * access token may use (every skill for a token without skill restrictions, and for operators).
 */
export function restrictCardSkills(card: AgentCard, allowedSkills: string[] | null | undefined): AgentCard {
  if (!allowedSkills) return card;
  return { ...card, skills: card.skills.filter((skill) => allowedSkills.includes(skill.id)) };
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'skill'
  );
}
