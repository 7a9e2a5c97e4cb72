import Mustache from 'mustache';
import { z } from 'zod';
import { rateLimitSchema } from './rate-limit.schema.js';

export const WEBHOOK_VERIFICATIONS = ['hmac-sha256', 'stripe', 'slack', 'github', 'standard-webhooks'] as const;

/** Standard Webhooks secrets are `whsec_` plus base64 key bytes; a secret without the prefix is used as its raw bytes. */
export const STANDARD_WEBHOOKS_SECRET_PREFIX = 'whsec_';

const HEADER_NAME = /^[A-Za-z0-9-]+$/;

/** Webhook names become a path segment and the first part of every event name, so no dots or slashes. */
export const WEBHOOK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const promptTemplate = z
  .string()
  .min(1)
  .superRefine((template, ctx) => {
    try {
      Mustache.parse(template);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `invalid prompt template: ${(error as Error).message}` });
    }
  });

export const webhookHandlerSchema = z.strictObject({
  /** `<webhook>.<event type>`, `<webhook>.<prefix>.*` or `*`. */
  event: z
    .string()
    .regex(/^(\*|[^\s*]+(\.\*)?)$/, 'event is a dotted name such as "stripe.invoice.paid", optionally ending in ".*"'),
  agent: z.string().min(1),
  /** Logic-less mustache template over the JSON payload, e.g. `Invoice {{data.object.id}} was paid`. */
  prompt: promptTemplate,
});

export const webhookSchema = z
  .strictObject({
    name: z
      .string()
      .regex(WEBHOOK_NAME_PATTERN, 'webhook names are 1-64 letters, digits, _ or -, starting with a letter or digit'),
    verification: z.enum(WEBHOOK_VERIFICATIONS),
    secret: z.string().min(1).optional(),
    /** Several secrets while one is being rotated: a signature made with any of them is accepted. */
    secrets: z.array(z.string().min(1)).min(1).optional(),
    /** Overrides the mode's signature header (X-Signature, Stripe-Signature, X-Slack-Signature, X-Hub-Signature-256). */
    signature_header: z.string().regex(HEADER_NAME, 'signature_header must be an HTTP header name').optional(),
    /**
     * `hmac-sha256` only: the header carrying the unix-seconds timestamp the sender signs with the body
     * (`<timestamp>.<body>`). Without it a captured delivery stays valid forever (only the dedupe stops it).
     */
    timestamp_header: z.string().regex(HEADER_NAME, 'timestamp_header must be an HTTP header name').optional(),
    /** Maximum age (and clock skew) of a signed timestamp: stripe, slack, standard-webhooks, hmac-sha256 with timestamp_header. */
    tolerance_seconds: z.number().int().positive().default(300),
    handlers: z.array(webhookHandlerSchema).default([]),
    /** This webhook's own request limit (or false for none); webhook_settings.rate_limit when unset. */
    rate_limit: rateLimitSchema.optional(),
  })
  .superRefine((webhook, ctx) => {
    if ((webhook.secret === undefined) === (webhook.secrets === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['secret'], message: 'give exactly one of "secret" or "secrets"' });
    }
    if (webhook.timestamp_header !== undefined && webhook.verification !== 'hmac-sha256') {
      ctx.addIssue({
        code: 'custom',
        path: ['timestamp_header'],
        message:
          'timestamp_header applies to verification "hmac-sha256" only (the other modes define their own timestamp)',
      });
    }
    if (webhook.verification === 'standard-webhooks') {
      const secrets = webhook.secrets ?? (webhook.secret === undefined ? [] : [webhook.secret]);
      secrets.forEach((secret, index) => {
        if (
          secret.startsWith(STANDARD_WEBHOOKS_SECRET_PREFIX) &&
          !isBase64Key(secret.slice(STANDARD_WEBHOOKS_SECRET_PREFIX.length))
        ) {
          ctx.addIssue({
            code: 'custom',
            path: webhook.secrets ? ['secrets', index] : ['secret'],
            message: 'a "whsec_" secret must be followed by its key in base64',
          });
        }
      });
    }
    webhook.handlers.forEach((handler, index) => {
      if (handler.event !== '*' && !handler.event.startsWith(`${webhook.name}.`)) {
        ctx.addIssue({
          code: 'custom',
          path: ['handlers', index, 'event'],
          message: `event must start with "${webhook.name}." (events are named <webhook>.<event type>) or be "*"`,
        });
      }
    });
  });

/** Non-empty standard base64, padding optional: Buffer.from would silently skip bad characters, so a typo'd secret is caught at load. */
function isBase64Key(text: string): boolean {
  const bytes = Buffer.from(text, 'base64');
  return bytes.length > 0 && bytes.toString('base64').replace(/=+$/, '') === text.replace(/=+$/, '');
}

export const webhooksSchema = z
  .array(webhookSchema)
  .default([])
  .superRefine((webhooks, ctx) => {
    const seen = new Set<string>();
    webhooks.forEach((webhook, index) => {
      if (seen.has(webhook.name))
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate webhook name "${webhook.name}"` });
      seen.add(webhook.name);
    });
  });

const WEBHOOK_SETTINGS_DEFAULTS = {
  path_prefix: '/webhooks',
  max_attempts: 5,
  backoff_seconds: 30,
  max_backoff_seconds: 3600,
  concurrency: 4,
  poll_interval_ms: 1000,
  lease_seconds: 60,
  rate_limit: { max: 1000, time_window_seconds: 60 } as const,
};

/** How the webhook router is mounted and how its inbox worker retries. */
export const webhookSettingsSchema = z
  .strictObject({
    path_prefix: z
      .string()
      .regex(/^(\/[A-Za-z0-9_-]+)+$/, 'path_prefix is a path such as "/webhooks" (no trailing slash)')
      .default(WEBHOOK_SETTINGS_DEFAULTS.path_prefix),
    /** Larger bodies get 413; the server's body_limit_bytes applies when unset. */
    body_limit_bytes: z.number().int().positive().optional(),
    /** Handler runs per delivery, counting the first; then the delivery is kept as failed. */
    max_attempts: z.number().int().min(1).max(100).default(WEBHOOK_SETTINGS_DEFAULTS.max_attempts),
    /** Delay before the first retry; it doubles on each further attempt up to max_backoff_seconds. */
    backoff_seconds: z.number().positive().default(WEBHOOK_SETTINGS_DEFAULTS.backoff_seconds),
    max_backoff_seconds: z.number().positive().default(WEBHOOK_SETTINGS_DEFAULTS.max_backoff_seconds),
    /** Deliveries processed at once by one process. */
    concurrency: z.number().int().min(1).max(100).default(WEBHOOK_SETTINGS_DEFAULTS.concurrency),
    poll_interval_ms: z.number().int().min(10).default(WEBHOOK_SETTINGS_DEFAULTS.poll_interval_ms),
    /** A claimed delivery whose worker stops renewing its lease this long is taken over by another worker. */
    lease_seconds: z.number().int().min(5).default(WEBHOOK_SETTINGS_DEFAULTS.lease_seconds),
    /** Requests each webhook (each source) may receive per window, counted before verification; false turns it off. */
    rate_limit: rateLimitSchema.default(WEBHOOK_SETTINGS_DEFAULTS.rate_limit),
  })
  .default(WEBHOOK_SETTINGS_DEFAULTS);

/** Handlers must name configured agents; called from the whole config's superRefine. */
export function checkWebhookAgents(
  config: { webhooks: WebhooksConfig; agents: { name: string }[] },
  ctx: z.RefinementCtx,
): void {
  const agents = new Set(config.agents.map((agent) => agent.name));
  config.webhooks.forEach((webhook, index) =>
    webhook.handlers.forEach((handler, handlerIndex) => {
      if (!agents.has(handler.agent))
        ctx.addIssue({
          code: 'custom',
          path: ['webhooks', index, 'handlers', handlerIndex, 'agent'],
          message: `unknown agent "${handler.agent}"`,
        });
    }),
  );
}

export type WebhookVerification = (typeof WEBHOOK_VERIFICATIONS)[number];
export type WebhookHandlerConfig = z.infer<typeof webhookHandlerSchema>;
export type WebhookConfig = z.infer<typeof webhookSchema>;
export type WebhooksConfig = z.infer<typeof webhooksSchema>;
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>;
export type { RateLimitConfig } from './rate-limit.schema.js';
