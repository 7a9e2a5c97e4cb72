import type { ToolDefinition } from '../llm/index.js';
import { NotFoundError, PermissionError } from '../errors.js';
import type { ToolRegistry } from './types.js';

export interface ToolDiscoveryOptions {
  registry: ToolRegistry;
  /** An agent's configured tool list, or undefined when there is no such agent. */
  agentTools(agentName: string): string[] | undefined;
}

/**
 * What a caller may see. `tokenAgent` is the agent an access token is bound to (undefined for operators):
 * a token sees only that agent's tools and may not ask for another agent's.
 */
export function listVisibleTools(
  options: ToolDiscoveryOptions,
  query: { agentName?: string; tokenAgent?: string },
): ToolDefinition[] {
  const { agentName, tokenAgent } = query;
  if (tokenAgent !== undefined) {
    if (agentName !== undefined && agentName !== tokenAgent)
      throw new PermissionError(`This access token is bound to agent "${tokenAgent}"`, 'wrong_agent');
    return toolsOfAgent(options, tokenAgent);
  }
  return agentName === undefined ? options.registry.list() : toolsOfAgent(options, agentName);
}

/** One tool; for a token, a tool outside its agent's list is reported as unknown, so names do not leak. */
export function getVisibleTool(options: ToolDiscoveryOptions, name: string, tokenAgent?: string): ToolDefinition {
  const tool = options.registry.get(name);
  const visible =
    tool && (tokenAgent === undefined || toolsOfAgent(options, tokenAgent).some((own) => own.name === name));
  if (!visible) throw new NotFoundError(`No tool named "${name}"`, 'tool_not_found');
  return tool;
}

function toolsOfAgent(options: ToolDiscoveryOptions, agentName: string): ToolDefinition[] {
  const names = options.agentTools(agentName);
  if (!names) throw new NotFoundError(`No agent named "${agentName}"`, 'agent_not_found');
  return options.registry.forAgent(names);
}
