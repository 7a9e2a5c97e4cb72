import { z } from 'zod';
import { pageQuery } from '../page-query.js';
import { AUTOPILOT_TIERS, MISSION_STATUSES, OVERLAP_POLICIES } from './autopilot.types.js';

export const okResponse = z.object({ ok: z.literal(true) });

/** X-Project-ID on every autopilot route (spec 4.7); checked by resolveProjectId, declared here for the OpenAPI document. */
export const projectHeaders = z.looseObject({
  'x-project-id': z
    .string()
    .optional()
    .describe(
      'X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default"',
    ),
});

export const enableBody = z.strictObject({
  tier: z.enum(AUTOPILOT_TIERS).describe('anonymous, free, or skip (no hosted service: synthesis only)'),
});

const quota = z
  .record(z.string(), z.union([z.string(), z.number()]))
  .describe('The last X-Service-Quota report: tier, endpoint, used, limit, reset');

export const statusResponse = z.object({
  enabled: z.boolean(),
  tier: z.enum(AUTOPILOT_TIERS),
  instance_id: z.string(),
  quota: quota.nullable(),
  service_url: z.string().nullable().describe('The hosted blueprint service, or null when none is configured'),
  enrolled: z.boolean(),
});

/** A goal is trimmed; one of only whitespace is refused, and the documented pattern says so. */
const goalText = () => z.string().regex(/\S/, 'goal must not be empty').trim().max(4000);

export const goalBody = z.strictObject({ goal: goalText() });

const slots = z.record(z.string(), z.unknown());
const candidate = z.object({
  blueprint_json: z.string().describe('A JSON blueprint, as text'),
  score: z.number(),
  source: z.enum(['service', 'local']).optional().describe('The hosted catalogue or the local blueprint library'),
});
const skipped = z
  .array(
    z.object({
      blueprint_id: z.string().nullable(),
      score: z.number(),
      field: z.string().describe('The first field that stops execution'),
      message: z.string(),
    }),
  )
  .describe(
    'Candidates this installation cannot execute (no graph, a cycle, an unknown tool…); routing went on without them',
  );

export const routingResult = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('auto_routed'),
    mission_id: z.string(),
    blueprint_id: z.string(),
    preview: z.string(),
    slots,
    score: z.number(),
    missing_slots: z.array(z.string()),
    skipped,
  }),
  z.object({ kind: z.literal('picker_needed'), candidates: z.array(candidate), skipped }),
  z.object({
    kind: z.literal('synthesis_needed'),
    goal: z.string(),
    reason: z.string().describe('Why no blueprint was routed'),
    skipped,
  }),
]);

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const schedulePolicy = z.strictObject({
  timezone: z
    .string()
    .refine(isTimeZone, 'unknown IANA time zone')
    .nullable()
    .optional()
    .describe('IANA zone the cron is read in (e.g. Europe/Paris); null: UTC'),
  overlap: z
    .enum(OVERLAP_POLICIES)
    .optional()
    .describe(
      'A tick while the previous execution runs: skip (default, recorded), buffer_one (runs once right after) or allow (runs alongside)',
    ),
  catchup_window_seconds: z
    .number()
    .int()
    .min(0)
    .nullable()
    .optional()
    .describe(
      'After downtime the newest missed tick runs once if at most this old, else missed ticks are skipped and recorded; null: always catch up',
    ),
  pause_after_failures: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .optional()
    .describe(
      'A recurring mission pauses itself (state paused) after this many failed executions in a row; null: the first failure fails it',
    ),
  jitter_seconds: z.number().int().min(0).max(86_400).optional().describe('Delay each tick by a stable 0..N seconds'),
});

export const createMissionBody = z.strictObject({
  blueprint_json: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .describe('A blueprint (a picker candidate or your own), as JSON text or an object'),
  slots: slots.optional().describe('Slot values; they win over key=value pairs in the goal and over defaults'),
  goal: z.string().max(4000).optional().describe('The goal the mission serves; key=value pairs in it fill slots too'),
  schedule_policy: schedulePolicy.optional(),
});

export const missionParams = z.object({ mission_id: z.string().min(1) });

export const updateMissionBody = z
  .strictObject({
    slots: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Slot values to set on the draft; null removes a value (its default, if any, applies again)'),
    schedule_policy: schedulePolicy
      .optional()
      .describe('Policy fields to change (draft, scheduled or paused missions)'),
  })
  .refine((body) => body.slots !== undefined || body.schedule_policy !== undefined, 'give slots or schedule_policy');

export const missionSummary = z.object({
  mission_id: z.string(),
  blueprint_id: z.string(),
  status: z.enum(MISSION_STATUSES),
  project_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  title: z.string(),
  schedule: z.string().nullable(),
  next_run_at: z.string().nullable(),
});

const healingItem = z.object({
  id: z.string().describe('`<reason>.<action>`: the recommendation_id to apply'),
  action: z.string(),
  reason: z.string(),
  severity: z.enum(['info', 'warning', 'critical']),
  detail: z.string(),
  apply: z
    .object({
      action: z.enum(['retry_step', 'retry_with_model', 'raise_budget', 'edit_slot', 'disable_tool']),
      params: z.record(z.string(), z.unknown()).describe('null values must be given when applying'),
      safe: z.boolean().describe('autopilot.auto_heal applies only safe actions'),
    })
    .nullable()
    .describe('What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only'),
});

export const healingParams = z.object({ mission_id: z.string().min(1), recommendation_id: z.string().min(1) });
export const applyHealingBody = z
  .strictObject({
    params: z.record(z.string(), z.unknown()).optional().describe("Values for (or over) the action's params"),
  })
  .optional();
export const healingResponse = z.array(healingItem);

const execution = z.object({
  execution_id: z.string(),
  attempt: z.number().describe('1 for the first execution, then 2, 3, …'),
  trigger: z.string(),
  status: z.string(),
  scheduled_for: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  cost_usd: z.number(),
  error: z.object({ code: z.string(), message: z.string(), class: z.string().nullable() }).nullable(),
});

const step = z.object({
  step_index: z.number(),
  node_id: z.string(),
  run_id: z.string().nullable(),
  status: z.string(),
  output: z.string(),
  output_preview: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  telemetry: z.object({
    cost_usd: z.number(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    model_used: z.string(),
    latency_ms: z.number(),
  }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  started_at: z.string(),
  finished_at: z.string(),
});

export const missionDetail = missionSummary.extend({
  goal: z.string().nullable(),
  slots,
  missing_slots: z.array(z.string()),
  preview: z.string(),
  budget_usd: z.number().nullable(),
  approved_at: z.string().nullable(),
  schedule_policy: z.object({
    timezone: z.string().nullable(),
    overlap: z.enum(OVERLAP_POLICIES),
    catchup_window_seconds: z.number().nullable(),
    pause_after_failures: z.number().nullable(),
    jitter_seconds: z.number(),
  }),
  consecutive_failures: z.number().describe('Failed executions since the last completed one'),
  blueprint: z.record(z.string(), z.unknown()).describe('The blueprint as received, every field kept'),
  blueprint_unknown_fields: z
    .array(z.string())
    .describe("Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused)"),
  blueprint_notes: z.array(z.string()).describe('What normalising the blueprint changed or ignored'),
  runs: z.array(execution).describe('Executions, newest first (at most 20)'),
  steps: z.array(step).describe('The step results of the latest execution'),
  healing: z.array(healingItem),
});

export const synthesisResponse = missionDetail.extend({
  source: z
    .enum(['service', 'local', 'model'])
    .describe(
      'The hosted service wrote the blueprint, a local library blueprint fitted the goal, or autopilot.model wrote one',
    ),
  confidence: z.number().nullable().describe("The service's confidence or the local blueprint's routing score"),
});

export const cancelResponse = z.object({
  cancelled: z.boolean(),
  mission_id: z.string(),
  status: z.enum(MISSION_STATUSES),
});

/** GET /missions: one page of the project's missions, newest first. */
export const listMissionsQuery = z.strictObject({ ...pageQuery });

const slotSpec = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  description: z.string().nullable(),
  default: z.unknown().optional(),
  validator: z.string().nullable(),
});

export const blueprintSummary = z.object({
  id: z.string(),
  version: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  mode: z.string(),
  source: z
    .enum(['bundled', 'local', 'request'])
    .describe(
      'bundled: shipped in config/blueprints; local: autopilot.blueprints_dir; request: the body of a validate call',
    ),
  example_goals: z.array(z.string()),
  slots: z.array(slotSpec),
  nodes: z
    .array(z.object({ id: z.string(), kind: z.string(), role: z.string(), tools: z.array(z.string()) }))
    .describe('In the order they run'),
});

export const blueprintDetail = blueprintSummary.extend({
  blueprint: z.record(z.string(), z.unknown()).describe('The blueprint as written'),
  unknown_fields: z.array(z.string()),
  notes: z.array(z.string()),
});

export const blueprintParams = z.object({ blueprint_id: z.string().min(1) });

export const validateBlueprintBody = z.strictObject({
  blueprint_json: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .describe("A blueprint in our vocabulary or the hosted catalogue's, as JSON text or an object"),
});

export const pickBody = z.strictObject({
  n: z.number().int().min(1).describe('1-based position in the picker'),
  goal: goalText()
    .optional()
    .describe("Route this goal first and pick from its picker; unset: the project's last picker"),
});
