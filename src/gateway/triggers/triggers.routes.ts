import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { slicePage } from '../../page-query.js';
import type { TriggerOperations } from './trigger-operations.service.js';
import { deliveryIdParams, deliveryItem, listDeliveriesQuery, listTriggersQuery, triggerItem } from './triggers.schema.js';

export interface TriggersRoutesOptions {
  operations: TriggerOperations;
}

/**
 * The operators' view of every trigger, under /api/v1/admin/triggers. Registered here rather than in
 * admin/ because gateway adapters may not be imported there; every route keeps the default operator auth.
 */
export const triggersRoutes: FastifyPluginAsync<TriggersRoutesOptions> = async (app, { operations }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin', 'triggers'];
  const prefix = '/api/v1/admin/triggers';

  routes.get(prefix, {
    schema: { tags, summary: 'List webhooks, pollers and listeners with their state and counts', querystring: listTriggersQuery, response: { 200: z.array(triggerItem) } },
  }, async (request) => slicePage(await operations.listTriggers(), request.query));

  routes.get(`${prefix}/deliveries`, {
    schema: { tags, summary: 'List stored webhook deliveries and trigger events, newest first', querystring: listDeliveriesQuery, response: { 200: z.array(deliveryItem) } },
  }, (request) => operations.listDeliveries(request.query));

  routes.post(`${prefix}/deliveries/:id/retry`, {
    schema: { tags, summary: 'Queue a failed delivery or trigger event again with fresh attempts', description: '404 for an unknown id; 409 when it has not failed', params: deliveryIdParams, response: { 200: deliveryItem } },
  }, (request) => operations.retry(request.params.id));
};
