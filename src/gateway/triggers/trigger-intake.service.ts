import { spanTraceparent, traceLogFields, type TraceSpan } from '../../telemetry/index.js';
import { createId, isoNow } from '../../ids.js';
import { matchHandlers, type EventHandler } from './templates/index.js';
import type { InboxItem, InboxStore, SourceRef } from './inbox/index.js';
import { handlersOf } from './trigger-handlers.js';
import { triggerKey } from './trigger.types.js';
import type { Logger } from '../../logger.js';

/** An event as a source hands it over, parsed and named. */
export interface IncomingTriggerEvent {
  trigger: SourceRef;
  event: string;
  payload: unknown;
  /** The payload as received, stored byte for byte (a webhook's signed body); JSON of `payload` otherwise. */
  payloadText?: string;
  /** Request headers kept for operators (webhooks). */
  headers?: Record<string, string>;
  /** What makes a redelivery a duplicate (broker message id, id field, poller item id); none when unknown. */
  dedupeKey?: string;
  /** The poll's or message's `poll`/`receive` span: the item keeps its traceparent, its runs link to it. */
  trace?: TraceSpan;
}

/** Per-trigger counters since this process started, for the operators' trigger list. */
export interface TriggerIntakeStats {
  kind: SourceRef['kind'];
  name: string;
  received: number;
  duplicates: number;
  rejected: number;
  last_event_at: string | null;
}

export interface TriggerIntake {
  /** Stores one event; resolves once it is durable, so the source may acknowledge it. Throws when the store fails. */
  receive(incoming: IncomingTriggerEvent): Promise<{ item: InboxItem; duplicate: boolean }>;
  /** Counts a message the source could not use (not JSON, no id, a webhook's bad signature) and logs `message`. */
  reject(trigger: SourceRef, reason: string, message?: string): void;
  /** Which of these keys the trigger has stored before. */
  knownKeys(trigger: SourceRef, keys: readonly string[]): Promise<Set<string>>;
  stats(): TriggerIntakeStats[];
}

export interface TriggerIntakeOptions {
  store: InboxStore;
  handlers: Map<string, EventHandler[]>;
  logger: Logger;
  now?: () => Date;
  /** Called once a new event is stored and waits for the worker (wire it to the worker's wake). */
  onAccepted?: (event: InboxItem) => void;
}

export function createTriggerIntake(options: TriggerIntakeOptions): TriggerIntake {
  const now = options.now ?? (() => new Date());
  const counters = new Map<string, TriggerIntakeStats>();
  const countersOf = (ref: SourceRef) => {
    const key = triggerKey(ref);
    let entry = counters.get(key);
    if (!entry)
      counters.set(
        key,
        (entry = { kind: ref.kind, name: ref.name, received: 0, duplicates: 0, rejected: 0, last_event_at: null }),
      );
    return entry;
  };

  return {
    async receive({ trigger, event, payload, payloadText, headers, dedupeKey, trace }) {
      const receivedAt = isoNow(now());
      const matched = matchHandlers(handlersOf(options.handlers, trigger) ?? [], event);
      const stored = await options.store.insert({
        // Webhook deliveries have been `del_` since before the one inbox.
        item_id: createId(trigger.kind === 'webhook' ? 'del' : 'evt'),
        source_kind: trigger.kind,
        source_name: trigger.name,
        event,
        dedupe_key: dedupeKey ?? null,
        payload: payloadText ?? JSON.stringify(payload),
        headers,
        status: matched.length > 0 ? 'pending' : 'ignored',
        received_at: receivedAt,
        traceparent: spanTraceparent(trace),
      });
      const counts = countersOf(trigger);
      counts.received += 1;
      counts.last_event_at = receivedAt;
      if (stored.duplicate) counts.duplicates += 1;
      else if (stored.item.status === 'pending') options.onAccepted?.(stored.item);
      options.logger.info(
        {
          trigger: triggerKey(trigger),
          item_id: stored.item.item_id,
          event,
          duplicate: stored.duplicate,
          status: stored.item.status,
          ...traceLogFields(trace),
        },
        'trigger event stored',
      );
      return stored;
    },

    reject(trigger, reason, message = 'trigger message rejected') {
      countersOf(trigger).rejected += 1;
      options.logger.warn({ trigger: triggerKey(trigger), reason }, message);
    },

    knownKeys: (trigger, keys) => options.store.knownKeys(trigger, keys),

    stats: () => [...counters.values()].map((entry) => ({ ...entry })),
  };
}
