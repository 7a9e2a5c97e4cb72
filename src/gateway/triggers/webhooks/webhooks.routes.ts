import { requestSpan } from '../../../telemetry/index.js';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WebhookSettings, WebhooksConfig } from '../../../config/index.js';
import { NotFoundError, RateLimitError } from '../../../errors.js';
import { openRateLimitRedis } from './open-rate-limit-redis.js';
import { resolveWebhookRateLimits } from './resolve-webhook-rate-limits.js';
import type { WebhookIntake } from './webhook-intake.service.js';
import { acceptedDelivery, slackChallenge, webhookParams } from './webhooks.schema.js';

export interface WebhooksRoutesOptions {
  intake: WebhookIntake;
  settings: WebhookSettings;
  /** The configured webhooks, for their own `rate_limit`; without them every webhook gets `settings.rate_limit`. */
  webhooks?: WebhooksConfig;
  /** `server.redis_url`: rate-limit counters shared by every replica; in this process's memory when unset. */
  redisUrl?: string;
  /** Called once per delivery refused by its webhook's rate limit (for metrics). */
  onRateLimited?: (webhook: string) => void;
}

/** Where the counters live in a shared Redis: `<prefix>POST<route>-<webhook name>`. */
const REDIS_KEY_PREFIX = 'agent-gateway:webhook-rate-limit:';

/**
 * `POST {path_prefix}/{name}`: signed inbound webhooks. Public, because the signature is the credential.
 * Registered without fastify-plugin on purpose: the raw-body parser below stays inside this scope.
 */
export const webhooksRoutes: FastifyPluginAsync<WebhooksRoutesOptions> = async (
  app,
  { intake, settings, webhooks, redisUrl, onRateLimited },
) => {
  // Signatures cover the exact bytes sent, so every body is kept as a Buffer and parsed only after verification.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // One counter per webhook: a webhook is one source (Stripe, GitHub), whose deliveries come from many addresses.
  const limits = resolveWebhookRateLimits(webhooks ?? intake.names().map((name) => ({ name })), settings);
  const store = redisUrl && limits.size > 0 ? openRateLimitRedis(redisUrl, app.log) : undefined;
  if (store) app.addHook('onClose', () => store.close());
  const nameOf = (request: FastifyRequest) => (request.params as { name: string }).name;
  await app.register(rateLimit, {
    global: false,
    redis: store?.redis,
    nameSpace: REDIS_KEY_PREFIX,
    // Counters out of reach must not cost deliveries: the request goes through uncounted (the connection logs the outage).
    skipOnError: true,
    keyGenerator: nameOf,
    allowList: (_request, name) => !limits.has(name),
    max: (_request, name) => limits.get(name)?.max ?? 0,
    timeWindow: (_request, name) => limits.get(name)?.timeWindowMs ?? 1000,
    onExceeded: (request) => onRateLimited?.(nameOf(request)),
    errorResponseBuilder: (request, context) => {
      const limit = limits.get(nameOf(request));
      const window = limit ? ` (at most ${limit.max} per ${limit.timeWindowMs / 1000} s)` : '';
      return new RateLimitError(
        `Too many requests to webhook "${nameOf(request)}"${window}; retry in ${Math.ceil(context.ttl / 1000)} s`,
        Math.ceil(context.ttl / 1000),
      );
    },
  });

  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    `${settings.path_prefix}/:name`,
    {
      // The limiter runs after the unknown-name check below, so only configured webhooks are counted.
      config: { auth: 'public', rateLimit: {} },
      ...(settings.body_limit_bytes ? { bodyLimit: settings.body_limit_bytes } : {}),
      schema: {
        tags: ['webhooks'],
        summary: 'Receive a signed webhook delivery; it is stored before the 202 and handled by the inbox worker',
        security: [],
        params: webhookParams,
        response: { 200: slackChallenge, 202: acceptedDelivery },
      },
      // An unknown name is answered before the body is read.
      onRequest: async (request) => {
        const { name } = request.params;
        if (!intake.has(name)) throw new NotFoundError(`No webhook named "${name}"`, 'webhook_not_found');
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const result = await intake.receive(
        request.params.name,
        { headers: request.headers, body },
        requestSpan(request),
      );
      if (result.kind === 'challenge') return reply.code(200).send({ challenge: result.challenge });
      const { kind: _kind, ...accepted } = result;
      return reply.code(202).send(accepted);
    },
  );
};
