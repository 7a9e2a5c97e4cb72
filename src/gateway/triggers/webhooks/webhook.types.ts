/** What a webhook handler asks of the agent runtime: one run, resolved when it has ended. */
export interface WebhookRunRequest {
  agentName: string;
  prompt: string;
  source: 'webhook';
  metadata: { delivery_id: string; event: string; webhook: string };
}

export interface WebhookRunResult {
  runId: string;
  /** Only `completed` counts as success; `cancelled` is an operator's decision and is not retried. */
  status: 'completed' | 'failed' | 'cancelled' | (string & {});
  error?: string;
}

/** The seam to the agent runtime, wired to the run service in app.ts. */
export type StartRun = (request: WebhookRunRequest) => Promise<WebhookRunResult>;

/** The slice of pino's logger the webhook parts use. */
export interface WebhookLogger {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}
