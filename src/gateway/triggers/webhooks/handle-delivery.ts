import type { WebhookConfig, WebhookSettings } from '../../../config/index.js';
import { isoNow } from '../../../ids.js';
import { runHandlers, type InboxItem, type InboxOutcome } from '../inbox/index.js';
import { matchHandlers } from '../templates/index.js';
import type { StartRun } from '../trigger.types.js';

export interface HandleDeliveryContext {
  /** The delivery's webhook as configured now; undefined when it was removed from the config. */
  webhook: WebhookConfig | undefined;
  settings: Pick<WebhookSettings, 'max_attempts' | 'backoff_seconds' | 'max_backoff_seconds'>;
  startRun: StartRun;
  now: () => Date;
  /** True while the process shuts down: runs ending then are not held against the delivery. */
  stopping: () => boolean;
}

/** Runs one claimed webhook delivery's matching handlers against the current config and decides what becomes of it. */
export async function handleDelivery(delivery: InboxItem, context: HandleDeliveryContext): Promise<InboxOutcome> {
  const { webhook } = context;
  if (!webhook)
    return {
      status: 'dead',
      finishedAt: isoNow(context.now()),
      lastError: `webhook "${delivery.source_name}" is no longer configured`,
      runIds: delivery.run_ids,
      completedHandlers: delivery.completed_handlers,
    };
  const metadata = { item_id: delivery.item_id, event: delivery.event, source: `webhook:${delivery.source_name}` };
  return runHandlers(delivery, {
    handlers: matchHandlers(webhook.handlers, delivery.event),
    payload: delivery.payload,
    startRun: (handler, prompt) =>
      context.startRun({
        agentName: handler.agent,
        prompt,
        source: 'webhook',
        metadata,
        traceparent: delivery.traceparent,
      }),
    settings: context.settings,
    now: context.now,
    stopping: context.stopping,
  });
}
