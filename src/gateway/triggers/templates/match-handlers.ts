import { createHash } from 'node:crypto';

/** What every trigger handler has: the event it reacts to, the agent it runs and the prompt template. */
export interface EventHandler {
  event: string;
  agent: string;
  prompt: string;
}

/** True when a handler's `event` names this event exactly, ends in `.*` and prefixes it, or is `*`. */
export function matchesEvent(pattern: string, event: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return event.startsWith(pattern.slice(0, -1));
  return pattern === event;
}

export function matchHandlers<H extends Pick<EventHandler, 'event'>>(handlers: readonly H[], event: string): H[] {
  return handlers.filter((handler) => matchesEvent(handler.event, event));
}

/**
 * A handler's identity across restarts and config reloads, so a retry skips handlers that already
 * succeeded: derived from what the handler does, not its position in the list.
 */
export function handlerKey(handler: EventHandler): string {
  return createHash('sha256')
    .update(JSON.stringify([handler.event, handler.agent, handler.prompt]))
    .digest('hex')
    .slice(0, 16);
}
