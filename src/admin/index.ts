export { adminRoutes, type AdminRoutesOptions } from './admin.routes.js';
export { createAdminService, type AdminService, type AdminServiceOptions } from './admin.service.js';
export type { AgentDetail, AgentSummary } from './agents.schema.js';
export type { RunDetail, RunItem } from './runs.schema.js';
export type { SessionItem, SystemStatus } from './system.schema.js';
