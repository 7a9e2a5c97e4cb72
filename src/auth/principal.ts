import type { A2aRestrictions } from './a2a-restrictions.js';

/** Scopes that grant something. Other scope strings are stored but grant nothing. */
export const GRANTING_SCOPES = ['chat', 'a2a', 'tools', 'mcp'] as const;
export type GrantingScope = (typeof GRANTING_SCOPES)[number];

/** Who is calling: an operator (JWT or API key) or an external agent holding an access token. */
export type Principal =
  | {
      kind: 'operator';
      method: 'jwt' | 'api_key';
      subject: string;
      /** A JWT's `exp`, in ms since the epoch: streams it opened end then. */
      expiresAtMs?: number;
    }
  | {
      kind: 'access_token';
      tokenId: string;
      agentName: string;
      scopes: string[];
      singleUse: boolean;
      maxCostUsd: number | null;
      /** The token's own limits per minute, set at creation. */
      rateLimit: { requests_per_minute?: number; tokens_per_minute?: number };
      /** Which skills and A2A methods the token may use; absent: all that its scopes allow. */
      a2a?: A2aRestrictions;
      /** The token's `expires_at`, in ms since the epoch: streams it opened end then. */
      expiresAtMs?: number;
    };
