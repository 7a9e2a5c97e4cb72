import { AgentCard } from '@a2a-js/sdk';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AgentRegistry } from '../../../agents/index.js';
import { NotFoundError } from '../../../errors.js';
import { a2aVersionHeaders, agentNameParams, specAgentCardList } from '../a2a.schema.js';
import { buildAgentCard, type CardTool } from './agent-card.js';
import { isLegacyVersion } from '../json-rpc/json-rpc-dispatcher.js';
import { mapToLegacyCard } from './legacy-agent-card.js';
import { publicUrlVary, resolvePublicBaseUrl, type PublicUrlSettings } from './resolve-public-base-url.js';
import { mapToSpecCard } from './spec-agent-card.js';

export interface CardsRoutesOptions {
  agents: AgentRegistry;
  /** Where the cards say the agents are: server.public_url, else the listen address (see resolvePublicBaseUrl). */
  publicUrl: PublicUrlSettings;
  version: string;
  toolsOf(names: string[]): CardTool[];
}

const CACHE_CONTROL = 'public, max-age=300';

/** The public agent cards: the spec's list for discovery, and one standard A2A card per agent. */
export const cardsRoutes: FastifyPluginAsync<CardsRoutesOptions> = async (app, options) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const published = () => options.agents.list().filter((agent) => agent.a2a);
  const endpointOf = (request: FastifyRequest, name: string) =>
    `${resolvePublicBaseUrl(request, options.publicUrl)}/a2a/${encodeURIComponent(name)}`;
  // The index's endpoint ends with '/': A2A SDKs resolve the card relative to the URL they are given, so
  // `createFromUrl(endpoint)` reads <endpoint>.well-known/agent-card.json; JSON-RPC answers with or without it.
  const indexEndpointOf = (request: FastifyRequest, name: string) => `${endpointOf(request, name)}/`;
  const varyBy = publicUrlVary(options.publicUrl);

  routes.get(
    '/.well-known/agent-card.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['a2a'],
        summary: 'Cards of every agent published over A2A (the spec card shape)',
        response: { 200: specAgentCardList },
      },
    },
    (request, reply) => {
      void reply.header('cache-control', CACHE_CONTROL);
      if (varyBy.length > 0) void reply.header('vary', varyBy.join(', '));
      return published().map((agent) => mapToSpecCard(agent, indexEndpointOf(request, agent.name)));
    },
  );

  routes.get(
    '/a2a/:name/.well-known/agent-card.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['a2a'],
        summary:
          "An agent's standard A2A card: the A2A 1.0 card for A2A-Version 1.0, else the v0.3 card with the 1.0 interfaces embedded",
        params: agentNameParams,
        headers: a2aVersionHeaders,
      },
    },
    (request, reply) => {
      const agent = options.agents.find(request.params.name);
      if (!agent?.a2a)
        throw new NotFoundError(`No agent named "${request.params.name}" is published over A2A`, 'agent_not_found');
      const card = buildAgentCard(agent, {
        endpoint: endpointOf(request, agent.name),
        version: options.version,
        tools: options.toolsOf(agent.tools),
      });
      void reply.header('cache-control', CACHE_CONTROL).header('vary', ['A2A-Version', ...varyBy].join(', '));
      return isLegacyVersion(request.headers['a2a-version']) ? mapToLegacyCard(card) : AgentCard.toJSON(card);
    },
  );
};
