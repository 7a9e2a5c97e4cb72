import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuthenticationError } from '../errors.js';
import type { TokenService } from './token.service.js';
import {
  createdToken,
  createTokenBody,
  listTokensQuery,
  ownTokenView,
  tokenIdParams,
  tokenView,
} from './tokens.schema.js';

/** What a token may still spend (app.ts: the run service's budgets), in USD. */
export interface TokenBudgetView {
  token: { max_cost_usd: number | null; spent_usd: number; held_usd: number; remaining_usd: number | null };
  agent_daily: { limit_usd: number; spent_usd: number; reserved_usd: number; remaining_usd: number } | null;
}

export interface TokensRoutesOptions {
  tokens: TokenService;
  /** Without it, GET /gateway/token is not mounted. */
  budgetOf?: (tokenId: string, maxCostUsd: number | null, agentName: string) => Promise<TokenBudgetView>;
}

/**
 * Access-token management (spec 4.5): operators only, access tokens never reach these routes. The one
 * exception is GET /gateway/token, where an access token reads its own budget and limits.
 */
export const tokensRoutes: FastifyPluginAsync<TokensRoutesOptions> = async (app, { tokens, budgetOf }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tokens'];

  if (budgetOf)
    routes.get(
      '/gateway/token',
      {
        config: { auth: 'access_token' },
        schema: {
          tags,
          summary: "The presented access token's own budget (and its agent's daily budget) and rate limits",
          response: { 200: ownTokenView },
        },
      },
      async (request) => {
        const principal = request.principal;
        if (principal?.kind !== 'access_token') throw new AuthenticationError();
        const [token, budget] = await Promise.all([
          tokens.get(principal.tokenId),
          budgetOf(principal.tokenId, principal.maxCostUsd, principal.agentName),
        ]);
        const daily = budget.agent_daily;
        return {
          token_id: token.token_id,
          agent_name: token.agent_name,
          scopes: token.scopes,
          expires_at: token.expires_at,
          rate_limit: token.rate_limit,
          budget: budget.token,
          agent_daily_budget: daily && {
            limit_usd: daily.limit_usd,
            spent_usd: daily.spent_usd,
            held_usd: daily.reserved_usd,
            remaining_usd: daily.remaining_usd,
          },
        };
      },
    );

  routes.post(
    '/gateway/tokens',
    {
      schema: {
        tags,
        summary: 'Issue an access token for an external agent',
        body: createTokenBody,
        response: { 201: createdToken },
      },
    },
    async (request, reply) => reply.code(201).send(await tokens.create(request.body)),
  );

  routes.get(
    '/gateway/tokens',
    {
      schema: {
        tags,
        summary: 'List access tokens (never their secrets)',
        querystring: listTokensQuery,
        response: { 200: z.array(tokenView) },
      },
    },
    (request) => tokens.list(request.query.agent_name, request.query),
  );

  routes.get(
    '/gateway/tokens/:id',
    {
      schema: { tags, summary: 'Show one access token', params: tokenIdParams, response: { 200: tokenView } },
    },
    (request) => tokens.get(request.params.id),
  );

  routes.post(
    '/gateway/tokens/:id/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke a token; the record is kept',
        params: tokenIdParams,
        response: { 200: tokenView },
      },
    },
    (request) => tokens.revoke(request.params.id),
  );

  routes.delete(
    '/gateway/tokens/:id',
    {
      schema: {
        tags,
        summary: 'Delete a token permanently',
        params: tokenIdParams,
        response: { 200: z.object({ token_id: z.string(), deleted: z.literal(true) }) },
      },
    },
    async (request) => {
      await tokens.delete(request.params.id);
      return { token_id: request.params.id, deleted: true as const };
    },
  );
};
