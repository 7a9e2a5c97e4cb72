import { describe, expect, it } from 'vitest';
import { mapToSimpleEvents } from '../../../src/gateway/agui/map-to-simple-events.js';
import { FAILED_RUN, runEvents, TEXT_RUN, TOOL_RUN } from './run-events.fixture.js';

const mapAll = (bodies: typeof TEXT_RUN, identity = {}) =>
  runEvents('run_abc', bodies).flatMap((event) => mapToSimpleEvents(event, identity));

describe('mapToSimpleEvents (?format=simple)', () => {
  it('maps a text run to the spec lower-case events exactly', () => {
    expect(mapAll(TEXT_RUN)).toEqual([
      { type: 'run_started', run_id: 'run_abc', agent_name: 'helper' },
      { type: 'text_delta', delta: 'Hel' },
      { type: 'text_delta', delta: 'lo' },
      { type: 'run_completed', run_id: 'run_abc', output: 'Hello' },
    ]);
  });

  it('maps tool calls with parsed arguments and tool results by name', () => {
    const events = mapAll(TOOL_RUN);
    expect(events.filter((event) => event.type === 'tool_call')).toEqual([
      { type: 'tool_call', name: 'get_current_time', arguments: { timezone: 'UTC' } },
      { type: 'tool_call', name: 'get_current_time', arguments: {} },
    ]);
    expect(events.filter((event) => event.type === 'tool_result')).toEqual([
      { type: 'tool_result', name: 'get_current_time', result: '12:00' },
      { type: 'tool_result', name: 'get_current_time', result: '12:00Z' },
    ]);
  });

  it('reports a failure as run_error {error}', () => {
    expect(mapAll(FAILED_RUN).at(-1)).toEqual({ type: 'run_error', error: 'The model failed' });
  });

  it('uses the run id it is given', () => {
    expect(mapAll(TEXT_RUN, { runId: 'client-run' })[0]).toEqual({
      type: 'run_started',
      run_id: 'client-run',
      agent_name: 'helper',
    });
  });
});
