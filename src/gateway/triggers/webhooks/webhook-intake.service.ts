import type { TraceSpan } from '../../../telemetry/index.js';
import { DEFAULT_MAX_JSON_DEPTH, type WebhooksConfig } from '../../../config/index.js';
import { AuthenticationError, NotFoundError } from '../../../errors.js';
import { parseWebhookPayload } from './parse-webhook-payload.js';
import { resolveDedupeKey } from './resolve-dedupe-key.js';
import { checkUnsignedEventType, resolveEventName } from './resolve-event-name.js';
import type { SignedRequest } from './verification.types.js';
import { verifyWebhookSignature } from './verify-webhook-signature.js';
import type { TriggerIntake } from '../trigger-intake.service.js';

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

export interface WebhookIntake {
  has(name: string): boolean;
  /** The configured webhooks' names. */
  names(): string[];
  /**
   * Verifies, parses and stores one request. Throws NotFoundError for an unknown webhook,
   * AuthenticationError when verification fails (nothing stored) and ValidationError for a bad body.
   */
  /** `trace`: the request's span; the delivery keeps its traceparent, its runs link to it. */
  receive(name: string, request: SignedRequest, trace?: TraceSpan): Promise<IntakeResult>;
}

export interface WebhookIntakeOptions {
  /** The one trigger intake: stores, deduplicates, counts and wakes the worker. */
  intake: TriggerIntake;
  webhooks: WebhooksConfig;
  now?: () => Date;
  /** `server.max_json_depth`: a verified body nested deeper is 400 `json_too_deep` and not stored. */
  maxJsonDepth?: number;
}

/** Verifies, parses and names a signed request, then stores it through the one trigger intake. */
export function createWebhookIntake(options: WebhookIntakeOptions): WebhookIntake {
  const now = options.now ?? (() => new Date());
  const webhooks = new Map(options.webhooks.map((webhook) => [webhook.name, webhook]));

  return {
    has: (name) => webhooks.has(name),
    names: () => [...webhooks.keys()],

    async receive(name, request, trace) {
      const webhook = webhooks.get(name);
      if (!webhook) throw new NotFoundError(`No webhook named "${name}"`, 'webhook_not_found');
      const trigger = { kind: 'webhook' as const, name };
      const verification = verifyWebhookSignature(webhook, request, now());
      if (!verification.ok) {
        options.intake.reject(trigger, verification.reason, 'webhook signature verification failed');
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
      checkUnsignedEventType(webhook.verification, payload, request);
      const { item, duplicate } = await options.intake.receive({
        trigger,
        event: resolveEventName(webhook, payload, request),
        payload,
        payloadText: json,
        headers: keptHeaders(request),
        dedupeKey: resolveDedupeKey(webhook.verification, payload, request) ?? undefined,
        trace,
      });
      return { kind: 'accepted', delivery_id: item.item_id, event: item.event, duplicate };
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
