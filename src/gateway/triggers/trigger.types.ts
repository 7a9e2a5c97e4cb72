import type { HandlerRunResult } from './inbox/index.js';

export type TriggerKind = 'poller' | 'listener';

/** Names one configured poller or listener. */
export interface TriggerRef {
  kind: TriggerKind;
  name: string;
}

/** What a poller or listener handler asks of the agent runtime: one run, resolved when it has ended. */
export interface TriggerRunRequest {
  agentName: string;
  prompt: string;
  source: TriggerKind;
  metadata: { event_id: string; event: string; trigger: string };
}

/** The seam to the agent runtime, wired to the run service in app.ts (the same adapter webhooks use). */
export type StartRun = (request: TriggerRunRequest) => Promise<HandlerRunResult>;

/** The slice of pino's logger the triggers use. */
export interface TriggerLogger {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

export function triggerKey(ref: TriggerRef): string {
  return `${ref.kind}:${ref.name}`;
}
