import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { slicePage } from '../../page-query.js';
import type { TriggerOperations } from './trigger-operations.service.js';
import {
  deliveryIdParams,
  deliveryItem,
  listDeliveriesQuery,
  listTriggersQuery,
  triggerItem,
} from './triggers.schema.js';

export interface TriggersRoutesOptions {
  operations: TriggerOperations;
}

/**
 * The operators' view of every trigger and of the inbox they share, under /api/v1/admin/triggers.
 * Registered here rather than in admin/ because gateway adapters may not be imported there; every route
 * keeps the default operator auth.
 */
export const triggersRoutes: FastifyPluginAsync<TriggersRoutesOptions> = async (app, { operations }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin', 'triggers'];
  const prefix = '/api/v1/admin/triggers';

  routes.get(
    prefix,
    {
      schema: {
        tags,
        summary:
          'List webhooks, pollers and listeners with their state, counts and inbox (pending, running, done, dead, oldest pending age)',
        querystring: listTriggersQuery,
        response: { 200: z.array(triggerItem) },
      },
    },
    async (request) => slicePage(await operations.listTriggers(), request.query),
  );

  routes.get(
    `${prefix}/deliveries`,
    {
      schema: {
        tags,
        summary: 'List stored webhook deliveries and trigger events, newest first',
        querystring: listDeliveriesQuery,
        response: { 200: z.array(deliveryItem) },
      },
    },
    (request) => operations.listDeliveries(request.query),
  );

  const replay = {
    tags,
    summary: 'Replay a dead delivery or trigger event: it is queued again with fresh attempts',
    description: '404 for an unknown id; 409 when it is not dead',
    params: deliveryIdParams,
    response: { 200: deliveryItem },
  };
  routes.post(`${prefix}/deliveries/:id/replay`, { schema: replay }, (request) => operations.replay(request.params.id));
  // The name before dead letters were called dead; kept so existing scripts go on working.
  routes.post(
    `${prefix}/deliveries/:id/retry`,
    { schema: { ...replay, deprecated: true, summary: 'Same as /replay (deprecated name)' } },
    (request) => operations.replay(request.params.id),
  );
};
