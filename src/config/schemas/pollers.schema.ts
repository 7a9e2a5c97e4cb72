import { z } from 'zod';
import { WEBHOOK_NAME_PATTERN, webhookHandlerSchema } from './webhooks.schema.js';

/** Dotted path into JSON, e.g. `data.items`; segments are object keys or array indexes. */
export const jsonPathSchema = z.string().regex(/^[^.\s]+(\.[^.\s]+)*$/, 'a dotted path such as "data.items"');

export const triggerNameSchema = z
  .string()
  .regex(WEBHOOK_NAME_PATTERN, 'names are 1-64 letters, digits, _ or -, starting with a letter or digit');

export const pollerSchema = z.strictObject({
  name: triggerNameSchema,
  /** Decimals allowed (0.5 = 30 s); the shortest interval is one second. */
  interval_minutes: z
    .number()
    .refine((minutes) => minutes * 60 >= 1 - 1e-9, 'interval_minutes must be at least one second (0.0167)'),
  http: z.strictObject({
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
    method: z.enum(['GET', 'POST']).default('GET'),
    headers: z.record(z.string(), z.string()).default({}),
    /** Where the array of items sits in the JSON response; the response itself when unset. */
    items_path: jsonPathSchema.optional(),
    /** A poll taking longer fails (and backs off). */
    timeout_seconds: z.number().positive().default(30),
  }),
  /** Path to each item's id; an item whose id was seen before (also before a restart) starts no run. */
  id_field: jsonPathSchema,
  /** Runs once per new item; the prompt is a template over the item. */
  handler: webhookHandlerSchema.omit({ event: true }),
});

export const pollersSchema = z
  .array(pollerSchema)
  .default([])
  .superRefine((pollers, ctx) => {
    const seen = new Set<string>();
    pollers.forEach((poller, index) => {
      if (seen.has(poller.name))
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate poller name "${poller.name}"` });
      seen.add(poller.name);
    });
  });

export type PollerConfig = z.infer<typeof pollerSchema>;
export type PollersConfig = z.infer<typeof pollersSchema>;
