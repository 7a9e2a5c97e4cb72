import type { ListenersConfig, PollersConfig } from '../../config/index.js';
import type { EventHandler } from './templates/index.js';
import { triggerKey, type TriggerRef } from './trigger.types.js';

/** Poller items carry this event name: a poller has one handler, which takes every item. */
export const POLLER_ITEM_EVENT = 'item';

/** Every poller's and listener's handlers, keyed `<kind>:<name>`; a poller's one handler matches any event. */
export function collectTriggerHandlers(config: {
  pollers: PollersConfig;
  listeners: ListenersConfig;
}): Map<string, EventHandler[]> {
  const handlers = new Map<string, EventHandler[]>();
  for (const poller of config.pollers)
    handlers.set(triggerKey({ kind: 'poller', name: poller.name }), [{ event: '*', ...poller.handler }]);
  for (const listener of config.listeners)
    handlers.set(triggerKey({ kind: 'listener', name: listener.name }), listener.handlers);
  return handlers;
}

export function handlersOf(handlers: Map<string, EventHandler[]>, ref: TriggerRef): EventHandler[] | undefined {
  return handlers.get(triggerKey(ref));
}
