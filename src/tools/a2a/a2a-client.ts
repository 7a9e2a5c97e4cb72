import { randomUUID } from 'node:crypto';
import { injectTraceHeaders, type TraceSpan } from '../../telemetry/index.js';
import {
  A2A_PROTOCOL_VERSION,
  A2A_VERSION_HEADER,
  GetTaskRequest,
  SendMessageRequest,
  type AgentCard,
  type StreamResponse,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { createA2aResultCollector, textOfParts, type A2aTaskResult } from './collect-a2a-result.js';

/** An agent card as fetched: plain JSON, as the remote published it. */
export type RawAgentCard = Record<string, unknown>;

const LEGACY_COMPAT = { legacyCompat: { enabled: true } };

/** The official SDK client, told to speak v0.3 to peers whose cards say so. */
const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    cardResolver: new DefaultAgentCardResolver(LEGACY_COMPAT),
    transports: [new JsonRpcTransportFactory(LEGACY_COMPAT), new RestTransportFactory(LEGACY_COMPAT)],
  }),
);

/** An A2A base URL (`.../a2a/helper`) gives its card URL; a URL that already names a .json card is kept. */
export function resolveCardUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\.json$/i.test(new URL(trimmed).pathname) ? trimmed : `${trimmed}/.well-known/agent-card.json`;
}

/** Fetches an agent card (cards are public: no credential is sent), asking for the A2A 1.0 shape. */
export async function fetchAgentCard(url: string, signal?: AbortSignal, trace?: TraceSpan): Promise<RawAgentCard> {
  const cardUrl = resolveCardUrl(url);
  const response = await fetch(cardUrl, {
    headers: injectTraceHeaders({ accept: 'application/json', [A2A_VERSION_HEADER]: A2A_PROTOCOL_VERSION }, trace),
    signal,
  });
  if (!response.ok) throw new Error(`fetching the agent card ${cardUrl} answered HTTP ${response.status}`);
  const card = await response.json();
  if (!card || typeof card !== 'object' || Array.isArray(card))
    throw new Error(`${cardUrl} is not an agent card (expected a JSON object)`);
  return card as RawAgentCard;
}

/** Resubscriptions to a task whose stream stopped early, each only while the previous one brought events. */
const RESUBSCRIBE_ATTEMPTS = 3;

export interface SendA2aTaskOptions {
  card: RawAgentCard;
  task: string;
  /** Sent as `Authorization: Bearer <token>`: the scoped credential the remote's operator issued. */
  token?: string;
  /** Aborting stops waiting and asks the remote to cancel the task. */
  signal?: AbortSignal;
  /** Receives the remote's answer as it streams. */
  onText?(delta: string): void;
  /** Continues a conversation (contextId) or answers a task waiting for input (taskId). */
  contextId?: string;
  taskId?: string;
  /** The delegating tool call's span: the remote continues its trace. */
  trace?: TraceSpan;
}

/**
 * Sends one task and follows it to its end over the remote's stream (a remote without streaming
 * answers in one reply; the SDK falls back by itself). A stream that stops early is completed by tasks/get.
 */
export async function sendA2aTask(options: SendA2aTaskOptions): Promise<A2aTaskResult> {
  // The factory's resolver normalizes a raw card (1.0 proto-JSON or v0.3) before using it.
  const client = await factory.createFromAgentCard(options.card as unknown as AgentCard);
  const call = {
    signal: options.signal,
    serviceParameters: injectTraceHeaders(
      options.token ? { Authorization: `Bearer ${options.token}` } : {},
      options.trace,
    ),
  };
  const request = SendMessageRequest.fromJSON({
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text: options.task }],
      ...(options.contextId ? { contextId: options.contextId } : {}),
      ...(options.taskId ? { taskId: options.taskId } : {}),
    },
  });
  const collector = createA2aResultCollector();
  try {
    const follow = async (events: AsyncIterable<StreamResponse>) => {
      for await (const event of events) {
        collector.add(event);
        if (options.onText && event.payload?.$case === 'artifactUpdate') {
          const text = textOfParts(event.payload.value.artifact?.parts ?? []);
          if (text) options.onText(text);
        }
        if (collector.done) break;
      }
    };
    await follow(client.sendMessageStream(request, call));
    // A stream that stopped before the task's end (a proxy's idle timeout, a replica restarting) is followed
    // again with resubscribe, which any replica of the remote serves; never by polling tasks/get.
    for (let attempt = 0; attempt < RESUBSCRIBE_ATTEMPTS && !collector.done && collector.taskId; attempt++) {
      const before = collector.eventCount;
      await follow(client.resubscribeTask({ tenant: '', id: collector.taskId }, call)).catch(() => undefined);
      if (collector.eventCount === before) break;
    }
    if (!collector.done && collector.taskId)
      collector.addTask(await client.getTask(GetTaskRequest.fromJSON({ id: collector.taskId }), call));
  } catch (error) {
    if (options.signal?.aborted && collector.taskId) await cancelQuietly(client, collector.taskId, options.token);
    throw error;
  }
  return collector.result();
}

// Best effort, and brief: the caller already gave up, so a failed cancel only means the remote finishes for nothing.
async function cancelQuietly(client: Client, taskId: string, token: string | undefined): Promise<void> {
  const serviceParameters = token ? { Authorization: `Bearer ${token}` } : undefined;
  await client
    .cancelTask(
      { tenant: '', id: taskId, metadata: undefined },
      { serviceParameters, signal: AbortSignal.timeout(2_000) },
    )
    .catch(() => undefined);
}
