import { z } from 'zod';

const threshold = z.number().min(0).max(1);

const FINE_TUNE_DEFAULTS = {
  threshold: 500,
  scope: 'blueprint' as const,
  poll_interval_ms: 10_000,
  max_poll_interval_ms: 300_000,
};

/**
 * `autopilot.fine_tune`: when a curated dataset triggers a fine-tune and where it runs. Without
 * `provider` or `command` samples are still curated, but no job starts.
 */
export const fineTuneSchema = z
  .strictObject({
    /** Samples per fine-tune (env AUTOPILOT_FINE_TUNE_THRESHOLD); a blueprint's learning_loop_target.trigger_after_labeled_samples wins. */
    threshold: z.number().int().min(1).default(FINE_TUNE_DEFAULTS.threshold),
    /** A configured openai/openai-compatible provider whose /files and /fine_tuning/jobs API trains the model. */
    provider: z.string().min(1).optional(),
    /** A local trainer, run without a shell; `{dataset}`, `{base_model}` and `{output_dir}` are substituted in each argument. */
    command: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** The configured openai-compatible provider that serves the command's model (the id it prints is used on it); a `dev` provider serves any id offline (scripts/dev-trainer.mjs). */
    serve_provider: z.string().min(1).optional(),
    /** The model id to fine-tune; defaults to the model id of autopilot.model. */
    base_model: z.string().min(1).optional(),
    /** `blueprint`: a dataset's model takes over the missions of its blueprint; `all`: the newest model takes over every autopilot step. */
    scope: z.enum(['blueprint', 'all']).default(FINE_TUNE_DEFAULTS.scope),
    /** First wait between job polls; it grows 1.5x per poll up to max_poll_interval_ms. */
    poll_interval_ms: z.number().int().min(1).default(FINE_TUNE_DEFAULTS.poll_interval_ms),
    max_poll_interval_ms: z.number().int().min(1).default(FINE_TUNE_DEFAULTS.max_poll_interval_ms),
  })
  .superRefine((section, ctx) => {
    if (section.provider && section.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'set either provider or command, not both' });
    if (section.command && !section.serve_provider)
      ctx.addIssue({
        code: 'custom',
        path: ['serve_provider'],
        message:
          'a command backend needs serve_provider: the openai-compatible provider that serves the trained model (or a dev provider, offline)',
      });
  })
  .default(FINE_TUNE_DEFAULTS);

export type FineTuneConfig = z.infer<typeof fineTuneSchema>;

const AUTOPILOT_DEFAULTS = {
  auto_route_threshold: 0.85,
  picker_threshold: 0.65,
  picker_top_k: 3,
  retrieve_k: 5,
  cache_ttl_seconds: 3600,
  cache_stale_seconds: 86_400,
  request_timeout_ms: 10_000,
  scheduler_poll_ms: 15_000,
  node_max_iterations: 8,
  node_temperature: 0.2,
  bundled_blueprints: true,
  fine_tune: FINE_TUNE_DEFAULTS,
  auto_heal: { enabled: false, max_per_mission: 2 },
};

/** The `autopilot:` section: hosted blueprint service, routing thresholds, the autopilot model and scheduling. */
export const autopilotSchema = z
  .strictObject({
    /** Base URL of the hosted blueprint service (env SERVICE_LLM_BASE_URL). Unset: the service is never called. */
    service_url: z.url().optional(),
    /** Minimum score for automatic blueprint selection (env AUTOPILOT_AUTO_ROUTE_THRESHOLD). */
    auto_route_threshold: threshold.default(AUTOPILOT_DEFAULTS.auto_route_threshold),
    /** Minimum score to offer a blueprint in a picker (env AUTOPILOT_PICKER_THRESHOLD). */
    picker_threshold: threshold.default(AUTOPILOT_DEFAULTS.picker_threshold),
    /** How many candidates a picker offers. */
    picker_top_k: z.number().int().min(1).max(20).default(AUTOPILOT_DEFAULTS.picker_top_k),
    /** How many candidates are asked of the service (`k`). */
    retrieve_k: z.number().int().min(1).max(50).default(AUTOPILOT_DEFAULTS.retrieve_k),
    /** How long a retrieve answer is reused without asking again (env AUTOPILOT_CACHE_TTL). */
    cache_ttl_seconds: z.number().int().min(0).default(AUTOPILOT_DEFAULTS.cache_ttl_seconds),
    /** How long past its TTL a cached answer may still stand in while the service is down or out of quota. */
    cache_stale_seconds: z.number().int().min(0).default(AUTOPILOT_DEFAULTS.cache_stale_seconds),
    request_timeout_ms: z.number().int().positive().default(AUTOPILOT_DEFAULTS.request_timeout_ms),
    /** The operator's own blueprints (*.json, *.yaml): validated at start-up, ranked with the bundled library (config/blueprints/). */
    blueprints_dir: z.string().min(1).optional(),
    /** false: leave the bundled blueprint library out (the operator's directory is still read). */
    bundled_blueprints: z.boolean().default(true),
    /** `<provider>/<model>` for slot extraction, synthesis and nodes without a model of their own. */
    model: z
      .string()
      .regex(/^[^/]+\/.+$/, 'model is "<provider>/<model id>"')
      .optional(),
    /** How often the scheduler looks for due missions; 0 turns background polling off. */
    scheduler_poll_ms: z.number().int().min(0).default(AUTOPILOT_DEFAULTS.scheduler_poll_ms),
    node_max_iterations: z.number().int().min(1).max(100).default(AUTOPILOT_DEFAULTS.node_max_iterations),
    node_temperature: z.number().min(0).max(2).default(AUTOPILOT_DEFAULTS.node_temperature),
    fine_tune: fineTuneSchema,
    /** Opt-in: apply healing actions marked safe (a retry of a transient upstream error) without an operator, at most max_per_mission times in a row. */
    auto_heal: z
      .strictObject({
        enabled: z.boolean().default(false),
        max_per_mission: z.number().int().min(1).max(20).default(2),
      })
      .default({ enabled: false, max_per_mission: 2 }),
  })
  .superRefine((section, ctx) => {
    if (section.auto_route_threshold <= section.picker_threshold) {
      ctx.addIssue({ code: 'custom', path: ['auto_route_threshold'], message: thresholdOrderMessage(section) });
    }
  })
  .default(AUTOPILOT_DEFAULTS);

export type AutopilotConfig = z.infer<typeof autopilotSchema>;

function thresholdOrderMessage(section: Pick<AutopilotConfig, 'auto_route_threshold' | 'picker_threshold'>): string {
  return `auto_route_threshold (${section.auto_route_threshold}) must be above picker_threshold (${section.picker_threshold})`;
}

const envNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a number')
    .transform(Number)
    .pipe(z.number().min(min).max(max));

const AUTOPILOT_ENV = {
  AUTOPILOT_AUTO_ROUTE_THRESHOLD: ['auto_route_threshold', envNumber(0, 1)],
  AUTOPILOT_PICKER_THRESHOLD: ['picker_threshold', envNumber(0, 1)],
  AUTOPILOT_CACHE_TTL: [
    'cache_ttl_seconds',
    z.string().trim().regex(/^\d+$/, 'expected whole seconds').transform(Number),
  ],
  SERVICE_LLM_BASE_URL: ['service_url', z.url()],
} as const;

/** The spec's AUTOPILOT_* and SERVICE_LLM_BASE_URL variables over the file's section; problems are pushed to `errors`. */
export function applyAutopilotEnv(section: AutopilotConfig, env: NodeJS.ProcessEnv, errors: string[]): AutopilotConfig {
  const next: Record<string, unknown> = { ...section };
  for (const [name, [key, schema]] of Object.entries(AUTOPILOT_ENV)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const parsed = schema.safeParse(raw);
    if (parsed.success) next[key] = parsed.data;
    else errors.push(`environment variable ${name}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
  }
  const rawThreshold = env.AUTOPILOT_FINE_TUNE_THRESHOLD;
  if (rawThreshold !== undefined && rawThreshold !== '') {
    if (/^\d+$/.test(rawThreshold.trim()) && Number(rawThreshold) >= 1)
      next.fine_tune = { ...section.fine_tune, threshold: Number(rawThreshold) };
    else
      errors.push('environment variable AUTOPILOT_FINE_TUNE_THRESHOLD: expected a whole number of samples (1 or more)');
  }
  const merged = next as AutopilotConfig;
  if (merged.auto_route_threshold <= merged.picker_threshold)
    errors.push(`autopilot: ${thresholdOrderMessage(merged)}`);
  return merged;
}

/** `autopilot.model` must name a configured provider, reported at its line like an agent's model; so must the fine-tune providers. */
export function checkAutopilotModel(
  config: { providers: Record<string, unknown>; autopilot: AutopilotConfig },
  ctx: z.RefinementCtx,
): void {
  const fineTune = config.autopilot.fine_tune;
  for (const key of ['provider', 'serve_provider'] as const) {
    const name = fineTune[key];
    const type = name ? (config.providers[name] as { type?: string } | undefined)?.type : undefined;
    // The development model serves whatever id a local trainer prints, so the loop can be tried offline.
    const servesOffline = key === 'serve_provider' && type === 'dev';
    if (name && type !== 'openai' && type !== 'openai-compatible' && !servesOffline) {
      ctx.addIssue({
        code: 'custom',
        path: ['autopilot', 'fine_tune', key],
        message: `"${name}" is not a configured openai or openai-compatible provider${key === 'serve_provider' ? ' (or dev)' : ''}`,
      });
    }
  }
  const model = config.autopilot.model;
  if (!model) return;
  const provider = model.slice(0, model.indexOf('/'));
  if (provider in config.providers) return;
  ctx.addIssue({
    code: 'custom',
    path: ['autopilot', 'model'],
    message: `unknown provider "${provider}" (configured: ${Object.keys(config.providers).join(', ') || 'none'})`,
  });
}
