import type { RunControlCommand, RunEvent, RunEventBus } from '../bus/index.js';
import type { GuardrailsConfig } from '../config/index.js';
import { isConnectionLoss } from '../db/index.js';
import { BudgetExceededError, createError, DatabaseUnavailableError } from '../errors.js';
import type { Metrics } from '../http/index.js';
import { isoNow } from '../ids.js';
import type { ModelClient } from '../llm/index.js';
import type { ToolRegistry } from '../tools/index.js';
import { createAgentGuardrails } from './registry/agent-guardrails.js';
import type { AgentRegistry } from './registry/agent-registry.js';
import { createBudgetLedger } from './budgets/index.js';
import { attachRun, type AttachOptions } from './control/run-attach.js';
import { createRunCommands, type RunControlResult } from './control/run-commands.js';
import { cancelledError } from './control/run-control.js';

import type { LiveRun, RunHandle, StartRunRequest } from './control/run-handle.js';
import { publishInterrupted, RUN_LEASE_INTERVAL_MS, RUN_LEASE_STALE_MS, startRunLease } from './control/run-lease.js';
import { createRunBudgets, type BudgetState, type TokenBudget } from './budgets/index.js';
import type { RunPricing } from './records/run-recorder.js';
import type { RunResult } from './runtime/run-result.js';
import type { RunStore } from './records/run.store.js';
import type { AgentRunCounts, ChangedRunsFilter, ListRunsFilter, RunRecord, StepRecord } from './records/run.types.js';
import type { SessionService } from './sessions/session.service.js';
import { takeOverRun } from './runtime/take-over-run.js';
import { isHandedOver, type RuntimeDeps } from './runtime/run.js';
import { startRun } from './runtime/start-run.js';
import type { UsageSink } from './records/usage-sink.js';
import type { RunSeriesBucket, RunSeriesFilter } from './records/run-counts.store.js';
import type { Logger } from '../logger.js';

export interface RunService {
  /** Starts a run; throws before starting for an unknown agent (404) or a session of another agent (409). */
  start(request: StartRunRequest): Promise<RunHandle>;
  /** A run executing in this process. */
  live(runId: string): RunHandle | undefined;
  active(): RunHandle[];
  /** A stored run with its steps and prompt logs. */
  find(runId: string): Promise<{ run: RunRecord; steps: StepRecord[] } | undefined>;
  /** Stored runs, newest first. */
  list(filter: ListRunsFilter): Promise<RunRecord[]>;
  /** Active runs, runs started since, and the named ones, across every process sharing the store (the change feed). */
  listChanged(filter: ChangedRunsFilter): Promise<RunRecord[]>;
  /** Runs per agent (total and not yet ended), across every process sharing the store. */
  countByAgent(): Promise<Map<string, AgentRunCounts>>;
  /** Runs running or paused, across every process sharing the store. */
  countActive(): Promise<number>;
  /** Runs, failures and cost per UTC hour or day of start, across every process sharing the store. */
  series(filter: RunSeriesFilter): Promise<RunSeriesBucket[]>;
  /**
   * Past events then live ones, ending after the terminal event; finished runs replay their persisted
   * log. Undefined for an unknown run. Works across processes when Redis is configured.
   */
  attach(runId: string, options?: AttachOptions): Promise<AsyncIterable<RunEvent> | undefined>;
  /** 404 NotFoundError for an unknown run, 409 ConflictError (with the current status) when its state does not allow the command. */
  control(runId: string, command: RunControlCommand): Promise<RunControlResult>;
  /** Every agent's budget for today and every spent-from token cap, across all replicas. */
  budgets(): Promise<BudgetState[]>;
  /** An access token's own cap and its agent's daily budget (what the token's holder may still spend). */
  tokenBudget(tokenId: string, maxCostUsd: number | null, agentName: string): Promise<TokenBudget>;
  /**
   * Runs that a dead process left running or paused: with `resume`, taken over and continued here; the
   * rest (or all, without it) marked `interrupted`. Returns how many were interrupted. Called at start-up.
   */
  recoverInterrupted(): Promise<number>;
  /**
   * The process leaves: waits up to `timeoutMs` for running runs to end, then hands on those still going (paused
   * ones at once) for another process, or this one's next start, to take over from their last stored step; with
   * `runs.resume: false` they are cancelled instead (code `shutdown`). Then every stream this process serves ends
   * with `run_handed_over`, so its client attaches again elsewhere.
   */
  drain(timeoutMs: number): Promise<void>;
}

export interface RunServiceOptions {
  agents: AgentRegistry;
  models: ModelClient;
  tools: ToolRegistry;
  runStore: RunStore;
  sessions: SessionService;
  /** Carries every event of every run, and control commands between processes. */
  bus: RunEventBus;
  /** True when other processes share the store and bus (Redis configured): enables the persisted control channel and heartbeats. */
  multiProcess?: boolean;
  /** Heartbeat interval and the age after which another process's run counts as orphaned (multi-process mode). */
  lease?: { intervalMs: number; staleMs: number };
  /** runs.resume: orphaned runs are taken over and continued from their last stored step. Default false. */
  resume?: boolean;
  /** Prices each model call (costs rounded to 1e-9 USD); without it every run costs 0 and budgets never fill. */
  pricing?: RunPricing;
  /** Receives a usage record per model call and a risk event per guardrail hit (app.ts: the analytics recorder). */
  usage?: UsageSink;
  /** The global `guardrails` section; each agent's `guardrails` field is merged over it. */
  guardrails?: GuardrailsConfig;
  /** An access token's max_cost_usd by id, for runs whose request did not carry it. */
  tokenLimit?: (tokenId: string) => Promise<number | null>;
  /** Bytes of text a run may say unless its agent sets max_output_bytes (config runs.max_output_bytes); unset: no cap. */
  maxOutputBytes?: number;
  /** Counts each run once it ended and its records were written. */
  metrics?: Pick<Metrics, 'observeRunEnd'>;
  /** Set while the database is out of reach (db/reachability.ts): a new run is refused (503) before it starts. */
  databaseOutage?: () => DatabaseUnavailableError | undefined;
  log?: Logger;
}

export function createRunService(options: RunServiceOptions): RunService {
  const { runStore: store, bus, multiProcess = false, resume = false } = options;
  const lease = options.lease ?? { intervalMs: RUN_LEASE_INTERVAL_MS, staleMs: RUN_LEASE_STALE_MS };
  const createdAt = Date.now();
  const live = new Map<string, LiveRun>();
  const commands = createRunCommands({ live, store, bus, multiProcess, log: options.log });
  const attach = (runId: string, attachOptions?: AttachOptions) =>
    attachRun({ live, store, bus }, runId, attachOptions);
  const stopListening = bus.onControl((runId, command) => commands.receive(runId, command));
  const stopLease = multiProcess
    ? startRunLease({
        live,
        store,
        commands,
        sweep: async (now, staleBefore) => void (await sweep(now, staleBefore)),
        ...lease,
        log: options.log,
      })
    : undefined;
  // Reading the store at every checkpoint costs a query per model/tool call; only worth it when a command can come from elsewhere.
  const beforeCheckpoint = multiProcess
    ? async (runId: string) => {
        // A run not yet in `live` is not yet known outside: no command can be waiting for it.
        const run = live.get(runId);
        if (!run) return;
        // The store is the backstop of the bus's commands: with the database out of reach the run goes on, and
        // the lease tick reconciles it once the database is back.
        const states = await store.controlStates([runId]).catch((error: unknown) => {
          if (isConnectionLoss(error)) return undefined;
          throw error;
        });
        if (states) commands.reconcile(run, states.get(runId));
      }
    : undefined;
  const guardrails = options.guardrails && createAgentGuardrails(options.guardrails);
  const ledger = createBudgetLedger(store);
  const budgets = createRunBudgets({ ledger, spend: store, pricing: options.pricing, tokenLimit: options.tokenLimit });
  const runtime: RuntimeDeps = {
    agents: options.agents,
    models: options.models,
    tools: options.tools,
    runStore: store,
    sessions: options.sessions,
    bus,
    pricing: options.pricing,
    usage: options.usage,
    guardrails,
    budgets,
    log: options.log,
    durable: resume,
    events: attach,
    beforeCheckpoint,
    maxOutputBytes: options.maxOutputBytes,
  };

  const track = (run: LiveRun) => {
    live.set(run.runId, run);
    void run.handle.result.then((result) => {
      live.delete(run.runId);
      // A run handed on has not ended: its next owner counts its end.
      if (!isHandedOver(result)) options.metrics?.observeRunEnd(run.handle.agentName, result.status, endError(result));
    });
  };

  /** Takes over what can be resumed, then ends the rest as interrupted; both publish on the run's stream. */
  async function sweep(now: string, staleBefore: string): Promise<number> {
    const claimed = resume ? await store.claimOrphans({ now, staleBefore }) : [];
    // What the dead owner held for each of them is freed before any is admitted again: a resumed run must not be
    // refused for the reservations of the others it died with.
    await Promise.all(claimed.map((orphan) => store.releaseBudget(orphan.run.run_id)));
    const failed: string[] = [];
    for (const orphan of claimed) {
      try {
        track(await takeOverRun(runtime, orphan));
        options.log?.warn(
          { run_id: orphan.run.run_id, attempt: orphan.run.attempts, from_step: orphan.run.resumed_from_step },
          'resuming a run whose process stopped',
        );
      } catch (error) {
        options.log?.error({ err: error, run_id: orphan.run.run_id }, 'could not resume a run; marking it interrupted');
        failed.push(orphan.run.run_id);
      }
    }
    const interrupted = [
      ...(await store.interruptOrphans({ now, staleBefore })),
      ...(failed.length > 0 ? await store.interruptOrphans({ now, runIds: failed }) : []),
    ];
    await publishInterrupted(bus, interrupted);
    return interrupted.length;
  }

  return {
    async start(request) {
      // With the database known to be out of reach, a run could not be recorded: refused (503) before its model call.
      if (options.databaseOutage?.()) throw new DatabaseUnavailableError();
      const run = await startRun(runtime, request);
      track(run);
      return run.handle;
    },
    live: (runId) => live.get(runId)?.handle,
    active: () => [...live.values()].map((run) => run.handle),
    async find(runId) {
      const run = await store.getRun(runId);
      return run && { run, steps: await store.listSteps(runId) };
    },
    list: (filter) => store.listRuns(filter),
    listChanged: (filter) => store.listChangedRuns(filter),
    countByAgent: () => store.countByAgent(),
    countActive: () => store.countActive(),
    series: (filter) => store.runSeries(filter),
    attach,
    control: (runId, command) => commands.control(runId, command),
    budgets: () => budgets.list(options.agents.list()),
    tokenBudget: (tokenId, maxCostUsd, agentName) =>
      budgets.ofToken(tokenId, maxCostUsd, options.agents.find(agentName)),
    async recoverInterrupted() {
      const now = Date.now();
      // Alone, every run left unfinished before this service existed is an orphan (and no run it started, nor
      // one another sweep just claimed); with other processes, only those whose executor stopped beating.
      const staleBefore = isoNow(new Date(multiProcess ? now - lease.staleMs : createdAt));
      const interrupted = await sweep(isoNow(new Date(now)), staleBefore);
      await ledger.releaseEnded();
      return interrupted;
    },
    async drain(timeoutMs) {
      const handedOver = await drainRuns([...live.values()], timeoutMs, resume);
      stopLease?.();
      stopListening();
      // Not waiting out their lease: the next sweep of any process takes them.
      await store.release(handedOver).catch((error: unknown) => {
        options.log?.warn(
          { err: error, runs: handedOver.length },
          'could not release handed-on runs: they are taken over once their lease lapses',
        );
      });
      bus.leave(createError('run_handed_over'));
    },
  };
}

function endError(result: RunResult): Parameters<Metrics['observeRunEnd']>[2] {
  if (result.status === 'completed') return undefined;
  const { error } = result;
  return { code: error.code, refusal: error instanceof BudgetExceededError ? error.refusal : undefined };
}

/** Lets runs end within `timeoutMs`, then hands on (or, without `handOver`, cancels) the rest; returns the ids handed on. */
async function drainRuns(running: LiveRun[], timeoutMs: number, handOver: boolean): Promise<string[]> {
  const leave = (run: LiveRun) =>
    handOver
      ? run.handOver()
      : run.controller.cancel(cancelledError('The server shut down before the run finished', 'shutdown'));
  // A paused run would only wait out the deadline.
  for (const run of running) if (run.controller.status === 'paused') leave(run);
  if (running.length === 0) return [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([Promise.all(running.map((run) => run.handle.result)), timeout]);
  clearTimeout(timer);
  for (const run of running) leave(run);
  const results = await Promise.all(running.map((run) => run.handle.result));
  return results.filter(isHandedOver).map((result) => result.runId);
}
