import { createHash } from 'node:crypto';

/**
 * The session that holds an A2A context's conversation. The context id is the caller's to choose, so
 * the session id is derived from it together with the agent and the owner: two principals (or two
 * agents) using the same context id never share, or even learn of, each other's conversation.
 */
export function contextSessionId(agentName: string, owner: string, contextId: string): string {
  const digest = createHash('sha256').update(`${agentName}\n${owner}\n${contextId}`).digest('base64url');
  return `a2a-ctx-${digest.slice(0, 32)}`;
}
