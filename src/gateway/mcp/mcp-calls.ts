import { cancelledError, type RunHandle } from '../../agents/index.js';
import type { Principal } from '../../auth/index.js';

/**
 * The `tools/call` requests under way in this process, by caller and JSON-RPC id, so that a
 * `notifications/cancelled` (a POST of its own, with no session to tie it to the call) finds its run.
 */
export interface McpCalls {
  /** Records a call's run until the returned function is called. */
  track(principal: Principal, requestId: string | number, run: RunHandle): () => void;
  /**
   * Cancels the run of the caller's call with this id. A call that is unknown, already answered, or not told
   * apart from another of the same caller's calls with the same id (two clients on one credential) is left alone:
   * a receiver may ignore such a cancellation (MCP, cancellation), and cancelling someone else's run is worse.
   */
  cancel(principal: Principal, requestId: string | number): boolean;
}

export function createMcpCalls(): McpCalls {
  const live = new Map<string, Set<RunHandle>>();
  return {
    track(principal, requestId, run) {
      const key = callKey(principal, requestId);
      const runs = live.get(key) ?? new Set();
      live.set(key, runs.add(run));
      return () => {
        runs.delete(run);
        if (runs.size === 0 && live.get(key) === runs) live.delete(key);
      };
    },
    cancel(principal, requestId) {
      const runs = live.get(callKey(principal, requestId));
      if (runs?.size !== 1) return false;
      const [run] = runs;
      run.control.cancel(cancelledError('The MCP client cancelled the call'));
      return true;
    },
  };
}

/** The credential (not the session owner: tokens sharing sessions are still different callers) and the id. */
function callKey(principal: Principal, requestId: string | number): string {
  const caller =
    principal.kind === 'operator' ? `operator:${principal.method}:${principal.subject}` : principal.tokenId;
  return `${caller}\u0000${typeof requestId}:${requestId}`;
}
