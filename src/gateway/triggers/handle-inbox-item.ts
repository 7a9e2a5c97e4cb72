import type { RunTrigger } from '../../agents/index.js';
import { isoNow } from '../../ids.js';
import { runHandlers, type InboxItem, type InboxOutcome, type InboxRetrySettings } from './inbox/index.js';
import { matchHandlers, type EventHandler } from './templates/index.js';
import { triggerKey, type TriggerRuns } from './trigger.types.js';

export interface HandleInboxItemContext {
  /** Every webhook's, poller's and listener's handlers under the current config, keyed `<kind>:<name>`. */
  handlers: Map<string, EventHandler[]>;
  /** The retry policy of the item's source kind (webhook_settings or trigger_settings). */
  settings: InboxRetrySettings;
  runs: TriggerRuns;
  now: () => Date;
  /** True while the process shuts down: runs ending then are not held against the item. */
  stopping: () => boolean;
}

/**
 * Runs one claimed inbox item's matching handlers against the current config, each as a run of the run
 * service that records the item (`triggered_by`), and decides what becomes of the item.
 */
export async function handleInboxItem(item: InboxItem, context: HandleInboxItemContext): Promise<InboxOutcome> {
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
  const triggeredBy: RunTrigger = { item_id: item.item_id, event: item.event, source };
  return runHandlers(item, {
    handlers: matchHandlers(handlers, item.event),
    payload: item.payload,
    async startRun(handler, prompt) {
      const run = await context.runs.start({
        agentName: handler.agent,
        messages: [{ role: 'user', content: prompt }],
        source: item.source_kind,
        triggeredBy,
        traceparent: item.traceparent,
      });
      const end = await run.result;
      return {
        runId: end.runId,
        status: end.status,
        error: end.status === 'completed' ? undefined : end.error?.message,
      };
    },
    settings: context.settings,
    now: context.now,
    stopping: context.stopping,
  });
}
