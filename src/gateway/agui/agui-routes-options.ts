import type { AgentRegistry, RunService } from '../../agents/index.js';

export interface AguiRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
  /** How often a quiet stream gets a `: ping` comment and a WebSocket a ping frame. Default 15 s. */
  heartbeatMs?: number;
}

export type AguiRouteSettings = Required<AguiRoutesOptions>;

export const DEFAULT_HEARTBEAT_MS = 15_000;
