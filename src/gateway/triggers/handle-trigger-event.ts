import type { TriggerSettings } from '../../config/index.js';
import { isoNow } from '../../ids.js';
import { runHandlers, type InboxItem, type InboxOutcome } from './inbox/index.js';
import { matchHandlers, type EventHandler } from './templates/index.js';
import { triggerKey, type StartRun } from './trigger.types.js';

export interface HandleTriggerEventContext {
  /** Every poller's and listener's handlers, keyed `<kind>:<name>` (collectTriggerHandlers). */
  handlers: Map<string, EventHandler[]>;
  settings: TriggerSettings;
  startRun: StartRun;
  now: () => Date;
  stopping: () => boolean;
}

/** Runs one claimed poller or listener event's matching handlers and decides what becomes of it. */
export async function handleTriggerEvent(item: InboxItem, context: HandleTriggerEventContext): Promise<InboxOutcome> {
  const source = triggerKey({ kind: item.source_kind, name: item.source_name });
  const handlers = context.handlers.get(source);
  if (!handlers)
    return {
      status: 'dead',
      finishedAt: isoNow(context.now()),
      lastError: `${item.source_kind} "${item.source_name}" is no longer configured`,
      runIds: item.run_ids,
      completedHandlers: item.completed_handlers,
    };
  const metadata = { item_id: item.item_id, event: item.event, source };
  return runHandlers(item, {
    handlers: matchHandlers(handlers, item.event),
    payload: item.payload,
    startRun: (handler, prompt) =>
      context.startRun({
        agentName: handler.agent,
        prompt,
        source: item.source_kind,
        metadata,
        traceparent: item.traceparent,
      }),
    settings: context.settings,
    now: context.now,
    stopping: context.stopping,
  });
}
