import type { RunEvent } from '../../bus/index.js';
import type { StreamEvent, StreamFormat, StreamIdentity } from './agui-event.js';
import { failAguiStream, initialAguiState, mapToAguiEvents, type AguiMapperState } from './map-to-agui-events.js';
import { failSimpleStream, mapToSimpleEvents } from './map-to-simple-events.js';

/** Where a mapper stands between two events: immutable, so keeping one costs a reference (none for `simple`). */
export type MapperState = AguiMapperState | undefined;

/** The per-stream side of the pure mappers: holds the AG-UI state between events. */
export interface EventMapper {
  map(event: RunEvent): StreamEvent[];
  /** The terminal error event for a stream that ended without the run's own terminal event. */
  fail(error: { code: string; message: string }): StreamEvent[];
  /** The state after the last event mapped: `createEventMapper(…, state)` goes on from there. */
  readonly state: MapperState;
}

/** A mapper from the start of a stream, or from `from` (a state another mapper was in). */
export function createEventMapper(
  format: StreamFormat,
  identity: StreamIdentity = {},
  from?: MapperState,
): EventMapper {
  if (format === 'simple') {
    return { map: (event) => mapToSimpleEvents(event, identity), fail: failSimpleStream, state: undefined };
  }
  let state = from ?? initialAguiState(identity);
  return {
    get state() {
      return state;
    },
    map(event) {
      const mapping = mapToAguiEvents(state, event);
      state = mapping.state;
      return mapping.events;
    },
    fail(error) {
      const mapping = failAguiStream(state, error);
      state = mapping.state;
      return mapping.events;
    },
  };
}
