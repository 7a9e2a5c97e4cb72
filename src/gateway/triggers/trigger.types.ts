import type { HandlerRunResult, InboxSourceKind } from './inbox/index.js';

/** The sources that run in the background; webhooks are pushed to their route instead. */
export type TriggerKind = 'poller' | 'listener';

/** Names one configured poller or listener. */
export interface TriggerRef {
  kind: TriggerKind;
  name: string;
}

/** What a handler asks of the agent runtime: one run, resolved when it has ended. */
export interface TriggerRunRequest {
  agentName: string;
  prompt: string;
  source: InboxSourceKind;
  metadata: { item_id: string; event: string; source: string };
  /** The trace that stored the item: the run's span links to it. */
  traceparent?: string | null;
}

/** The seam to the agent runtime, wired to the run service in app.ts. */
export type StartRun = (request: TriggerRunRequest) => Promise<HandlerRunResult>;

/** The slice of pino's logger the triggers use. */

export function triggerKey(ref: { kind: InboxSourceKind; name: string }): string {
  return `${ref.kind}:${ref.name}`;
}
