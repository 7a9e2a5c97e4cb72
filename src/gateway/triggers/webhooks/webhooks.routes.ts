import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WebhookSettings } from '../../../config/index.js';
import { NotFoundError } from '../../../errors.js';
import type { WebhookIntake } from './webhook-intake.service.js';
import { acceptedDelivery, slackChallenge, webhookParams } from './webhooks.schema.js';

export interface WebhooksRoutesOptions {
  intake: WebhookIntake;
  settings: WebhookSettings;
}

/**
 * `POST {path_prefix}/{name}`: signed inbound webhooks. Public, because the signature is the credential.
 * Registered without fastify-plugin on purpose: the raw-body parser below stays inside this scope.
 */
export const webhooksRoutes: FastifyPluginAsync<WebhooksRoutesOptions> = async (app, { intake, settings }) => {
  // Signatures cover the exact bytes sent, so every body is kept as a Buffer and parsed only after verification.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(`${settings.path_prefix}/:name`, {
    config: { auth: 'public' },
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
      const { name } = request.params as { name: string };
      if (!intake.has(name)) throw new NotFoundError(`No webhook named "${name}"`, 'webhook_not_found');
    },
  }, async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const result = await intake.receive(request.params.name, { headers: request.headers, body });
    if (result.kind === 'challenge') return reply.code(200).send({ challenge: result.challenge });
    const { kind: _kind, ...accepted } = result;
    return reply.code(202).send(accepted);
  });
};
