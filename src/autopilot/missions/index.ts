export { missionsRoutes } from './missions.routes.js';
export type { MissionDetail, MissionSummary } from './mission-view.js';
