import type { RunEvent } from '../../bus/index.js';
import { RUN_HANDED_OVER, SUBSCRIBER_LAGGING, type SimpleEvent, type StreamIdentity } from './agui-event.js';

/** One RunEvent → the spec's lower-case events (section 6). Steps and guardrail flags have no counterpart there. */
export function mapToSimpleEvents(event: RunEvent, identity: StreamIdentity = {}): SimpleEvent[] {
  switch (event.type) {
    case 'run-start':
      return [{ type: 'run_started', run_id: identity.runId ?? event.runId, agent_name: event.agentName }];
    case 'text-delta':
      return event.delta === '' ? [] : [{ type: 'text_delta', delta: event.delta }];
    case 'tool-call':
      return [{ type: 'tool_call', name: event.name, arguments: parseArguments(event.arguments) }];
    case 'tool-result':
      return [{ type: 'tool_result', name: event.name, result: event.result }];
    case 'run-end':
      return [{ type: 'run_completed', run_id: identity.runId ?? event.runId, output: event.output }];
    case 'run-error':
      return failSimpleStream(event);
    case 'step-start':
    case 'step-restarted':
    case 'guardrail-flag':
      return [];
    default:
      return assertNever(event);
  }
}

export function failSimpleStream(error: { code?: string; message: string }): SimpleEvent[] {
  if (error.code === SUBSCRIBER_LAGGING) return [{ type: 'subscriber_lagging', error: error.message }];
  if (error.code === RUN_HANDED_OVER) return [{ type: 'run_handed_over', error: error.message }];
  return [{ type: 'run_error', error: error.message }];
}

/** The arguments as the JSON value the model wrote; its raw text only when that is not valid JSON. */
function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function assertNever(event: never): never {
  throw new Error(`unhandled run event ${JSON.stringify(event)}`);
}
