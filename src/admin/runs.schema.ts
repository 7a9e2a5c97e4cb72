import { z } from 'zod';
import { pageQuery, timestampQuery as timestamp } from '../page-query.js';

export const runStatus = z.enum([
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
  'interrupted',
  'input_required',
]);

export const runSource = z.enum(['chat', 'agui', 'webhook', 'poller', 'listener', 'a2a', 'autopilot', 'mcp']);

export const listRunsQuery = z
  .strictObject({
    agent_name: z.string().min(1).optional().describe('Only runs of this agent'),
    status: runStatus.optional().describe('Only runs in this state'),
    source: runSource.optional().describe('Only runs started this way'),
    end_user: z
      .string()
      .min(1)
      .optional()
      .describe('Only runs whose caller named this end user (Chat Completions `user`)'),
    since: timestamp
      .optional()
      .describe('Runs started at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset'),
    until: timestamp.optional().describe('Runs started before this time (exclusive), in the same format as since'),
    ...pageQuery,
  })
  .refine((query) => query.since === undefined || query.until === undefined || query.since <= query.until, {
    message: 'must not be earlier than since',
    path: ['until'],
  });

/** Spec "Run (list item)", plus where it came from. */
export const runItem = z.object({
  run_id: z.string(),
  agent_name: z.string(),
  status: runStatus,
  started_at: z.string(),
  finished_at: z.string().nullable(),
  total_tokens: z.number().int(),
  cost_usd: z.number(),
  steps: z.number().int().describe('How many model and tool calls the run made'),
  source: z.string().describe('What started the run: chat, agui, webhook, poller, listener, a2a, autopilot'),
  session_id: z.string().nullable(),
  model: z.string(),
  end_user: z.string().nullable().describe('The end user the caller named (Chat Completions `user`); null if none'),
});

export const stepDetail = z.object({
  step_id: z.string(),
  step_index: z.number().int(),
  kind: z.enum(['model', 'tool']),
  name: z.string().describe('The model or the tool'),
  status: z.enum(['completed', 'failed']),
  started_at: z.string(),
  finished_at: z.string(),
  latency_ms: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number(),
  prompt_log: z.record(z.string(), z.unknown()).describe('What was sent and what came back'),
});

export const runDetail = runItem.extend({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  output: z.string().nullable().describe('Everything the agent said, in full'),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  token_id: z.string().nullable().describe('The access token that started the run'),
  trace_id: z
    .string()
    .nullable()
    .describe('The OpenTelemetry trace of the run (search it in Jaeger, Tempo, ...); null when telemetry is off'),
  attempts: z
    .number()
    .int()
    .describe('1, plus one per takeover: a replica (or a restart) continued the run after its process died'),
  resumed_from_step: z
    .number()
    .int()
    .nullable()
    .describe('How many steps the run had stored when it was last taken over; null if never'),
  triggered_by: z
    .object({
      item_id: z.string().describe('The inbox item (GET /api/v1/admin/triggers/deliveries lists it)'),
      source: z.string().describe('<kind>:<name> of the webhook, poller or listener'),
      event: z.string(),
    })
    .nullable()
    .describe('The trigger event that started the run; null unless a webhook, poller or listener did'),
  step_details: z.array(stepDetail).describe('Every model and tool call in order, with its prompt log'),
});

export const runChangeEvent = z
  .object({ type: z.enum(['run-created', 'run-status-changed']), run: runItem })
  .describe(
    'One SSE event of GET /runs/events: `event: run-created` or `event: run-status-changed`, `data:` the run (list item)',
  );

export const MAX_SERIES_BUCKETS = 744;

export const runSeriesQuery = z
  .strictObject({
    bucket: z.enum(['hour', 'day']).default('hour').describe('Bucket size (UTC hours or days); default hour'),
    since: timestamp
      .optional()
      .describe(
        'Runs started at or after this time (rounded down to its bucket); default 24 hours (hour) or 30 days (day) before until',
      ),
    until: timestamp.optional().describe('Runs started before this time (exclusive); default now'),
  })
  .refine((query) => query.since === undefined || query.until === undefined || query.since <= query.until, {
    message: 'must not be earlier than since',
    path: ['until'],
  });

export const runSeries = z.object({
  bucket: z.enum(['hour', 'day']),
  since: z.string().describe('The first bucket’s start'),
  until: z.string(),
  points: z
    .array(
      z.object({
        start: z.string().describe('The bucket’s start (UTC)'),
        runs: z.number().int().describe('Runs started in the bucket (requests)'),
        failed: z.number().int().describe('Of them, runs that failed (errors)'),
        cost_usd: z.number().describe('What they cost, US dollars'),
      }),
    )
    .describe(`Every bucket of the window in order, empty ones as zeros (at most ${MAX_SERIES_BUCKETS})`),
});

export const runIdParams = z.object({ run_id: z.string().min(1) });

export const runControlResult = z.object({ run_id: z.string(), status: runStatus });

export type ListRunsQuery = z.infer<typeof listRunsQuery>;
export type RunSeriesQuery = z.infer<typeof runSeriesQuery>;
export type RunSeries = z.infer<typeof runSeries>;
export type RunItem = z.infer<typeof runItem>;
export type RunDetail = z.infer<typeof runDetail>;
