import type { AgentRegistry, RunService } from '../../agents/index.js';
import type { RunFrameCache } from './run-frame-cache.js';

export interface AguiRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
  /** How often a quiet stream gets a `: ping` comment and a WebSocket a ping frame. Default 15 s. */
  heartbeatMs?: number;
  /** Where every stream of a run gets its encoded events; a new cache per plugin by default. */
  frames?: RunFrameCache;
}

export type AguiRouteSettings = Required<AguiRoutesOptions>;

export const DEFAULT_HEARTBEAT_MS = 15_000;
