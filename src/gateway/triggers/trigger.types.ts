import type { StartRunRequest } from '../../agents/index.js';
import type { HandlerRunResult, InboxSourceKind } from './inbox/index.js';

/** The sources that run in the background; webhooks are pushed to their route instead. */
export type TriggerKind = 'poller' | 'listener';

/** Names one configured poller or listener. */
export interface TriggerRef {
  kind: TriggerKind;
  name: string;
}

/** How a run ended, as the triggers read it (the run service's RunResult fits). */
export interface TriggerRunEnd {
  runId: string;
  status: HandlerRunResult['status'];
  error?: { message: string };
}

/** The run service as the triggers use it (RunService fits): start a run, then wait for its end. */
export interface TriggerRuns {
  start(request: StartRunRequest): Promise<{ result: Promise<TriggerRunEnd> }>;
}

export function triggerKey(ref: { kind: InboxSourceKind; name: string }): string {
  return `${ref.kind}:${ref.name}`;
}
