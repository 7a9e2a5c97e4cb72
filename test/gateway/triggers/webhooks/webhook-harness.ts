import type { FastifyInstance } from 'fastify';
import { createAuthenticator, createTokenService, createTokenStore } from '../../../../src/auth/index.js';
import { parseConfigText, type AuthConfig, type Config } from '../../../../src/config/index.js';
import { createDatabase, type DatabaseHandle } from '../../../../src/db/index.js';
import {
  createInboxStore,
  createTriggers,
  webhooksRoutes,
  type HandlerRunResult,
  type InboxStore,
  type InboxWorker,
  type TriggerRuns,
  type TriggersOptions,
} from '../../../../src/gateway/triggers/index.js';
import type { RunTrigger } from '../../../../src/agents/index.js';
import { createServer, registerAuthHooks } from '../../../../src/http/index.js';
import { tempDataDir, type TestDatabase } from '../../../support/databases.js';
import type { Logger } from '../../../../src/logger.js';

export const AGENTS_YAML = `
providers:
  upstream: { type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }
agents:
  - { name: billing, model: upstream/test-model }
  - { name: triage, model: upstream/test-model }
`;

/** A clock the tests move by hand: signature tolerance and retry backoff never depend on real time. */
export class TestClock {
  private current = new Date('2030-01-01T00:00:00.000Z');
  now = (): Date => new Date(this.current);
  seconds = (): number => Math.floor(this.current.getTime() / 1000);
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

/** A run the triggers asked for, as the fake run service received it. */
export interface TriggerRunRequest {
  agentName: string;
  prompt: string;
  source: string;
  /** The inbox item the run records (`triggered_by`). */
  metadata: RunTrigger;
  traceparent?: string | null;
}

/** A stand-in for the run service: records every run request and answers with `behaviour`. */
export class FakeRuns implements TriggerRuns {
  readonly calls: TriggerRunRequest[] = [];
  behaviour: (request: TriggerRunRequest, index: number) => Promise<HandlerRunResult> | HandlerRunResult = (
    _request,
    index,
  ) => ({ runId: `run_${index}`, status: 'completed' });
  readonly start: TriggerRuns['start'] = async (request) => {
    const call = {
      agentName: request.agentName,
      prompt: request.messages.map((message) => message.content).join(''),
      source: request.source,
      metadata: request.triggeredBy!,
      traceparent: request.traceparent,
    };
    this.calls.push(call);
    const outcome = this.behaviour(call, this.calls.length);
    return {
      result: Promise.resolve(outcome).then((run) => ({
        runId: run.runId,
        status: run.status,
        error: run.error === undefined ? undefined : { message: run.error },
      })),
    };
  };
  prompts(): string[] {
    return this.calls.map((call) => call.prompt);
  }
}

export class CapturingLogger implements Logger {
  readonly entries: { level: string; object: Record<string, unknown>; message: string }[] = [];
  debug = (object: Record<string, unknown>, message: string) =>
    void this.entries.push({ level: 'debug', object, message });
  info = (object: Record<string, unknown>, message: string) =>
    void this.entries.push({ level: 'info', object, message });
  warn = (object: Record<string, unknown>, message: string) =>
    void this.entries.push({ level: 'warn', object, message });
  error = (object: Record<string, unknown>, message: string) =>
    void this.entries.push({ level: 'error', object, message });
  get text(): string {
    return JSON.stringify(this.entries);
  }
}

export interface WebhookHarness {
  url: string;
  config: Config;
  database: DatabaseHandle;
  store: InboxStore;
  worker: InboxWorker;
  runs: FakeRuns;
  clock: TestClock;
  logger: CapturingLogger;
  server: FastifyInstance;
  post(
    name: string,
    body: string | Buffer,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Another worker over the same store, as a second replica (or the restarted process) would have. */
  createWorker(overrides?: Partial<TriggersOptions>): InboxWorker;
  close(): Promise<void>;
}

/** The pieces wired as src/app.ts wires them, on a real loopback port; `yaml` holds the webhooks sections. */
export async function startWebhookHarness(
  yaml: string,
  options: { database?: TestDatabase; bodyLimitBytes?: number } = {},
): Promise<WebhookHarness> {
  const temp = options.database ? undefined : tempDataDir();
  const config = parseConfigText(`${AGENTS_YAML}\n${yaml}`, 'webhooks.yaml');
  const database = await createDatabase({
    databaseUrl: options.database?.databaseUrl,
    dataDir: options.database?.dataDir ?? temp!.dataDir,
  });
  const clock = new TestClock();
  const runs = new FakeRuns();
  const logger = new CapturingLogger();
  const store = createInboxStore(database.db);
  // Wired as src/app.ts wires it: one inbox, its worker and the webhook intake.
  const build = (overrides: Partial<TriggersOptions> = {}) =>
    createTriggers({ store, runs, config, logger, now: clock.now, ...overrides });
  const triggers = build();
  const worker = triggers.worker;
  const intake = triggers.webhookIntake!;
  const createWorker = (overrides: Partial<TriggersOptions> = {}) => build(overrides).worker;

  const authConfig: AuthConfig = {
    api_keys: ['webhook-test-api-key'],
    jwt: undefined,
    tokens: { default_expires_in_seconds: 60, max_expires_in_seconds: 60 },
  };
  const tokens = createTokenService({
    store: createTokenStore(database.db),
    config: authConfig.tokens,
    agentExists: () => true,
  });
  const server = await createServer({
    logLevel: 'silent',
    bodyLimitBytes: options.bodyLimitBytes ?? 1_048_576,
    corsOrigins: [],
    version: 'test',
  });
  registerAuthHooks(server, createAuthenticator({ config: authConfig, apiKeys: authConfig.api_keys, tokens }), tokens);
  await server.register(webhooksRoutes, { intake, settings: config.webhook_settings });
  const url = await server.listen({ host: '127.0.0.1', port: 0 });

  return {
    url,
    config,
    database,
    store,
    worker,
    runs,
    clock,
    logger,
    server,
    createWorker,
    async post(name, body, headers = {}) {
      const response = await fetch(`${url}${config.webhook_settings.path_prefix}/${name}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    async close() {
      await worker.stop();
      await server.close();
      await database.close();
      temp?.remove();
    },
  };
}
