export { webhooksRoutes, type WebhooksRoutesOptions } from './webhooks.routes.js';
export {
  createWebhookIntake,
  type IntakeResult,
  type WebhookIntake,
  type WebhookIntakeOptions,
} from './webhook-intake.service.js';
