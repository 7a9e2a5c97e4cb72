import type { RunEventBody } from '../bus/index.js';
import type { ModelClient, ToolDefinition } from '../llm/index.js';
import type { ToolRegistry } from '../tools/index.js';
import type { RegisteredAgent } from './agent-registry.js';
import type { RunControl } from './run-control.js';
import type { RunRecorder } from './run-recorder.js';

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
  emit(body: RunEventBody): void;
}

/** The code and message of any failure, for prompt logs and events. */
export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'error', message: error.message };
  }
  return { code: 'error', message: String(error) };
}
