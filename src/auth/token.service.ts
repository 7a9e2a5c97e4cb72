import { hash, randomBytes } from 'node:crypto';
import type { AuthConfig } from '../config/index.js';
import { AuthenticationError, NotFoundError, PermissionError, ValidationError } from '../errors.js';
import { createId, isoAfterSeconds, isoNow } from '../ids.js';
import { canonicalA2aMethod, type A2aRestrictions } from './a2a-restrictions.js';
import type { Principal } from './principal.js';
import type { TokenRecord, TokenStore } from './token.store.js';

export const ACCESS_TOKEN_PREFIX = 'sat-';

export type TokenStatus = 'active' | 'revoked' | 'used' | 'expired';

/** A token as operators see it: never the hash, never the plaintext. */
export interface TokenView {
  token_id: string;
  agent_name: string;
  scopes: string[];
  single_use: boolean;
  status: TokenStatus;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  use_count: number;
  token_suffix: string;
  max_cost_usd: number | null;
  /** The token's own limits per minute; null when it has none. */
  rate_limit: TokenRateLimit | null;
  /** Allowed skills and A2A methods (1.0 names); null: everything the a2a scope allows. */
  a2a: A2aRestrictions | null;
}

export interface TokenRateLimit {
  requests_per_minute?: number;
  tokens_per_minute?: number;
}

export interface CreateTokenInput {
  agent_name: string;
  scopes?: string[];
  expires_in_seconds?: number;
  single_use?: boolean;
  max_cost_usd?: number;
  rate_limit?: TokenRateLimit;
  /** Limits A2A use to these skill ids and methods (either protocol version's names). */
  a2a?: { skills?: string[]; methods?: string[] };
}

export interface CreatedToken extends TokenView {
  /** The plaintext, returned once. */
  token: string;
}

export interface TokenService {
  create(input: CreateTokenInput): Promise<CreatedToken>;
  /** Newest first; one page of them with `page`. */
  list(agentName?: string, page?: { limit: number; offset: number }): Promise<TokenView[]>;
  get(tokenId: string): Promise<TokenView>;
  revoke(tokenId: string): Promise<TokenView>;
  delete(tokenId: string): Promise<void>;
  /** Resolves a presented plaintext to a principal without using it up; throws 401 when it is not usable now. */
  inspect(plaintext: string): Promise<Extract<Principal, { kind: 'access_token' }>>;
  /**
   * Throws 401 when a token presented earlier was revoked, deleted or expired since. A spent single-use token
   * passes: its use was the request that opened what is being checked (a stream).
   */
  recheck(tokenId: string): Promise<void>;
  /** Records one use; for a single-use token only the first call succeeds. Throws 401/403 when not usable. */
  consume(principal: Extract<Principal, { kind: 'access_token' }>, agentName?: string): Promise<void>;
}

export interface TokenServiceOptions {
  store: TokenStore;
  config: AuthConfig['tokens'];
  agentExists: (name: string) => boolean;
  now?: () => Date;
}

export function hashToken(plaintext: string): string {
  return hash('sha256', plaintext, 'hex');
}

export function createTokenService({
  store,
  config,
  agentExists,
  now = () => new Date(),
}: TokenServiceOptions): TokenService {
  const statusOf = (row: TokenRecord): TokenStatus =>
    row.status === 'active' && row.expires_at <= isoNow(now()) ? 'expired' : row.status;
  const view = (row: TokenRecord): TokenView => ({
    token_id: row.token_id,
    agent_name: row.agent_name,
    scopes: row.scopes,
    single_use: row.single_use,
    status: statusOf(row),
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    use_count: row.use_count,
    token_suffix: row.token_suffix,
    max_cost_usd: row.max_cost_usd,
    rate_limit: rateLimitOf(row),
    a2a: row.a2a_restrictions,
  });
  const unusable = (row: TokenRecord | undefined): AuthenticationError => {
    if (!row) return new AuthenticationError('Access token is unknown or was deleted', 'invalid_token');
    const status = statusOf(row);
    if (status === 'revoked') return new AuthenticationError('Access token has been revoked', 'token_revoked');
    if (status === 'used')
      return new AuthenticationError('Single-use access token has already been used', 'token_used');
    return new AuthenticationError('Access token has expired', 'token_expired');
  };
  const mustFind = async (tokenId: string) => {
    const row = await store.findById(tokenId);
    if (!row) throw new NotFoundError(`No access token with id "${tokenId}"`, 'token_not_found');
    return row;
  };

  return {
    async create(input) {
      if (!agentExists(input.agent_name))
        throw new ValidationError(`agent_name: no agent named "${input.agent_name}" is registered`, 'unknown_agent', {
          param: 'agent_name',
        });
      const expiresIn = input.expires_in_seconds ?? config.default_expires_in_seconds;
      if (expiresIn > config.max_expires_in_seconds) {
        throw new ValidationError(
          `expires_in_seconds: must be at most ${config.max_expires_in_seconds}`,
          'invalid_expires_in_seconds',
          { param: 'expires_in_seconds' },
        );
      }
      const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('hex')}`;
      const createdAt = now();
      const a2a = input.a2a ? normalizeRestrictions(input.a2a) : null;
      const row = {
        token_id: createId('tok'),
        token_hash: hashToken(token),
        token_suffix: token.slice(-4),
        agent_name: input.agent_name,
        scopes: [...new Set(input.scopes ?? ['chat'])],
        single_use: input.single_use ?? false,
        created_at: isoNow(createdAt),
        expires_at: isoAfterSeconds(expiresIn, createdAt),
        max_cost_usd: input.max_cost_usd ?? null,
        requests_per_minute: input.rate_limit?.requests_per_minute ?? null,
        tokens_per_minute: input.rate_limit?.tokens_per_minute ?? null,
        a2a_restrictions: a2a,
      };
      await store.insert(row);
      const { requests_per_minute: _requests, tokens_per_minute: _tokens, a2a_restrictions: _a2a, ...shown } = row;
      return {
        token,
        ...shown,
        a2a,
        rate_limit: rateLimitOf(row),
        status: 'active',
        last_used_at: null,
        use_count: 0,
      };
    },
    async list(agentName, page) {
      return (await store.list({ agentName, page })).map(view);
    },
    async get(tokenId) {
      return view(await mustFind(tokenId));
    },
    async revoke(tokenId) {
      const row = await store.revoke(tokenId);
      if (!row) throw new NotFoundError(`No access token with id "${tokenId}"`, 'token_not_found');
      return view(row);
    },
    async delete(tokenId) {
      if (!(await store.delete(tokenId)))
        throw new NotFoundError(`No access token with id "${tokenId}"`, 'token_not_found');
    },
    async inspect(plaintext) {
      const row = await store.findByHash(hashToken(plaintext));
      if (!row || statusOf(row) !== 'active') throw unusable(row);
      return {
        kind: 'access_token',
        tokenId: row.token_id,
        agentName: row.agent_name,
        scopes: row.scopes,
        singleUse: row.single_use,
        maxCostUsd: row.max_cost_usd,
        rateLimit: rateLimitOf(row) ?? {},
        ...(row.a2a_restrictions ? { a2a: row.a2a_restrictions } : {}),
        expiresAtMs: Date.parse(row.expires_at),
      };
    },
    async recheck(tokenId) {
      const row = await store.findById(tokenId);
      const status = row && statusOf(row);
      if (status !== 'active' && status !== 'used') throw unusable(row);
    },
    async consume(principal, agentName) {
      checkTokenAgent(principal, agentName);
      const row = await store.consume(principal.tokenId, isoNow(now()), agentName);
      if (!row) throw unusable(await store.findById(principal.tokenId));
    },
  };
}

/** Throws 403 wrong_agent when an access token is used for an agent other than its own. */
export function checkTokenAgent(principal: Extract<Principal, { kind: 'access_token' }>, agentName?: string): void {
  if (agentName !== undefined && agentName !== principal.agentName)
    throw new PermissionError(`This access token is bound to agent "${principal.agentName}"`, 'wrong_agent');
}

function rateLimitOf(row: Pick<TokenRecord, 'requests_per_minute' | 'tokens_per_minute'>): TokenRateLimit | null {
  if (row.requests_per_minute === null && row.tokens_per_minute === null) return null;
  return {
    ...(row.requests_per_minute !== null && { requests_per_minute: row.requests_per_minute }),
    ...(row.tokens_per_minute !== null && { tokens_per_minute: row.tokens_per_minute }),
  };
}

/** Method names in either protocol version's spelling are kept under their 1.0 name; an unknown one is refused. */
function normalizeRestrictions(input: NonNullable<CreateTokenInput['a2a']>): A2aRestrictions {
  const methods = input.methods?.map((name) => {
    const canonical = canonicalA2aMethod(name);
    if (!canonical)
      throw new ValidationError(`a2a.methods: "${name}" is not an A2A method`, 'unknown_a2a_method', {
        param: 'a2a.methods',
      });
    return canonical;
  });
  return {
    skills: input.skills ? [...new Set(input.skills)] : null,
    methods: methods ? [...new Set(methods)] : null,
  };
}
