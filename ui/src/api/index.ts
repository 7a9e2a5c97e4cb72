export { api, ApiError, query } from './client';
export {
  agentQueries,
  analyticsQueries,
  autopilotQueries,
  budgetQuery,
  missionPath,
  runQueries,
  sessionQuery,
  statusQuery,
  tokenQueries,
  triggerQueries,
  type AnalyticsTotals,
  type AnalyticsWindow,
  type RunFilters,
} from './queries';
export { readSse, type SseEvent } from './sse';
export type * from './types';
