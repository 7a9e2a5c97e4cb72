import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Autopilot } from '../create-autopilot.js';

const AUTOPILOT_PREFIX = '/api/v1/autopilot';

const datasetParams = z.object({ name: z.string().min(1).max(100) });
const rollbackBody = z.strictObject({ dataset: z.string().min(1).max(100) });
const rollbackResponse = z.object({
  dataset: z.string(),
  rolled_back: z.string(),
  active_model: z.string().nullable(),
});
const activation = z.object({
  activation_id: z.string(),
  dataset: z.string(),
  seq: z.number(),
  model: z.string(),
  job_id: z.string().nullable(),
  activated_at: z.string(),
  rolled_back_at: z.string().nullable(),
});
const dataset = z.object({
  name: z.string(),
  format: z.string(),
  blueprint_id: z.string(),
  threshold: z.number(),
  sample_count: z.number(),
  triggered_count: z.number(),
  samples_until_fine_tune: z.number(),
  active_model: z.string().nullable(),
  model_history: z.array(activation),
  created_at: z.string(),
  updated_at: z.string(),
});
const evaluation = z.object({
  held_out_samples: z.number(),
  min_overlap: z.number(),
  passed: z.boolean().optional(),
  overlap: z.number().optional(),
  empty_answers: z.number().optional(),
});
const job = z.object({
  job_id: z.string(),
  dataset: z.string(),
  backend: z.enum(['provider', 'command']),
  provider: z.string().nullable(),
  base_model: z.string(),
  status: z.string(),
  sample_count: z.number(),
  held_out_count: z.number(),
  training_file_id: z.string().nullable(),
  external_job_id: z.string().nullable(),
  model: z.string().nullable(),
  served_base_url: z.string().nullable(),
  evaluation: evaluation.nullable(),
  error_message: z.string().nullable(),
  poll_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
const overviewResponse = z.object({
  threshold: z.number(),
  backend: z.enum(['provider', 'command']).nullable(),
  scope: z.enum(['blueprint', 'all']),
  datasets: z.array(dataset),
  jobs: z.array(job),
});

/** The learning loop (curated datasets, fine-tune jobs, active models) and rollback. Datasets are instance-wide, not per project. */
export const curatorRoutes: FastifyPluginAsync<{ autopilot: Autopilot }> = async (app, { autopilot }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['autopilot'];

  routes.get(
    `${AUTOPILOT_PREFIX}/curator`,
    {
      schema: {
        tags,
        summary: 'Curated datasets with sample counts, the fine-tune threshold, jobs and the active model per dataset',
        response: { 200: overviewResponse },
      },
    },
    () => autopilot.learning.overview(),
  );

  routes.get(
    `${AUTOPILOT_PREFIX}/curator/datasets/:name`,
    {
      schema: { tags, summary: 'Download a dataset as JSONL', params: datasetParams },
    },
    async (request, reply) => {
      const text = await autopilot.learning.datasetFile(request.params.name);
      return reply
        .type('application/jsonl; charset=utf-8')
        .header('content-disposition', `attachment; filename="${request.params.name}.jsonl"`)
        .send(text);
    },
  );

  routes.post(
    `${AUTOPILOT_PREFIX}/models/rollback`,
    {
      schema: {
        tags,
        summary: "Return a dataset's missions to the model active before its current one (history is kept)",
        body: rollbackBody,
        response: { 200: rollbackResponse },
      },
    },
    (request) => autopilot.learning.rollback(request.body.dataset),
  );
};
