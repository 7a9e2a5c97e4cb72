import type {
  AgentRegistry,
  RunControlCommand,
  RunControlResult,
  RunService,
  SessionService,
} from '../agents/index.js';
import type { Config } from '../config/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { isoNow } from '../ids.js';
import { slicePage, type Page } from '../page-query.js';
import type { AgentDetail, AgentSummary } from './agents.schema.js';
import { mapAgentDetail, mapAgentSummary } from './map-agent.js';
import { mapRunDetail, mapRunItem } from './map-run.js';
import { createRunChangeFeed, type RunChangeType } from './run-change-feed.js';
import {
  MAX_SERIES_BUCKETS,
  type ListRunsQuery,
  type RunDetail,
  type RunItem,
  type RunSeries,
  type RunSeriesQuery,
} from './runs.schema.js';
import type { BudgetItem, SessionDetail, SessionItem, SystemStatus } from './system.schema.js';

export interface AdminServiceOptions {
  agents: AgentRegistry;
  runs: RunService;
  sessions: SessionService;
  config: Config['admin'];
  /** Why the service is degraded (store or bus unreachable); empty when healthy. */
  health: () => Promise<string[]>;
  now?: () => Date;
  /** How often the runs change feed reads the store while someone listens (default 1 s). */
  runChangeIntervalMs?: number;
  onError?: (error: unknown) => void;
}

/** What the admin API reads and does: agents, runs, sessions and health, composed from the agents feature. */
export interface AdminService {
  listAgents(page: Page): Promise<AgentSummary[]>;
  getAgent(name: string): Promise<AgentDetail>;
  listRuns(query: ListRunsQuery): Promise<RunItem[]>;
  /** Runs created and status changes of every replica, as they are seen; resolves once listening (returns the stop function). */
  watchRuns(listener: (change: { type: RunChangeType; run: RunItem }) => void): Promise<() => void>;
  getRun(runId: string): Promise<RunDetail>;
  /** Runs, failures and cost per hour or day over a window (default the last 24 hours), every bucket present. */
  runSeries(query: RunSeriesQuery): Promise<RunSeries>;
  control(runId: string, command: RunControlCommand): Promise<RunControlResult>;
  listSessions(page: Page): Promise<SessionItem[]>;
  getSession(sessionId: string): Promise<SessionDetail>;
  status(): Promise<SystemStatus>;
  budgets(): Promise<BudgetItem[]>;
}

const BUCKET_MS = { hour: 3_600_000, day: 86_400_000 } as const;
/** The default window: the last 24 hours, or the last 30 days. */
const DEFAULT_SERIES_BUCKETS = { hour: 24, day: 30 } as const;

export function createAdminService(options: AdminServiceOptions): AdminService {
  const { agents, runs, sessions } = options;
  const now = options.now ?? (() => new Date());
  const startedAt = now().getTime();
  const changes = createRunChangeFeed({
    listChanged: (filter) => runs.listChanged(filter),
    intervalMs: options.runChangeIntervalMs,
    onError: options.onError,
  });
  const sessionsSince = () => isoNow(new Date(now().getTime() - options.config.session_window_minutes * 60_000));

  return {
    async listAgents(page) {
      const counts = await runs.countByAgent();
      return slicePage(agents.list(), page).map((agent) => mapAgentSummary(agent, counts));
    },
    async getAgent(name) {
      const agent = agents.get(name);
      return mapAgentDetail(agent, await runs.countByAgent());
    },
    async listRuns(query) {
      const found = await runs.list({
        agentName: query.agent_name,
        status: query.status,
        source: query.source,
        endUser: query.end_user,
        since: query.since,
        until: query.until,
        limit: query.limit,
        offset: query.offset,
      });
      return found.map(mapRunItem);
    },
    watchRuns: (listener) => changes.subscribe(({ type, run }) => listener({ type, run: mapRunItem(run) })),
    async runSeries(query) {
      const size = BUCKET_MS[query.bucket];
      const until = query.until ? Date.parse(query.until) : now().getTime();
      const from = query.since ? Date.parse(query.since) : until - DEFAULT_SERIES_BUCKETS[query.bucket] * size;
      const since = Math.floor(from / size) * size;
      const count = Math.max(0, Math.ceil((until - since) / size));
      if (count > MAX_SERIES_BUCKETS)
        throw new ValidationError(
          `The window holds ${count} ${query.bucket}s; at most ${MAX_SERIES_BUCKETS} (use bucket=day or a shorter window)`,
        );
      const found = await runs.series({
        since: isoNow(new Date(since)),
        until: isoNow(new Date(until)),
        bucket: query.bucket,
      });
      const byStart = new Map(found.map((point) => [point.start, point]));
      const points = Array.from({ length: count }, (_, index) => {
        const start = isoNow(new Date(since + index * size));
        return byStart.get(start) ?? { start, runs: 0, failed: 0, cost_usd: 0 };
      });
      return { bucket: query.bucket, since: isoNow(new Date(since)), until: isoNow(new Date(until)), points };
    },
    async getRun(runId) {
      const found = await runs.find(runId);
      if (!found) throw new NotFoundError(`No run with id "${runId}"`, 'run_not_found');
      return mapRunDetail(found.run, found.steps);
    },
    control: (runId, command) => runs.control(runId, command),
    budgets: () => runs.budgets(),
    listSessions: (page) => sessions.listActive(sessionsSince(), page),
    async getSession(sessionId) {
      const session = await sessions.find(sessionId);
      if (!session) throw new NotFoundError(`No session "${sessionId}"`, 'session_not_found');
      return { ...session, messages: await sessions.messages(sessionId) };
    },
    async status() {
      const reasons = await options.health();
      // A store that is down must not take the status page with it: counts fall back to what this process knows.
      const [activeRuns, activeSessions] = await Promise.all([
        runs.countActive().catch(() => runs.active().length),
        sessions.countActive(sessionsSince()).catch(() => 0),
      ]);
      return {
        status: reasons.length > 0 ? 'degraded' : 'healthy',
        reasons,
        agents: agents.list().length,
        active_runs: activeRuns,
        active_sessions: activeSessions,
        uptime_seconds: Math.floor((now().getTime() - startedAt) / 1000),
      };
    },
  };
}
