import { AgentCard } from '@a2a-js/sdk';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AgentRegistry, RegisteredAgent } from '../../../agents/index.js';
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
  /** a2a.default_agent: the agent whose standard card the host root serves (else the only published agent). */
  defaultAgent?: string;
}

const CACHE_CONTROL = 'public, max-age=300';

/** Where the list of every published agent's card is (the host root serves one standard card). */
export const AGENT_CARD_LIST_PATH = '/.well-known/agent-cards.json';

/** The public agent cards: the host's standard card, the spec's list for discovery, and one standard A2A card per agent. */
export const cardsRoutes: FastifyPluginAsync<CardsRoutesOptions> = async (app, options) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const published = () => options.agents.list().filter((agent) => agent.a2a);
  const endpointOf = (request: FastifyRequest, name: string) =>
    `${resolvePublicBaseUrl(request, options.publicUrl)}/a2a/${encodeURIComponent(name)}`;
  // The index's endpoint ends with '/': A2A SDKs resolve the card relative to the URL they are given, so
  // `createFromUrl(endpoint)` reads <endpoint>.well-known/agent-card.json; JSON-RPC answers with or without it.
  const indexEndpointOf = (request: FastifyRequest, name: string) => `${endpointOf(request, name)}/`;
  const varyBy = publicUrlVary(options.publicUrl);

  /** The standard card of an agent: the A2A 1.0 card for A2A-Version 1.0, else the v0.3 card (1.0 interfaces embedded). */
  const sendStandardCard = (
    request: FastifyRequest,
    reply: FastifyReply,
    agent: RegisteredAgent,
    a2aVersion: string | undefined,
  ) => {
    const card = buildAgentCard(agent, {
      endpoint: endpointOf(request, agent.name),
      version: options.version,
      tools: options.toolsOf(agent.tools),
    });
    void reply.header('cache-control', CACHE_CONTROL).header('vary', ['A2A-Version', ...varyBy].join(', '));
    return isLegacyVersion(a2aVersion) ? mapToLegacyCard(card) : AgentCard.toJSON(card);
  };

  routes.get(
    '/.well-known/agent-card.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['a2a'],
        summary: `The host's standard A2A card: the agent named by a2a.default_agent, else the only agent published over A2A (404 when several are published and none is named: their cards are listed at ${AGENT_CARD_LIST_PATH}). Versioned as an agent's own card`,
        headers: a2aVersionHeaders,
      },
    },
    (request, reply) => {
      const agents = published();
      const agent = options.defaultAgent
        ? agents.find((candidate) => candidate.name === options.defaultAgent)
        : agents.length === 1
          ? agents[0]
          : undefined;
      if (!agent)
        throw new NotFoundError(
          agents.length === 0
            ? 'No agent is published over A2A'
            : `${agents.length} agents are published over A2A and a2a.default_agent names none: their cards, with the endpoint of each, are at ${AGENT_CARD_LIST_PATH}`,
          'agent_not_found',
        );
      return sendStandardCard(request, reply, agent, request.headers['a2a-version']);
    },
  );

  routes.get(
    AGENT_CARD_LIST_PATH,
    {
      config: { auth: 'public' },
      schema: {
        tags: ['a2a'],
        summary:
          "Cards of every agent published over A2A (the interface spec's card shape), each with the endpoint its standard card is under",
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
      return sendStandardCard(request, reply, agent, request.headers['a2a-version']);
    },
  );
};
