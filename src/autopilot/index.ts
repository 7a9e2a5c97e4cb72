export { createAutopilot, type Autopilot, type AutopilotLogger, type AutopilotOptions } from './create-autopilot.js';
export { autopilotRoutes, AUTOPILOT_PREFIX } from './autopilot.routes.js';
export { missionsRoutes } from './missions.routes.js';
export { createNodeAgents, type NodeAgents } from './node-agents.js';
export {
  AUTOPILOT_TIERS,
  DEFAULT_PROJECT_ID,
  MISSION_STATUSES,
  type AutopilotTier,
  type Clock,
  type MissionStatus,
} from './autopilot.types.js';
export type { AutopilotStatus } from './autopilot-status.service.js';
export type { RoutingResult } from './goal-router.js';
export type { HealingRecommendation } from './healing.js';
export type { MissionDetail, MissionSummary } from './mission-view.js';
export { signRequest, type SignatureInput } from './sign-request.js';
export type { CuratorOverview, DatasetOverview } from './learning-loop.js';
export type { FineTuneJob, ModelActivation } from './fine-tune.types.js';
