import type { AgentRegistry, RunService } from '../../agents/index.js';
import type { AdmitRun } from '../../http/index.js';
import type { RunFrameCache } from './run-frame-cache.js';

export interface AguiRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
  /** The agent a WebSocket talks to without ?agent_name= (gateway.agui_default_agent, else the first agent); none: the parameter is required. */
  defaultAgent?: string;
  /** How often a quiet stream gets a `: ping` comment and a WebSocket a ping frame. Default 15 s. */
  heartbeatMs?: number;
  /** A stream or socket whose client stopped reading for this long is closed (its run cancelled, `client_stalled`). Unset: never. */
  stalledTimeoutMs?: number;
  /** Where every stream of a run gets its encoded events; a new cache per plugin by default. */
  frames?: RunFrameCache;
  /** Admits each run a WebSocket starts (credential, token use, rate limits); unset: runs are not checked (no auth hooks). */
  admitRun?: AdmitRun;
  /** A WebSocket with no run under way and no client frame for this long is closed (server.ws_idle_timeout_seconds). Unset: never. */
  idleTimeoutMs?: number;
  /** Open WebSockets per principal; one more is refused (server.ws_max_connections_per_principal). Unset: no cap. */
  maxConnectionsPerPrincipal?: number;
}

type OptionalSettings =
  'defaultAgent' | 'stalledTimeoutMs' | 'admitRun' | 'idleTimeoutMs' | 'maxConnectionsPerPrincipal';

export type AguiRouteSettings = Required<Omit<AguiRoutesOptions, OptionalSettings>> &
  Pick<AguiRoutesOptions, OptionalSettings>;

export const DEFAULT_HEARTBEAT_MS = 15_000;
