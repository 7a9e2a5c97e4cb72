import type { ListenersConfig, PollersConfig, WebhooksConfig } from '../../config/index.js';
import type { InboxSourceKind } from './inbox/index.js';
import type { EventHandler } from './templates/index.js';
import { triggerKey } from './trigger.types.js';

/** Poller items carry this event name: a poller has one handler, which takes every item. */
export const POLLER_ITEM_EVENT = 'item';

/** Every webhook's, poller's and listener's handlers, keyed `<kind>:<name>`; a poller's one handler matches any event. */
export function collectTriggerHandlers(config: {
  webhooks: WebhooksConfig;
  pollers: PollersConfig;
  listeners: ListenersConfig;
}): Map<string, EventHandler[]> {
  const handlers = new Map<string, EventHandler[]>();
  for (const webhook of config.webhooks)
    handlers.set(triggerKey({ kind: 'webhook', name: webhook.name }), webhook.handlers);
  for (const poller of config.pollers)
    handlers.set(triggerKey({ kind: 'poller', name: poller.name }), [{ event: '*', ...poller.handler }]);
  for (const listener of config.listeners)
    handlers.set(triggerKey({ kind: 'listener', name: listener.name }), listener.handlers);
  return handlers;
}

export function handlersOf(
  handlers: Map<string, EventHandler[]>,
  ref: { kind: InboxSourceKind; name: string },
): EventHandler[] | undefined {
  return handlers.get(triggerKey(ref));
}
