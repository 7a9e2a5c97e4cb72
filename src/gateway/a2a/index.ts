export { a2aRoutes, type A2aRoutesOptions } from './a2a.routes.js';
export { createA2aTaskStore, type A2aTaskStore } from './a2a-task.store.js';
export type { CardTool } from './cards/agent-card.js';
export { createA2aPushStore, type A2aPushStore } from './push/a2a-push.store.js';
export type { PushEndpointGuard } from './push/push-endpoint-guard.js';
