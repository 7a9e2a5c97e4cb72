import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createdToken, createTokenBody, listTokensQuery, tokenIdParams, tokenView } from './tokens.schema.js';
import type { TokenService } from './token.service.js';

/** Access-token management (spec 4.5). Operators only: access tokens never reach these routes. */
export const tokensRoutes: FastifyPluginAsync<{ tokens: TokenService }> = async (app, { tokens }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tokens'];

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
