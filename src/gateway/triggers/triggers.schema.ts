import { z } from 'zod';
import { pageQuery } from '../../page-query.js';

const triggerKind = z.enum(['webhook', 'poller', 'listener']);
const deliveryStatus = z
  .enum(['pending', 'running', 'done', 'dead', 'ignored'])
  .describe('running: claimed by a worker; dead: every attempt failed (replay it); ignored: no handler matched');

export const triggerItem = z.object({
  kind: triggerKind,
  name: z.string(),
  source: z
    .string()
    .describe(
      'A webhook\'s verification mode, "http" for a poller, or the listener\'s source (redis, redis-stream, amqp, nats, mqtt, sse)',
    ),
  state: z
    .enum(['connecting', 'connected', 'backing_off', 'standby', 'error', 'stopped'])
    .describe(
      'Webhooks are always connected; "error" means the source gave up on a failure retrying cannot fix; "standby" means another replica reads the source (an SSE listener\'s lease)',
    ),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe('When the next connection attempt or poll is due'),
  counts: z.object({
    received: z.number().int().describe('Events received by this process since it started, duplicates included'),
    duplicates: z.number().int(),
    rejected: z
      .number()
      .int()
      .describe('Webhook requests failing verification; listener messages or poller items that were unusable'),
    runs_started: z.number().int().describe('Agent runs started by this process since it started, retries included'),
  }),
  inbox: z
    .object({
      pending: z.number().int(),
      running: z.number().int(),
      done: z.number().int(),
      dead: z.number().int().describe('Dead letters: replay them with POST /deliveries/{id}/replay'),
      ignored: z.number().int(),
      oldest_pending_age_seconds: z.number().int().describe('Age of the oldest pending item; 0 when none is pending'),
    })
    .describe('Items of this source stored now, across every replica'),
  last_event_at: z.string().nullable(),
});

export const listTriggersQuery = z.strictObject({ ...pageQuery });

export const listDeliveriesQuery = z.strictObject({
  status: deliveryStatus.optional().describe('Only items in this state, e.g. dead'),
  kind: triggerKind.optional().describe('Only webhook deliveries, poller events or listener events'),
  trigger: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only items of the webhook, poller or listener with this name'),
  ...pageQuery,
});

export const deliveryItem = z.object({
  id: z.string().describe('`del_…` for a webhook delivery, `evt_…` for a poller or listener event'),
  kind: triggerKind,
  trigger: z.string().describe('The webhook, poller or listener name'),
  event: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  received_at: z.string(),
  finished_at: z.string().nullable(),
  run_ids: z.array(z.string()),
});

export const deliveryIdParams = z.object({ id: z.string().min(1).max(100) });
