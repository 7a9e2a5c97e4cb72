import type { TriggerSettings } from '../../config/index.js';
import { isoNow } from '../../ids.js';
import { createInboxWorker, runHandlers, type InboxWorker } from './inbox/index.js';
import { matchHandlers, type EventHandler } from './templates/index.js';
import type { TriggerEventStore } from './trigger-event.store.js';
import { handlersOf } from './trigger-handlers.js';
import { triggerKey, type StartRun, type TriggerLogger } from './trigger.types.js';

export interface TriggerWorkerOptions {
  store: TriggerEventStore;
  startRun: StartRun;
  handlers: Map<string, EventHandler[]>;
  settings: TriggerSettings;
  logger: TriggerLogger;
  now?: () => Date;
  workerId?: string;
  /** See the webhook worker: only for a process that is the database's sole user (embedded SQLite). */
  reclaimAllOnStart?: boolean;
}

/** The trigger inbox's consumer: runs the handlers of stored poller and listener events, retrying with backoff. */
export function createTriggerWorker(options: TriggerWorkerOptions): InboxWorker {
  const now = options.now ?? (() => new Date());
  return createInboxWorker({
    store: options.store,
    settings: options.settings,
    label: 'trigger inbox',
    logger: options.logger,
    now,
    workerId: options.workerId,
    reclaimAllOnStart: options.reclaimAllOnStart,
    describe: (item) => {
      const trigger = triggerKey({ kind: item.trigger_kind, name: item.trigger_name });
      return { id: item.event_id, group: trigger, log: { event_id: item.event_id, trigger, event: item.event } };
    },
    handle: async (item, stopping) => {
      const ref = { kind: item.trigger_kind, name: item.trigger_name };
      const handlers = handlersOf(options.handlers, ref);
      if (!handlers) return { status: 'failed', finishedAt: isoNow(now()), lastError: `${item.trigger_kind} "${item.trigger_name}" is no longer configured`, runIds: item.run_ids, completedHandlers: item.completed_handlers };
      const metadata = { event_id: item.event_id, event: item.event, trigger: triggerKey(ref) };
      return runHandlers(item, {
        handlers: matchHandlers(handlers, item.event),
        payload: JSON.parse(item.payload) as unknown,
        startRun: (handler, prompt) => options.startRun({ agentName: handler.agent, prompt, source: item.trigger_kind, metadata }),
        settings: options.settings,
        now,
        stopping,
      });
    },
  });
}
