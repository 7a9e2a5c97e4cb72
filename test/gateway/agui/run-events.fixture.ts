import type { RunEvent, RunEventBody } from '../../../src/bus/index.js';

/** Numbers bodies into RunEvents of one run, as a run's log does. */
export function runEvents(runId: string, bodies: RunEventBody[]): RunEvent[] {
  return bodies.map((body, index) => ({ ...body, runId, seq: index + 1, at: '2026-01-01T00:00:00.000Z' }));
}

const start: RunEventBody = {
  type: 'run-start',
  agentName: 'helper',
  model: 'upstream/m',
  source: 'agui',
  sessionId: null,
};
const modelStep = (index: number): RunEventBody => ({
  type: 'step-start',
  stepId: `step_${index}`,
  stepIndex: index,
  kind: 'model',
});
const toolStep = (index: number): RunEventBody => ({
  type: 'step-start',
  stepId: `step_${index}`,
  stepIndex: index,
  kind: 'tool',
});

export const TEXT_RUN: RunEventBody[] = [
  start,
  modelStep(0),
  { type: 'text-delta', delta: 'Hel' },
  { type: 'text-delta', delta: '' },
  { type: 'text-delta', delta: 'lo' },
  { type: 'run-end', output: 'Hello', totalTokens: 15, costUsd: 0 },
];

/** Says something, calls two tools in parallel, then answers. */
export const TOOL_RUN: RunEventBody[] = [
  start,
  modelStep(0),
  { type: 'text-delta', delta: 'Let me check.' },
  toolStep(1),
  { type: 'tool-call', toolCallId: 'call_a', name: 'get_current_time', arguments: '{"timezone":"UTC"}' },
  toolStep(2),
  { type: 'tool-call', toolCallId: 'call_b', name: 'get_current_time', arguments: '' },
  { type: 'tool-result', toolCallId: 'call_b', name: 'get_current_time', result: '12:00', isError: false },
  { type: 'tool-result', toolCallId: 'call_a', name: 'get_current_time', result: '12:00Z', isError: false },
  modelStep(3),
  { type: 'guardrail-flag', guardrail: 'pii', entity: 'email', action: 'redact' },
  { type: 'text-delta', delta: 'It is noon.' },
  { type: 'run-end', output: 'Let me check.It is noon.', totalTokens: 30, costUsd: 0 },
];

export const FAILED_RUN: RunEventBody[] = [
  start,
  modelStep(0),
  { type: 'text-delta', delta: 'partial' },
  { type: 'run-error', code: 'upstream_error', message: 'The model failed' },
];
