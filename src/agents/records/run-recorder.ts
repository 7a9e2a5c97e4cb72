import { createId, isoNow } from '../../ids.js';
import type { Pricing, Usage } from '../../llm/index.js';
import type { PromptLog, StepRecord } from './run.types.js';
import { createPromptLogCompactor, type SessionHistory } from './prompt-log-refs.js';

/** Prices model calls for the runtime (app.ts: llm's pricing); never throws, an unknown model costs 0. */
export type RunPricing = Pick<Pricing, 'price'>;

/**
 * A cost rounded to 1e-9 USD, as analytics stores it: each call's cost and each run total pass through it, so
 * a run's cost equals the sum of its usage records exactly.
 */
export function roundUsd(usd: number): number {
  return Number.isFinite(usd) ? Math.round(usd * 1e9) / 1e9 : 0;
}

/** What a finished step cost. */
export interface StepCharge {
  costUsd: number;
  priced: boolean;
}

export interface StepTotals {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  steps: number;
}

export interface OpenStep {
  stepId: string;
  stepIndex: number;
  kind: StepRecord['kind'];
  name: string;
  startedAt: string;
  startedMs: number;
}

export interface StepOutcome {
  status: StepRecord['status'];
  usage?: Usage;
  promptLog: PromptLog;
  /** The `<provider>/<model id>` that answered (a fallback), when not the run's model: it is priced by it. */
  model?: string;
}

/**
 * Numbers a run's steps, adds up their tokens and cost, and writes each step once, when it ends. The
 * write is queued at once (it commits with the next group commit), but the run goes on without waiting
 * for it: the run's end awaits `settled()` before its record, and the client's answer, go out.
 */
export interface RunRecorder {
  begin(kind: StepRecord['kind'], name: string): OpenStep;
  end(step: OpenStep, outcome: StepOutcome): StepCharge;
  totals(): StepTotals;
  /** The results of the tool steps that succeeded (a run taken over: its stored ones first), in the order they ended. */
  toolResults(): readonly string[];
  /** Resolves once every step ended so far is committed; rejects with the first failed write. */
  settled(): Promise<void>;
  /**
   * Before each model and tool call of a durable run (runs.resume): waits until the steps ended so far are
   * stored, so a replica taking the run over continues after them instead of repeating them. A failed write is
   * reported at the run's end (settled()).
   */
  checkpoint(): Promise<void>;
}

export interface RunRecorderOptions {
  runId: string;
  model: string;
  /** Queues the step's write (records/run-writes.ts: after the run's insert). */
  insertStep(step: StepRecord): Promise<void>;
  pricing?: RunPricing;
  /** The steps a run taken over already has: numbering and totals go on from them. */
  stored?: readonly StepRecord[];
  /** runs.resume: checkpoint() waits for the steps' writes. */
  durable?: boolean;
  /** The session history the run's conversation starts with: its prompt logs refer to it instead of copying it. */
  history?: SessionHistory;
}

export function createRunRecorder(options: RunRecorderOptions): RunRecorder {
  const { pricing } = options;
  const stored = options.stored ?? [];
  const totals: StepTotals = {
    inputTokens: sum(stored, (step) => step.input_tokens),
    outputTokens: sum(stored, (step) => step.output_tokens),
    costUsd: pricing ? roundUsd(sum(stored, (step) => step.cost_usd)) : 0,
    steps: stored.length,
  };
  const toolResults = stored.flatMap((step) => resultOf(step.kind, step.prompt_log));
  let nextIndex = stored.reduce((next, step) => Math.max(next, step.step_index + 1), 0);
  const compact = createPromptLogCompactor(options.history, stored);
  const writes: Promise<void>[] = [];
  return {
    begin(kind, name) {
      const stepIndex = nextIndex;
      nextIndex += 1;
      return { stepId: createId('step'), stepIndex, kind, name, startedAt: isoNow(), startedMs: performance.now() };
    },
    end(step, { status, usage, promptLog, model = options.model }) {
      const price = usage && pricing ? pricing.price(model, usage) : { costUsd: 0, priced: false };
      const costUsd = pricing ? roundUsd(price.costUsd) : 0;
      const inputTokens = usage?.inputTokens ?? 0;
      const outputTokens = usage?.outputTokens ?? 0;
      totals.inputTokens += inputTokens;
      totals.outputTokens += outputTokens;
      totals.costUsd = pricing ? roundUsd(totals.costUsd + costUsd) : 0;
      totals.steps += 1;
      const row = {
        step_id: step.stepId,
        run_id: options.runId,
        step_index: step.stepIndex,
        kind: step.kind,
        name: step.name,
        status,
        started_at: step.startedAt,
        finished_at: isoNow(),
        latency_ms: Math.round(performance.now() - step.startedMs),
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        cost_usd: costUsd,
        // What is new only: the messages an earlier step or the session holds are referred to (prompt-log-refs.ts).
        prompt_log: compact(step.stepIndex, promptLog),
      };
      if (status === 'completed') toolResults.push(...resultOf(step.kind, promptLog));
      const write = options.insertStep(row);
      // Observed here so a failure is never unhandled; settled() reports it.
      write.catch(() => undefined);
      writes.push(write);
      return { costUsd, priced: price.priced };
    },
    totals: () => ({ ...totals }),
    toolResults: () => toolResults,
    async settled() {
      await Promise.all(writes);
    },
    async checkpoint() {
      if (options.durable) await Promise.all(writes).catch(() => undefined);
    },
  };
}

function sum(steps: readonly StepRecord[], value: (step: StepRecord) => number): number {
  return steps.reduce((total, step) => total + value(step), 0);
}

function resultOf(kind: StepRecord['kind'], log: PromptLog): string[] {
  return kind === 'tool' && 'result' in log && log.result !== undefined ? [log.result] : [];
}
