import { spanTraceparent, traceLogFields, type TraceSpan } from '../../../telemetry/index.js';
import { DEFAULT_MAX_JSON_DEPTH, type WebhooksConfig } from '../../../config/index.js';
import { AuthenticationError, NotFoundError } from '../../../errors.js';
import { createId, isoNow } from '../../../ids.js';
import { matchHandlers } from '../templates/index.js';
import { parseWebhookPayload } from './parse-webhook-payload.js';
import { resolveDedupeKey } from './resolve-dedupe-key.js';
import { resolveEventName } from './resolve-event-name.js';
import type { SignedRequest } from './verification.types.js';
import { verifyWebhookSignature } from './verify-webhook-signature.js';
import type { InboxItem, InboxStore } from '../inbox/index.js';
import type { Logger } from '../../../logger.js';

/**
 * Request headers kept with a delivery: ids, timestamps and event names for operators, never signatures
 * (`webhook-signature`, `x-signature`, …). The unsigned ids (`x-webhook-id`, `x-github-delivery`) are kept
 * to look deliveries up, but are not used as dedupe keys.
 */
const KEPT_HEADERS = [
  'content-type',
  'user-agent',
  'x-event-type',
  'webhook-id',
  'webhook-timestamp',
  'x-webhook-id',
  'x-github-event',
  'x-github-delivery',
  'x-github-hook-id',
  'x-slack-retry-num',
  'x-slack-retry-reason',
  'x-slack-request-timestamp',
];

export type IntakeResult =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'accepted'; delivery_id: string; event: string; duplicate: boolean };

/** Per-webhook counters since this process started, for the operators' trigger list. */
export interface WebhookIntakeStats {
  webhook: string;
  received: number;
  duplicates: number;
  rejected: number;
  last_received_at: string | null;
}

export interface WebhookIntake {
  has(name: string): boolean;
  /**
   * Verifies, parses and stores one request. Throws NotFoundError for an unknown webhook,
   * AuthenticationError when verification fails (nothing stored) and ValidationError for a bad body.
   */
  /** `trace`: the request's span; the delivery keeps its traceparent, its runs link to it. */
  receive(name: string, request: SignedRequest, trace?: TraceSpan): Promise<IntakeResult>;
  stats(): WebhookIntakeStats[];
}

export interface WebhookIntakeOptions {
  store: InboxStore;
  webhooks: WebhooksConfig;
  logger: Logger;
  now?: () => Date;
  /** `server.max_json_depth`: a verified body nested deeper is 400 `json_too_deep` and not stored. */
  maxJsonDepth?: number;
  /** Called once a new delivery is stored and waits for the worker (wire it to the worker's wake). */
  onAccepted?: (delivery: InboxItem) => void;
}

export function createWebhookIntake(options: WebhookIntakeOptions): WebhookIntake {
  const now = options.now ?? (() => new Date());
  const webhooks = new Map(options.webhooks.map((webhook) => [webhook.name, webhook]));
  const stats = new Map(
    options.webhooks.map((webhook) => [
      webhook.name,
      { webhook: webhook.name, received: 0, duplicates: 0, rejected: 0, last_received_at: null as string | null },
    ]),
  );

  return {
    has: (name) => webhooks.has(name),
    stats: () => [...stats.values()].map((entry) => ({ ...entry })),

    async receive(name, request, trace) {
      const webhook = webhooks.get(name);
      if (!webhook) throw new NotFoundError(`No webhook named "${name}"`, 'webhook_not_found');
      const counters = stats.get(name)!;
      const receivedAt = now();
      const verification = verifyWebhookSignature(webhook, request, receivedAt);
      if (!verification.ok) {
        counters.rejected += 1;
        options.logger.warn({ webhook: name, reason: verification.reason }, 'webhook signature verification failed');
        throw new AuthenticationError('Webhook signature verification failed', 'invalid_signature');
      }
      const contentType =
        typeof request.headers['content-type'] === 'string' ? request.headers['content-type'] : undefined;
      const { payload, json } = parseWebhookPayload(
        request.body,
        contentType,
        options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
      );
      // Slack confirms the URL once with a signed challenge that must be echoed; it is not an event.
      if (
        webhook.verification === 'slack' &&
        payload.type === 'url_verification' &&
        typeof payload.challenge === 'string'
      ) {
        return { kind: 'challenge', challenge: payload.challenge };
      }
      const event = resolveEventName(webhook, payload, request);
      const { item: delivery, duplicate } = await options.store.insert({
        item_id: createId('del'),
        source_kind: 'webhook',
        source_name: name,
        event,
        dedupe_key: resolveDedupeKey(webhook.verification, payload, request),
        payload: json,
        headers: keptHeaders(request),
        status: matchHandlers(webhook.handlers, event).length > 0 ? 'pending' : 'ignored',
        received_at: isoNow(receivedAt),
        traceparent: spanTraceparent(trace),
      });
      counters.received += 1;
      counters.last_received_at = isoNow(receivedAt);
      if (duplicate) counters.duplicates += 1;
      else if (delivery.status === 'pending') options.onAccepted?.(delivery);
      options.logger.info(
        {
          webhook: name,
          delivery_id: delivery.item_id,
          event: delivery.event,
          duplicate,
          status: delivery.status,
          ...traceLogFields(trace),
        },
        'webhook delivery accepted',
      );
      return { kind: 'accepted', delivery_id: delivery.item_id, event: delivery.event, duplicate };
    },
  };
}

function keptHeaders(request: SignedRequest): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}
