import { EventType } from '@ag-ui/core';
import type { RunEvent } from '../../bus/index.js';
import { RUN_HANDED_OVER, SUBSCRIBER_LAGGING, type AguiEvent, type StreamIdentity } from './agui-event.js';

/** What the mapper must remember between events: the run's ids and which message is open. */
export interface AguiMapperState {
  identity: StreamIdentity;
  threadId?: string;
  /** The assistant message of the current model step: its text and its tool calls belong to it. */
  stepMessageId?: string;
  /** The text message between its TEXT_MESSAGE_START and TEXT_MESSAGE_END. */
  openMessageId?: string;
}

export interface AguiMapping {
  state: AguiMapperState;
  events: AguiEvent[];
}

/**
 * Every field present from the start: the `{ ...state, field }` below then only overwrites, and V8 keeps one map
 * for all states (a spread that adds a field gives each new object a map of its own).
 */
export function initialAguiState(identity: StreamIdentity = {}): AguiMapperState {
  return { identity, threadId: undefined, stepMessageId: undefined, openMessageId: undefined };
}

/**
 * One RunEvent → the official AG-UI events it stands for. Pure, so a resumed stream rebuilds the same
 * ids by replaying the run's log. Every text message is closed before anything else happens, and tool
 * calls are complete in the RunEvent, so TOOL_CALL_START/ARGS/END leave together and nothing stays open.
 */
export function mapToAguiEvents(state: AguiMapperState, event: RunEvent): AguiMapping {
  switch (event.type) {
    case 'run-start': {
      const threadId = state.identity.threadId ?? event.sessionId ?? event.runId;
      return {
        state: { ...state, threadId },
        events: [{ type: EventType.RUN_STARTED, threadId, runId: runIdOf(state, event) }],
      };
    }
    case 'step-start': {
      const closed = closeMessage(state);
      return event.kind === 'model'
        ? { state: { ...closed.state, stepMessageId: messageIdAt(event) }, events: closed.events }
        : closed;
    }
    case 'text-delta': {
      // AG-UI allows empty deltas, but they carry nothing and the issue asks for none.
      if (event.delta === '') return { state, events: [] };
      const opened = openMessage(state, event);
      const messageId = opened.state.openMessageId as string;
      return {
        state: opened.state,
        events: [...opened.events, { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: event.delta }],
      };
    }
    case 'tool-call': {
      const closed = closeMessage(state);
      const parent = closed.state.stepMessageId;
      const call: AguiEvent[] = [
        {
          type: EventType.TOOL_CALL_START,
          toolCallId: event.toolCallId,
          toolCallName: event.name,
          ...(parent ? { parentMessageId: parent } : {}),
        },
        ...(event.arguments === ''
          ? []
          : [{ type: EventType.TOOL_CALL_ARGS, toolCallId: event.toolCallId, delta: event.arguments } as const]),
        { type: EventType.TOOL_CALL_END, toolCallId: event.toolCallId },
      ];
      return { state: closed.state, events: [...closed.events, ...call] };
    }
    case 'tool-result':
      return {
        state,
        events: [
          {
            type: EventType.TOOL_CALL_RESULT,
            messageId: messageIdAt(event),
            toolCallId: event.toolCallId,
            content: event.result,
          },
        ],
      };
    case 'guardrail-flag':
      // A CUSTOM event, so a UI can show that an answer was redacted or flagged; clients that do not know it ignore it.
      return {
        state,
        events: [
          {
            type: EventType.CUSTOM,
            name: 'guardrail_flag',
            value: { guardrail: event.guardrail, entity: event.entity, action: event.action },
          },
        ],
      };
    case 'step-restarted': {
      // The partial text of the step a dead replica was streaming is ended here and named (null: none was
      // sent): a UI drops that message, since the step's whole text follows in a new one.
      const closed = closeMessage(state);
      const restarted: AguiEvent = {
        type: EventType.CUSTOM,
        name: 'step_restarted',
        value: { step_index: event.stepIndex, attempt: event.attempt, message_id: state.openMessageId ?? null },
      };
      return { state: { ...closed.state, stepMessageId: undefined }, events: [...closed.events, restarted] };
    }
    case 'run-error':
      return failAguiStream(state, event);
    case 'run-end': {
      const closed = closeMessage(state);
      const finished: AguiEvent = {
        type: EventType.RUN_FINISHED,
        threadId: threadIdOf(state, event),
        runId: runIdOf(state, event),
      };
      // Who waits on whom: the run stopped to ask its caller, and the caller's answer starts the next run.
      const asked: AguiEvent[] = event.inputRequired
        ? [
            {
              type: EventType.CUSTOM,
              name: 'input_required',
              value: {
                tool_call_id: event.inputRequired.toolCallId,
                tool: event.inputRequired.tool,
                arguments: event.inputRequired.arguments,
              },
            },
          ]
        : [];
      return { state: closed.state, events: [...closed.events, ...asked, finished] };
    }
    default:
      return assertNever(event);
  }
}

/** Streams that end while their run goes on: the client attaches again (with Last-Event-ID) and reads on. */
const REATTACH_CODES = new Set([SUBSCRIBER_LAGGING, RUN_HANDED_OVER]);

/**
 * Ends the stream with RUN_ERROR: for a failed run, and for a stream whose events stopped before the run's end.
 * A stream that fell behind (or whose server leaves) ends with a CUSTOM `subscriber_lagging` (`run_handed_over`)
 * instead, leaving its message open: the run goes on, and the client re-attaches with Last-Event-ID to continue.
 */
export function failAguiStream(state: AguiMapperState, error: { code: string; message: string }): AguiMapping {
  if (REATTACH_CODES.has(error.code))
    return { state, events: [{ type: EventType.CUSTOM, name: error.code, value: { message: error.message } }] };
  const closed = closeMessage(state);
  return {
    state: closed.state,
    events: [...closed.events, { type: EventType.RUN_ERROR, message: error.message, code: error.code }],
  };
}

function openMessage(state: AguiMapperState, event: RunEvent): AguiMapping {
  if (state.openMessageId) return { state, events: [] };
  // Without a step-start (a log replayed from its middle) the text still gets a stable id of its own.
  const messageId = state.stepMessageId ?? messageIdAt(event);
  return {
    state: { ...state, openMessageId: messageId, stepMessageId: messageId },
    events: [{ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' }],
  };
}

function closeMessage(state: AguiMapperState): AguiMapping {
  if (!state.openMessageId) return { state, events: [] };
  return {
    state: { ...state, openMessageId: undefined },
    events: [{ type: EventType.TEXT_MESSAGE_END, messageId: state.openMessageId }],
  };
}

/** Message ids come from the run id and the event's place in its log, so a replay names them the same. */
function messageIdAt(event: Pick<RunEvent, 'runId' | 'seq'>): string {
  return `msg_${event.runId.replace(/^run_/, '')}_${event.seq}`;
}

function runIdOf(state: AguiMapperState, event: RunEvent): string {
  return state.identity.runId ?? event.runId;
}

function threadIdOf(state: AguiMapperState, event: RunEvent): string {
  return state.threadId ?? state.identity.threadId ?? event.runId;
}

function assertNever(event: never): never {
  throw new Error(`unhandled run event ${JSON.stringify(event)}`);
}
