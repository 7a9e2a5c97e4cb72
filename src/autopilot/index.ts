export { createAutopilot, type Autopilot, type AutopilotOptions } from './create-autopilot.js';
export { autopilotRoutes, AUTOPILOT_PREFIX } from './autopilot.routes.js';
export { missionsRoutes } from './missions/index.js';
export { createNodeAgents, type NodeAgents } from './execution/index.js';
export {
  AUTOPILOT_TIERS,
  DEFAULT_PROJECT_ID,
  MISSION_STATUSES,
  type AutopilotTier,
  type Clock,
  type MissionStatus,
} from './autopilot.types.js';
export type { AutopilotStatus } from './autopilot-status.service.js';
export type { RoutingResult } from './routing/index.js';
export type { HealingRecommendation } from './healing/index.js';
export type { MissionDetail, MissionSummary } from './missions/index.js';
export { signRequest, type SignatureInput } from './blueprints/index.js';
export type { CuratorOverview, DatasetOverview } from './learning/index.js';
export type { FineTuneJob, ModelActivation } from './learning/index.js';
