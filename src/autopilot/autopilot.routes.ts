import { requestSpan } from '../telemetry/index.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  enableBody,
  goalBody,
  missionDetail,
  okResponse,
  pickBody,
  projectHeaders,
  routingResult,
  statusResponse,
  synthesisResponse,
} from './autopilot.schema.js';
import type { Autopilot } from './create-autopilot.js';
import { blueprintsRoutes } from './blueprints/blueprints.routes.js';
import { curatorRoutes } from './learning/curator.routes.js';
import { resolveProjectId } from './project-id.js';

export const AUTOPILOT_PREFIX = '/api/v1/autopilot';

/** Status, tiers, goal routing and synthesis (spec 4.7). Operators only: the default `operator` auth. */
export const autopilotRoutes: FastifyPluginAsync<{ autopilot: Autopilot }> = async (app, { autopilot }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['autopilot'];
  // Every autopilot route takes X-Project-ID: declared once so the OpenAPI document lists it on each.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(AUTOPILOT_PREFIX) && route.schema && !route.schema.headers)
      route.schema = { ...route.schema, headers: projectHeaders };
  });
  await app.register(curatorRoutes, { autopilot });
  await app.register(blueprintsRoutes, { autopilot });

  routes.get(
    `${AUTOPILOT_PREFIX}/status`,
    {
      schema: {
        tags,
        summary: 'Whether autopilot is enabled, its tier, instance id and hosted-service quota',
        response: { 200: statusResponse },
      },
    },
    () => autopilot.status.status(),
  );

  routes.post(
    `${AUTOPILOT_PREFIX}/enable`,
    {
      schema: { tags, summary: 'Enable autopilot with a tier', body: enableBody, response: { 200: okResponse } },
    },
    async (request) => {
      await autopilot.status.enable(request.body.tier);
      return { ok: true as const };
    },
  );

  routes.post(
    `${AUTOPILOT_PREFIX}/disable`,
    {
      schema: {
        tags,
        summary: 'Disable autopilot: new goals are refused, missions carry on',
        response: { 200: okResponse },
      },
    },
    async () => {
      await autopilot.status.disable();
      return { ok: true as const };
    },
  );

  routes.post(
    `${AUTOPILOT_PREFIX}/goal`,
    {
      schema: {
        tags,
        summary: 'Route a plain-English goal to a blueprint',
        body: goalBody,
        response: { 200: routingResult },
      },
    },
    (request) =>
      autopilot.routeGoal(resolveProjectId(request.headers['x-project-id']), request.body.goal, requestSpan(request)),
  );

  routes.post(
    `${AUTOPILOT_PREFIX}/pick`,
    {
      schema: {
        tags,
        summary: "Create a draft mission from the n-th candidate of the project's last picker (or of a goal's picker)",
        body: pickBody,
        response: { 200: missionDetail },
      },
    },
    async (request) => {
      const projectId = resolveProjectId(request.headers['x-project-id']);
      return autopilot.missions.view(
        await autopilot.pick(projectId, request.body.n, request.body.goal, requestSpan(request)),
      );
    },
  );

  routes.post(
    `${AUTOPILOT_PREFIX}/synthesize`,
    {
      schema: {
        tags,
        summary: 'Write a new blueprint for a goal and create a draft mission from it',
        body: goalBody,
        response: { 200: synthesisResponse },
      },
    },
    async (request) => {
      const projectId = resolveProjectId(request.headers['x-project-id']);
      const result = await autopilot.synthesize(projectId, request.body.goal, requestSpan(request));
      const detail = await autopilot.missions.view(result.mission);
      return { ...detail, source: result.source, confidence: result.confidence };
    },
  );
};
