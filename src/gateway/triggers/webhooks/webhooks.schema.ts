import { z } from 'zod';

export const webhookParams = z.object({ name: z.string().describe('The configured webhook name') });

export const acceptedDelivery = z.object({
  delivery_id: z.string().describe('The stored delivery (`del_…`); for a duplicate, the original one'),
  event: z.string().describe('`<webhook>.<event type>`'),
  duplicate: z.boolean().describe('True when this delivery was received before and will not run again'),
});

export const slackChallenge = z.object({ challenge: z.string() });
