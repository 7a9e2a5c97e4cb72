import type { RunEvent } from '../../bus/index.js';
import type { ChatMessage, ToolCall } from '../../llm/index.js';
import type { ModelPromptLog, StepRecord, ToolPromptLog } from '../records/run.types.js';
import type { LoopStart } from './runtime-loop.js';

/** Where a run taken over continues: after its last completed model call and the tool results stored since. */
export interface ResumePoint {
  /** Undefined when no model call completed: the run starts again from its conversation. */
  loop?: LoopStart;
  /** The text its completed model calls said: the run's output so far. */
  output: string;
  /** Tool calls that started without a stored result and are not idempotent: the model is told they were interrupted. */
  interrupted: ToolCall[];
}

export const INTERRUPTED_TOOL_MESSAGE =
  'the call was interrupted when the server running it stopped; it was not repeated because the tool is not ' +
  'marked idempotent, so it may or may not have taken effect';

/**
 * Rebuilds the loop's state from the stored steps. A model call without a stored step is made again (its
 * text was never part of the output); a tool call without a stored result runs again only when
 * `isIdempotent(name)`, else its result is an error the model reads.
 */
export function findResumePoint(
  steps: readonly StepRecord[],
  options: { isIdempotent(name: string): boolean; clientToolNames: ReadonlySet<string> },
): ResumePoint {
  const modelSteps = steps.filter((step) => step.kind === 'model' && step.status === 'completed');
  const output = modelSteps.map((step) => (step.prompt_log as ModelPromptLog).response).join('');
  const last = modelSteps.at(-1);
  if (!last) return { output, interrupted: [] };
  const log = last.prompt_log as ModelPromptLog;
  const modelCalls = modelSteps.length;
  const calls = log.tool_calls;
  if (calls.length === 0)
    return {
      loop: { messages: log.messages, modelCalls, ended: { finishReason: log.finish_reason ?? 'stop' } },
      output,
      interrupted: [],
    };
  const clientCalls = calls.filter((call) => options.clientToolNames.has(call.name));
  if (clientCalls.length > 0)
    return {
      loop: { messages: log.messages, modelCalls, ended: { finishReason: 'tool_calls', clientToolCalls: clientCalls } },
      output,
      interrupted: [],
    };
  const results = storedToolResults(steps.filter((step) => step.step_index > last.step_index));
  const missing = calls.filter((call) => !results.has(call.id));
  const interrupted = missing.filter((call) => !options.isIdempotent(call.name));
  const assistant: ChatMessage = { role: 'assistant', content: log.response, tool_calls: calls };
  const answered = calls.flatMap((call) => {
    const result = results.get(call.id);
    return result === undefined ? [] : [toolMessage(call, result)];
  });
  return {
    loop: {
      messages: [
        ...log.messages,
        assistant,
        ...answered,
        ...interrupted.map((call) => toolMessage(call, `Error: ${INTERRUPTED_TOOL_MESSAGE}`)),
      ],
      modelCalls,
      toolCalls: missing.filter((call) => options.isIdempotent(call.name)),
    },
    output,
    interrupted,
  };
}

/** Each stored tool step's result as the model read it (a failure as its error), by tool call id. */
function storedToolResults(steps: readonly StepRecord[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const step of steps) {
    if (step.kind !== 'tool') continue;
    const log = step.prompt_log as ToolPromptLog;
    results.set(log.tool_call_id, log.error ? `Error: ${log.error.message}` : (log.result ?? ''));
  }
  return results;
}

function toolMessage(call: ToolCall, content: string): ChatMessage {
  return { role: 'tool', content, tool_call_id: call.id, name: call.name };
}

/**
 * The events of a run's earlier attempts that a takeover can go on from: from the last `run-start` in the
 * bus's log to its end, when nothing is missing in between. Undefined when the log lost events (a Redis that
 * restarted empty, publishes an outage dropped, a log trimmed past its start): the takeover then starts its
 * log afresh, so that what it stores and publishes is whole in itself.
 */
export function findEarlierEvents(history: readonly RunEvent[]): RunEvent[] | undefined {
  const start = history.findLastIndex((event) => event.type === 'run-start');
  if (start < 0) return undefined;
  const events = history.slice(start);
  for (let i = 1; i < events.length; i += 1) if (events[i].seq !== events[i - 1].seq + 1) return undefined;
  return events;
}

/**
 * The text a reader of `events` holds: its text deltas, less what a `step-restarted` dropped, and less the
 * text of the step `restarting` (about to be made again) when given.
 */
export function textOfEvents(events: readonly RunEvent[], restarting?: number): string {
  let text = '';
  const stepStarts = new Map<number, number>();
  for (const event of events) {
    if (event.type === 'step-start') stepStarts.set(event.stepIndex, text.length);
    else if (event.type === 'text-delta') text += event.delta;
    else if (event.type === 'step-restarted') text = text.slice(0, stepStarts.get(event.stepIndex) ?? text.length);
  }
  return restarting === undefined ? text : text.slice(0, stepStarts.get(restarting) ?? text.length);
}
