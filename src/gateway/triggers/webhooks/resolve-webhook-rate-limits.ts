import type { RateLimitConfig, WebhookSettings } from '../../../config/index.js';

export interface WebhookRateLimit {
  max: number;
  timeWindowMs: number;
}

/** Each configured webhook's request limit: its own `rate_limit`, else `webhook_settings.rate_limit`; absent when turned off. */
export function resolveWebhookRateLimits(
  webhooks: { name: string; rate_limit?: RateLimitConfig }[],
  settings: Pick<WebhookSettings, 'rate_limit'>,
): Map<string, WebhookRateLimit> {
  const limits = new Map<string, WebhookRateLimit>();
  for (const webhook of webhooks) {
    const limit = webhook.rate_limit ?? settings.rate_limit;
    if (limit) limits.set(webhook.name, { max: limit.max, timeWindowMs: limit.time_window_seconds * 1000 });
  }
  return limits;
}
