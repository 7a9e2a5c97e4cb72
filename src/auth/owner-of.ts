import type { Principal } from './principal.js';

/**
 * The access-token scope that makes tokens of one agent share their sessions and A2A tasks. Without it
 * each token owns what it creates; it grants no route (see GRANTING_SCOPES).
 */
export const SHARED_SESSIONS_SCOPE = 'shared_sessions';

/**
 * Who owns the sessions and A2A tasks a principal creates: `token:<token_id>` for an access token,
 * `agent:<agent_name>` for an access token holding `shared_sessions`, and `operator:<method>:<subject>`
 * for an operator (JWT: its `sub`; API key: a fingerprint of the key).
 */
export function ownerOf(principal: Principal): string {
  if (principal.kind === 'operator') return `operator:${principal.method}:${principal.subject}`;
  return principal.scopes.includes(SHARED_SESSIONS_SCOPE)
    ? `agent:${principal.agentName}`
    : `token:${principal.tokenId}`;
}

/** Operators read every session and task; everybody else only their own. */
export function readsEverything(principal: Principal): boolean {
  return principal.kind === 'operator';
}
