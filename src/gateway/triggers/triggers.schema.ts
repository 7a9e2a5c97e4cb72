import { z } from 'zod';
import { pageQuery } from '../../page-query.js';

const triggerKind = z.enum(['webhook', 'poller', 'listener']);
const deliveryStatus = z.enum(['pending', 'processing', 'done', 'failed', 'ignored']);

export const triggerItem = z.object({
  kind: triggerKind,
  name: z.string(),
  source: z.string().describe('A webhook\'s verification mode, "http" for a poller, or the listener\'s source (redis, amqp, nats, mqtt, sse)'),
  state: z.enum(['connecting', 'connected', 'backing_off', 'error', 'stopped']).describe('Webhooks are always connected; "error" means the source gave up on a failure retrying cannot fix'),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe('When the next connection attempt or poll is due'),
  counts: z.object({
    received: z.number().int().describe('Events received since the process started, duplicates included'),
    duplicates: z.number().int(),
    rejected: z.number().int().describe('Webhook requests failing verification; listener messages or poller items that were unusable'),
    runs_started: z.number().int().describe('Agent runs started since the process started, retries included'),
    failed: z.number().int().describe('Stored deliveries in the failed state now; retry them through /deliveries/{id}/retry'),
  }),
  last_event_at: z.string().nullable(),
});

export const listTriggersQuery = z.strictObject({ ...pageQuery });

export const listDeliveriesQuery = z.strictObject({
  status: deliveryStatus.optional().describe('Only deliveries in this state, e.g. failed'),
  kind: triggerKind.optional().describe('Only webhook deliveries, poller events or listener events'),
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

export const deliveryIdParams = z.object({ id: z.string().min(1) });
