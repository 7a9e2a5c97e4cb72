import { afterFailedAttempt } from '../../../db/index.js';
import { isoNow } from '../../../ids.js';
import { handlerKey, renderPrompt, type EventHandler } from '../templates/index.js';
import type { InboxItem, InboxOutcome, InboxRetrySettings } from './inbox.types.js';

/** How one handler's run ended, as the agent runtime reports it. */
export interface HandlerRunResult {
  runId: string;
  /** Only `completed` counts as success; `cancelled` is an operator's decision and is not retried. */
  status: 'completed' | 'failed' | 'cancelled' | (string & {});
  error?: string;
}

export interface RunHandlersContext<H extends EventHandler> {
  /** The handlers that match the item's event under the current config. */
  handlers: readonly H[];
  /** The item's JSON payload, which prompts are rendered over. */
  payload: unknown;
  startRun(handler: H, prompt: string): Promise<HandlerRunResult>;
  settings: InboxRetrySettings;
  now: () => Date;
  /** True while the process shuts down: runs ending then are not held against the item. */
  stopping: () => boolean;
}

/**
 * Runs one claimed item's handlers that have not yet succeeded, in parallel, and decides what becomes
 * of the item: done, retried later with backoff, or a dead letter once it has used every attempt.
 */
export async function runHandlers<H extends EventHandler>(
  item: Pick<InboxItem, 'attempts' | 'run_ids' | 'completed_handlers'>,
  context: RunHandlersContext<H>,
): Promise<InboxOutcome> {
  if (context.handlers.length === 0)
    return {
      status: 'ignored',
      finishedAt: isoNow(context.now()),
      lastError: null,
      runIds: item.run_ids,
      completedHandlers: item.completed_handlers,
    };
  const pending = context.handlers.filter((handler) => !item.completed_handlers.includes(handlerKey(handler)));
  const results = await Promise.all(
    pending.map(async (handler) => {
      try {
        const run = await context.startRun(handler, renderPrompt(handler.prompt, context.payload));
        const succeeded = run.status === 'completed' || (run.status === 'cancelled' && !context.stopping());
        return {
          key: handlerKey(handler),
          runId: run.runId,
          error: succeeded
            ? undefined
            : `${handler.agent}: run ${run.runId} ${run.status}${run.error ? `: ${run.error}` : ''}`,
        };
      } catch (error) {
        return {
          key: handlerKey(handler),
          runId: undefined,
          error: `${handler.agent}: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }),
  );

  const runIds = [...item.run_ids, ...results.flatMap((result) => (result.runId ? [result.runId] : []))];
  const completedHandlers = [
    ...item.completed_handlers,
    ...results.filter((result) => !result.error).map((result) => result.key),
  ];
  const errors = results.flatMap((result) => (result.error ? [result.error] : []));
  const now = context.now();
  if (errors.length === 0)
    return { status: 'done', finishedAt: isoNow(now), lastError: null, runIds, completedHandlers };
  const lastError = errors.join('; ');
  if (context.stopping())
    return { status: 'pending', nextAttemptAt: isoNow(now), lastError, runIds, completedHandlers, refundAttempt: true };
  return { ...afterFailedAttempt(item.attempts, context.settings, now), lastError, runIds, completedHandlers };
}
