import { ValidationError } from '../../errors.js';
import type { ToolChoice, ToolDefinition } from '../../llm/index.js';

/**
 * Refuses (400, naming both) a tool the caller sent under the name of one of the agent's own tools: one name
 * would stand for two tools, and which one runs would be a guess. A `tool_choice` naming a tool neither offers,
 * or asking for a tool call when there is no tool at all, is refused too, as OpenAI refuses it.
 * Tools the agent's own config declares for its caller (A2A requires_input) are not the caller's, and pass.
 */
export function checkClientTools(
  agentName: string,
  own: readonly ToolDefinition[],
  clientTools: readonly ToolDefinition[],
  toolChoice: ToolChoice | undefined,
): void {
  const ownNames = new Set(own.map((tool) => tool.name));
  for (const [index, tool] of clientTools.entries()) {
    if (tool.awaitsCaller || !ownNames.has(tool.name)) continue;
    throw new ValidationError(
      `tools[${index}]: the caller's tool "${tool.name}" has the name of agent ${agentName}'s own tool "${tool.name}"; give the caller's tool another name`,
      'invalid_request',
      { param: `tools.${index}` },
    );
  }
  if (toolChoice === undefined || toolChoice === 'auto' || toolChoice === 'none') return;
  const offered = [...ownNames, ...clientTools.map((tool) => tool.name)];
  if (toolChoice === 'required') {
    if (offered.length > 0) return;
    throw new ValidationError('tool_choice: "required" needs at least one tool, and none was sent', 'invalid_request', {
      param: 'tool_choice',
    });
  }
  if (offered.includes(toolChoice.name)) return;
  throw new ValidationError(
    `tool_choice: no tool named "${toolChoice.name}" (the tools: ${offered.join(', ') || 'none'})`,
    'invalid_request',
    { param: 'tool_choice' },
  );
}
