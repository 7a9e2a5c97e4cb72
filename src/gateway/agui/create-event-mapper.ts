import type { RunEvent } from '../../bus/index.js';
import type { StreamEvent, StreamFormat, StreamIdentity } from './agui-event.js';
import { failAguiStream, initialAguiState, mapToAguiEvents } from './map-to-agui-events.js';
import { failSimpleStream, mapToSimpleEvents } from './map-to-simple-events.js';

/** The per-stream side of the pure mappers: holds the AG-UI state between events. */
export interface EventMapper {
  map(event: RunEvent): StreamEvent[];
  /** The terminal error event for a stream that ended without the run's own terminal event. */
  fail(error: { code: string; message: string }): StreamEvent[];
}

export function createEventMapper(format: StreamFormat, identity: StreamIdentity = {}): EventMapper {
  if (format === 'simple') {
    return { map: (event) => mapToSimpleEvents(event, identity), fail: failSimpleStream };
  }
  let state = initialAguiState(identity);
  return {
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
