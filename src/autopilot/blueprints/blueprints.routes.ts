import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blueprintDetail, blueprintParams, blueprintSummary, validateBlueprintBody } from '../autopilot.schema.js';
import { mapBlueprintDetail, mapBlueprintSummary } from './blueprint-view.js';
import type { Autopilot } from '../create-autopilot.js';

const PREFIX = '/api/v1/autopilot/blueprints';

/** The local blueprint library and validation of any blueprint against this installation's tools and models. */
export const blueprintsRoutes: FastifyPluginAsync<{ autopilot: Autopilot }> = async (app, { autopilot }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['autopilot'];

  routes.get(
    PREFIX,
    {
      schema: {
        tags,
        summary: 'The local blueprint library: bundled blueprints and autopilot.blueprints_dir',
        response: { 200: z.array(blueprintSummary) },
      },
    },
    () => autopilot.blueprints.list().map((entry) => mapBlueprintSummary(entry.blueprint, entry.source)),
  );

  routes.get(
    `${PREFIX}/:blueprint_id`,
    {
      schema: {
        tags,
        summary: 'One local blueprint as written, with its slots, nodes and normalisation notes',
        params: blueprintParams,
        response: { 200: blueprintDetail },
      },
    },
    (request) => {
      const entry = autopilot.blueprints.get(request.params.blueprint_id);
      return mapBlueprintDetail(entry.blueprint, entry.source, entry.json);
    },
  );

  routes.post(
    `${PREFIX}/validate`,
    {
      schema: {
        tags,
        summary:
          "Validate a blueprint (ours or the hosted catalogue's vocabulary); 400 invalid_blueprint names each bad field",
        body: validateBlueprintBody,
        response: { 200: blueprintDetail },
      },
    },
    (request) => {
      const body = request.body.blueprint_json;
      const json = typeof body === 'string' ? body : JSON.stringify(body);
      return mapBlueprintDetail(autopilot.blueprints.validate(json), 'request', json);
    },
  );
};
