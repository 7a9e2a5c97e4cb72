import { requestSpan } from '../../telemetry/index.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTOPILOT_PREFIX } from '../autopilot.routes.js';
import { slicePage } from '../../page-query.js';
import {
  applyHealingBody,
  cancelResponse,
  createMissionBody,
  healingParams,
  healingResponse,
  listMissionsQuery,
  missionDetail,
  missionParams,
  missionSummary,
  projectHeaders,
  updateMissionBody,
} from '../autopilot.schema.js';
import type { Autopilot } from '../create-autopilot.js';
import { mapMissionSummary } from './mission-view.js';
import { resolveProjectId } from '../project-id.js';

/** Missions of the project named by X-Project-ID (spec 4.7); another project's missions answer 404. */
export const missionsRoutes: FastifyPluginAsync<{ autopilot: Autopilot }> = async (app, { autopilot }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['autopilot'];
  // Every autopilot route takes X-Project-ID: declared once so the OpenAPI document lists it on each.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(AUTOPILOT_PREFIX) && route.schema && !route.schema.headers)
      route.schema = { ...route.schema, headers: projectHeaders };
  });
  const missions = autopilot.missions;
  const base = `${AUTOPILOT_PREFIX}/missions`;
  const params = missionParams;

  routes.get(
    base,
    {
      schema: {
        tags,
        summary: "List the project's missions, newest first",
        headers: projectHeaders,
        querystring: listMissionsQuery,
        response: { 200: z.array(missionSummary) },
      },
    },
    async (request) =>
      slicePage(await missions.list(resolveProjectId(request.headers['x-project-id'])), request.query).map(
        mapMissionSummary,
      ),
  );

  routes.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create a draft mission from a blueprint (a picker choice or your own)',
        body: createMissionBody,
        response: { 200: missionDetail },
      },
    },
    async (request) => {
      const projectId = resolveProjectId(request.headers['x-project-id']);
      return missions.view(await autopilot.createMission(projectId, request.body, requestSpan(request)));
    },
  );

  routes.get(
    `${base}/:mission_id`,
    {
      schema: {
        tags,
        summary: 'A mission with its slots, preview, schedule, run history, latest steps and healing',
        params,
        response: { 200: missionDetail },
      },
    },
    (request) => missions.detail(resolveProjectId(request.headers['x-project-id']), request.params.mission_id),
  );

  routes.patch(
    `${base}/:mission_id`,
    {
      schema: {
        tags,
        summary:
          "Edit a draft's slots (re-validated, schedule and preview rebuilt; 409 once approved) and the schedule policy",
        params,
        body: updateMissionBody,
        response: { 200: missionDetail },
      },
    },
    async (request) => {
      const projectId = resolveProjectId(request.headers['x-project-id']);
      const id = request.params.mission_id;
      const { slots, schedule_policy: policy } = request.body;
      let mission = slots ? await missions.updateSlots(projectId, id, slots) : await missions.get(projectId, id);
      if (policy)
        mission = await missions.updatePolicy(
          projectId,
          id,
          Object.fromEntries(Object.entries(policy).filter(([, value]) => value !== undefined)),
        );
      return missions.view(mission);
    },
  );

  routes.post(
    `${base}/:mission_id/pause`,
    {
      schema: {
        tags,
        summary: 'Pause a scheduled mission: no tick fires until it is resumed (409 from any other state)',
        params,
        response: { 200: missionDetail },
      },
    },
    async (request) =>
      missions.view(await missions.pause(resolveProjectId(request.headers['x-project-id']), request.params.mission_id)),
  );

  routes.post(
    `${base}/:mission_id/resume`,
    {
      schema: {
        tags,
        summary: 'Resume a paused mission at its next tick, its failure count reset (409 from any other state)',
        params,
        response: { 200: missionDetail },
      },
    },
    async (request) =>
      missions.view(
        await missions.resume(resolveProjectId(request.headers['x-project-id']), request.params.mission_id),
      ),
  );

  routes.get(
    `${base}/:mission_id/healing`,
    {
      schema: {
        tags,
        summary: 'Recommended actions for a mission, each with the action that applies it (or null: advice only)',
        params,
        response: { 200: healingResponse },
      },
    },
    (request) => missions.healing(resolveProjectId(request.headers['x-project-id']), request.params.mission_id),
  );

  routes.post(
    `${base}/:mission_id/healing/:recommendation_id/apply`,
    {
      schema: {
        tags,
        summary:
          'Apply a healing recommendation and re-run the failed or paused mission from its failed step, keeping earlier step results',
        params: healingParams,
        body: applyHealingBody,
        response: { 200: missionDetail },
      },
    },
    async (request) => {
      const projectId = resolveProjectId(request.headers['x-project-id']);
      return missions.view(
        await autopilot.heal.apply(
          projectId,
          request.params.mission_id,
          request.params.recommendation_id,
          request.body?.params,
        ),
      );
    },
  );

  routes.post(
    `${base}/:mission_id/approve`,
    {
      schema: {
        tags,
        summary: 'Approve a draft: it becomes scheduled (409 from any other state)',
        params,
        response: { 200: missionDetail },
      },
    },
    async (request) => {
      const projectId = resolveProjectId(request.headers['x-project-id']);
      return missions.view(await missions.approve(projectId, request.params.mission_id));
    },
  );

  routes.post(
    `${base}/:mission_id/run`,
    {
      schema: {
        tags,
        summary: 'Run a scheduled mission now (409 from any other state)',
        params,
        response: { 200: missionDetail },
      },
    },
    async (request) => {
      const projectId = resolveProjectId(request.headers['x-project-id']);
      return missions.view(await missions.runNow(projectId, request.params.mission_id));
    },
  );

  routes.delete(
    `${base}/:mission_id`,
    {
      schema: {
        tags,
        summary: 'Cancel a mission (no effect on a completed or failed one)',
        params,
        response: { 200: cancelResponse },
      },
    },
    (request) => missions.cancel(resolveProjectId(request.headers['x-project-id']), request.params.mission_id),
  );
};
