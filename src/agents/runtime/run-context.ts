import type { RunEventBody } from '../../bus/index.js';
import type { Guardrails } from '../../guardrails/index.js';
import type { ModelClient, ToolDefinition } from '../../llm/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { RegisteredAgent } from '../registry/agent-registry.js';
import type { RunBudget } from '../budgets/run-budget.js';
import type { RunControl } from '../control/run-control.js';
import type { RunRecorder } from '../records/run-recorder.js';
import type { RunReporter } from '../records/run-reporter.js';
import type { RunFlow } from './run-flow.js';

/** Where a run's time went, for the gateway-overhead figures (request time minus upstream time). */
export interface RunTiming {
  /** Milliseconds spent waiting on model calls and tool calls (parallel tool calls count once). */
  upstreamMs: number;
  /** upstreamMs at the moment the run's first text was released: what a stream's first byte waited for. */
  upstreamMsAtFirstText?: number;
}

/** Everything one run's loop needs; built once per run by the run service. */
export interface RunContext {
  agent: RegisteredAgent;
  models: ModelClient;
  tools: ToolRegistry;
  /** The agent's tools, then the client's, as the model sees them. */
  toolDefinitions: ToolDefinition[];
  /** Tools the client runs itself (frontend tools): a call to one ends the run instead of running here. */
  clientToolNames: ReadonlySet<string>;
  temperature: number;
  maxTokens?: number;
  control: RunControl;
  recorder: RunRecorder;
  /** Usage records and guardrail hits, committed in the background and awaited with the run's end. */
  reporter: RunReporter;
  /** The agent's compiled guardrails; undefined when all are off. */
  guardrails?: Guardrails;
  /** Set once the run is admitted, when a budget applies to it. */
  budget?: RunBudget;
  /** What an answer is graded against: tool results (the run's and the client's) and client context. */
  sources: string[];
  timing: RunTiming;
  emit(body: RunEventBody): void;
  /** Set when clients may stream the run: the model step waits on it before reading more of the upstream. */
  flow?: RunFlow;
}

/** The code and message of any failure, for prompt logs and events. */
export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'error', message: error.message };
  }
  return { code: 'error', message: String(error) };
}
