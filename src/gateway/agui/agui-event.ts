import type {
  CustomEvent,
  RunErrorEvent,
  RunFinishedEvent,
  RunStartedEvent,
  TextMessageContentEvent,
  TextMessageEndEvent,
  TextMessageStartEvent,
  ToolCallArgsEvent,
  ToolCallEndEvent,
  ToolCallResultEvent,
  ToolCallStartEvent,
} from '@ag-ui/core';

/** `agui`: the official upper-case AG-UI events (default); `simple`: the spec's lower-case set (section 6). */
export type StreamFormat = 'agui' | 'simple';

/** The official AG-UI events this gateway emits: a subset of @ag-ui/core's `Event` union. */
export type AguiEvent =
  | CustomEvent
  | RunStartedEvent
  | TextMessageStartEvent
  | TextMessageContentEvent
  | TextMessageEndEvent
  | ToolCallStartEvent
  | ToolCallArgsEvent
  | ToolCallEndEvent
  | ToolCallResultEvent
  | RunFinishedEvent
  | RunErrorEvent;

/** The spec's lower-case events (section 6), each exactly its payload plus `type`. */
export type SimpleEvent =
  | { type: 'run_started'; run_id: string; agent_name: string }
  | { type: 'text_delta'; delta: string }
  | { type: 'tool_call'; name: string; arguments: unknown }
  | { type: 'tool_result'; name: string; result: string }
  | { type: 'run_completed'; run_id: string; output: string }
  | { type: 'run_error'; error: string }
  /** Ours, not the spec's: this stream fell behind the run and ends; re-attach with Last-Event-ID. */
  | { type: 'subscriber_lagging'; error: string }
  /** Ours: the server leaves and handed the run on; re-attach (to another replica) with Last-Event-ID. */
  | { type: 'run_handed_over'; error: string };

/** The code of a stream that fell further behind its run than the run's log holds (the bus's `subscriber_lagging`). */
export const SUBSCRIBER_LAGGING = 'subscriber_lagging';
/** The code of a stream whose server leaves while the run goes on elsewhere (the run service's drain). */
export const RUN_HANDED_OVER = 'run_handed_over';

/** One event on the wire: an SSE `event:` + `data:` pair, or one WebSocket text frame. */
export type StreamEvent = AguiEvent | SimpleEvent;

/** The ids the events name. The standard endpoint echoes the client's; elsewhere the run's own. */
export interface StreamIdentity {
  runId?: string;
  threadId?: string;
}
