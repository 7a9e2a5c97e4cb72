import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { fetch as undiciFetch } from 'undici';
import { createAddressPolicy } from './address-policy.js';
import { createGuardedAgent, refusedAddressOf } from './create-guarded-agent.js';

/** The SSRF rules of the HTTP tools, for other outbound POSTs (A2A push notifications). */
export interface OutboundGuard {
  /** Why `url` may not be reached (scheme, or every address its host resolves to is refused); undefined when it may. */
  refusal(url: string): Promise<string | undefined>;
  /** POSTs through a connection that checks each address again (a name may resolve elsewhere later). */
  post(url: string, request: { headers: Record<string, string>; body: string; timeoutMs: number }): Promise<number>;
}

/**
 * Only public unicast addresses plus the ranges `allowPrivate` names, as for the HTTP tools; a refusal names
 * `setting`, the config key that lists them.
 */
export function createOutboundGuard(allowPrivate: readonly string[], setting: string): OutboundGuard {
  const policy = createAddressPolicy(allowPrivate, setting);
  const dispatcher = createGuardedAgent(policy);
  return {
    async refusal(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return `"${url}" is not a URL`;
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'only http and https URLs are allowed';
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) return policy.refusal(host);
      let addresses: { address: string }[];
      try {
        addresses = await lookup(host, { all: true });
      } catch {
        return `host "${host}" does not resolve`;
      }
      const reasons = addresses.map((entry) => policy.refusal(entry.address));
      return reasons.some((reason) => reason === undefined) ? undefined : reasons[0];
    },
    async post(url, request) {
      try {
        const response = await undiciFetch(url, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          dispatcher,
          redirect: 'manual',
          signal: AbortSignal.timeout(request.timeoutMs),
        });
        await response.body?.cancel();
        return response.status;
      } catch (error) {
        const refused = refusedAddressOf(error);
        throw refused ?? error;
      }
    },
  };
}
