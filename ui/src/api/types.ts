import type { paths } from './schema';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** The JSON body of a route's success answer (200, or 201 for a creation), as /openapi.json describes it. */
export type ResponseOf<P extends keyof paths, M extends Method> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : never
  : never;

/** The JSON body a route takes. */
export type BodyOf<P extends keyof paths, M extends Method> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The query string a GET route takes. */
export type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

export type Session = ResponseOf<'/api/v1/ui/session', 'get'>;

export type RunItem = ResponseOf<'/api/v1/admin/runs', 'get'>[number];
export type RunStatus = RunItem['status'];
export type RunDetail = ResponseOf<'/api/v1/admin/runs/{run_id}', 'get'>;
export type RunQuery = QueryOf<'/api/v1/admin/runs'>;
export type RunSeries = ResponseOf<'/api/v1/admin/runs/timeseries', 'get'>;

export type AgentSummary = ResponseOf<'/api/v1/admin/agents', 'get'>[number];
export type AgentDetail = ResponseOf<'/api/v1/admin/agents/{name}', 'get'>;

export type SystemStatus = ResponseOf<'/api/v1/admin/status', 'get'>;
export type Budget = ResponseOf<'/api/v1/admin/budgets', 'get'>[number];

export type CostReport = ResponseOf<'/analytics/costs', 'get'>;
export type UsageReport = ResponseOf<'/analytics/usage', 'get'>;
export type RiskReport = ResponseOf<'/analytics/risks', 'get'>;
export type ModelComparison = ResponseOf<'/analytics/models', 'get'>[number];

export type TokenView = ResponseOf<'/gateway/tokens', 'get'>[number];
/** A new token: its plaintext `token` comes once, in this answer. */
export type CreatedToken = ResponseOf<'/gateway/tokens', 'post'>;
export type TokenRequest = BodyOf<'/gateway/tokens', 'post'>;

export type TriggerView = ResponseOf<'/api/v1/admin/triggers', 'get'>[number];
export type Delivery = ResponseOf<'/api/v1/admin/triggers/deliveries', 'get'>[number];
export type DeliveryStatus = Delivery['status'];

export type AutopilotStatus = ResponseOf<'/api/v1/autopilot/status', 'get'>;
export type AutopilotTier = AutopilotStatus['tier'];
export type MissionSummary = ResponseOf<'/api/v1/autopilot/missions', 'get'>[number];
export type MissionDetail = ResponseOf<'/api/v1/autopilot/missions/{mission_id}', 'get'>;
export type RoutingResult = ResponseOf<'/api/v1/autopilot/goal', 'post'>;
