import { createId, isoNow } from '../ids.js';
import type { Usage } from '../llm/index.js';
import type { RunStore } from './run.store.js';
import type { PromptLog, StepRecord } from './run.types.js';

/** Prices one model call; until the pricing module exists every call costs 0. */
export type PricingFunction = (model: string, usage: Usage) => { costUsd: number };

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
}

/** Numbers a run's steps, adds up their tokens and cost, and writes each step once, when it ends. */
export interface RunRecorder {
  begin(kind: StepRecord['kind'], name: string): OpenStep;
  end(step: OpenStep, outcome: StepOutcome): Promise<void>;
  totals(): StepTotals;
}

export function createRunRecorder(options: { runId: string; model: string; store: RunStore; pricing?: PricingFunction }): RunRecorder {
  const totals: StepTotals = { inputTokens: 0, outputTokens: 0, costUsd: 0, steps: 0 };
  let nextIndex = 0;
  return {
    begin(kind, name) {
      const stepIndex = nextIndex;
      nextIndex += 1;
      return { stepId: createId('step'), stepIndex, kind, name, startedAt: isoNow(), startedMs: performance.now() };
    },
    async end(step, { status, usage, promptLog }) {
      const costUsd = usage && options.pricing ? options.pricing(options.model, usage).costUsd : 0;
      const inputTokens = usage?.inputTokens ?? 0;
      const outputTokens = usage?.outputTokens ?? 0;
      totals.inputTokens += inputTokens;
      totals.outputTokens += outputTokens;
      totals.costUsd += costUsd;
      totals.steps += 1;
      await options.store.insertStep({
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
        prompt_log: promptLog,
      });
    },
    totals: () => ({ ...totals }),
  };
}
