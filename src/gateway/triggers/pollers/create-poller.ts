import type { PollerConfig, TriggerSettings } from '../../../config/index.js';
import { withConsumerSpan, type TraceSpan } from '../../../telemetry/index.js';
import { readKey } from '../read-path.js';
import { sleepUnlessAborted } from '../../../sleep.js';
import { sourceBackoffMs, type Sleep } from '../source-backoff.js';
import { createSourceState, sourceLifecycle } from '../source-state.js';
import type { TriggerIntake } from '../trigger-intake.service.js';
import { POLLER_ITEM_EVENT } from '../trigger-handlers.js';
import type { TriggerSource } from '../trigger-source.js';
import type { TriggerRef } from '../trigger.types.js';
import { fetchPollItems } from './fetch-poll-items.js';
import type { Logger } from '../../../logger.js';

export interface PollerOptions {
  poller: PollerConfig;
  intake: TriggerIntake;
  settings: TriggerSettings;
  logger: Logger;
  now?: () => Date;
  fetch?: typeof fetch;
  sleep?: Sleep;
}

/**
 * Polls an HTTP endpoint at start and then every interval. Each item whose id the store has not seen
 * is stored as one trigger event (one run); a failed poll backs off, doubling up to the cap, and the
 * first successful poll returns to the interval.
 */
export function createPoller(options: PollerOptions): TriggerSource {
  const { poller, intake } = options;
  const ref: TriggerRef = { kind: 'poller', name: poller.name };
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? sleepUnlessAborted;
  const fetchImpl = options.fetch ?? fetch;
  const state = createSourceState({ trigger: `poller:${poller.name}` }, options.logger);
  const intervalMs = Math.round(poller.interval_minutes * 60_000);

  // Each tick is a `poll` span of its own: the items it stores keep its traceparent, and their runs link to it.
  const pollSpan = {
    operation: 'poll',
    trigger: poller.name,
    system: 'http',
    destination: new URL(poller.http.url).pathname,
  } as const;
  const pollOnce = (signal: AbortSignal) => withConsumerSpan(pollSpan, (span) => storeNewItems(signal, span));

  async function storeNewItems(signal: AbortSignal, trace: TraceSpan): Promise<void> {
    const items = await fetchPollItems(poller.http, fetchImpl, signal, trace);
    const fresh = new Map<string, unknown>();
    for (const item of items) {
      const id = readKey(item, poller.id_field);
      if (id === undefined) intake.reject(ref, `an item has no usable "${poller.id_field}"`);
      else if (!fresh.has(`id:${id}`)) fresh.set(`id:${id}`, item);
    }
    const known = await intake.knownKeys(ref, [...fresh.keys()]);
    // Stored in response order, one at a time, so a store failure leaves later items for the next poll.
    for (const [key, item] of fresh) {
      if (signal.aborted) return;
      if (!known.has(key))
        await intake.receive({ trigger: ref, event: POLLER_ITEM_EVENT, payload: item, dedupeKey: key, trace });
    }
  }

  async function run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let delayMs = intervalMs;
      try {
        await pollOnce(signal);
        if (signal.aborted) break;
        state.connected(new Date(now().getTime() + intervalMs));
      } catch (error) {
        if (signal.aborted) break;
        delayMs = sourceBackoffMs(state.failed(error), options.settings.source_backoff);
        state.backingOff(new Date(now().getTime() + delayMs));
      }
      await sleep(delayMs, signal);
    }
    state.stopped();
  }

  return {
    kind: 'poller',
    name: poller.name,
    source: 'http',
    ...sourceLifecycle(state, run),
  };
}
