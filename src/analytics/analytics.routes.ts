import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentAnalytics,
  analyticsQuery,
  costReport,
  modelComparison,
  riskReport,
  usageReport,
} from './analytics.schema.js';
import type { AnalyticsService } from './analytics.service.js';
import type { AnalyticsFilter } from './analytics.types.js';

export interface AnalyticsRoutesOptions {
  analytics: AnalyticsService;
}

/** The analytics API (spec 4.4). Operators only: routes default to operator auth, so access tokens get 403. */
export const analyticsRoutes: FastifyPluginAsync<AnalyticsRoutesOptions> = async (app, { analytics }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['analytics'];
  const filterOf = (query: z.output<typeof analyticsQuery>): AnalyticsFilter => ({
    agentName: query.agent_name,
    missionId: query.mission_id,
    missionStep: query.mission_step,
    endUser: query.end_user,
    since: query.since,
    until: query.until,
  });

  routes.get(
    '/analytics/costs',
    {
      schema: {
        tags,
        summary: 'Cost by model and by agent',
        querystring: analyticsQuery,
        response: { 200: costReport },
      },
    },
    (request) => analytics.costs(filterOf(request.query)),
  );

  routes.get(
    '/analytics/usage',
    {
      schema: {
        tags,
        summary: 'Tokens by model and by agent',
        querystring: analyticsQuery,
        response: { 200: usageReport },
      },
    },
    (request) => analytics.usage(filterOf(request.query)),
  );

  routes.get(
    '/analytics/risks',
    {
      schema: { tags, summary: 'Guardrail events by type', querystring: analyticsQuery, response: { 200: riskReport } },
    },
    (request) => analytics.risks(filterOf(request.query)),
  );

  routes.get(
    '/analytics/models',
    {
      schema: {
        tags,
        summary: 'Compare models by cost and tokens',
        querystring: analyticsQuery,
        response: { 200: z.array(modelComparison) },
      },
    },
    (request) => analytics.models(filterOf(request.query)),
  );

  routes.get(
    '/analytics/agents',
    {
      schema: {
        tags,
        summary: 'Cost, tokens and models per agent',
        querystring: analyticsQuery,
        response: { 200: z.array(agentAnalytics) },
      },
    },
    (request) => analytics.agents(filterOf(request.query)),
  );
};
