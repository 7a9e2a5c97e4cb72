export { a2aRoutes, type A2aRoutesOptions } from './a2a.routes.js';
export { createA2aTaskStore, type A2aTaskStore } from './a2a-task.store.js';
export type { CardTool } from './cards/agent-card.js';
