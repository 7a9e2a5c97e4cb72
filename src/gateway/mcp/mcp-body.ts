/** The JSON-RPC message of a POST to /mcp, as far as the route needs it before the SDK reads it. */
interface ToolCallMessage {
  method: 'tools/call';
  params: { name: string };
}

/** Whether the body is one `tools/call` request: the only message that runs an agent (and so is counted). */
export function isToolCall(body: unknown): body is ToolCallMessage {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string';
}

/** The agent a `tools/call` names (its tool is the agent); undefined for any other message. */
export function toolCallAgentOf(body: unknown): string | undefined {
  return isToolCall(body) ? body.params.name : undefined;
}
