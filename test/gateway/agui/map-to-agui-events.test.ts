import { verifyEvents, type BaseEvent } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/bus/index.js';
import type { AguiEvent } from '../../../src/gateway/agui/agui-event.js';
import {
  failAguiStream,
  initialAguiState,
  mapToAguiEvents,
  type AguiMapperState,
} from '../../../src/gateway/agui/map-to-agui-events.js';
import { FAILED_RUN, runEvents, TEXT_RUN, TOOL_RUN } from './run-events.fixture.js';

function mapAll(events: RunEvent[], state: AguiMapperState = initialAguiState()): AguiEvent[] {
  const out: AguiEvent[] = [];
  for (const event of events) {
    const mapping = mapToAguiEvents(state, event);
    state = mapping.state;
    out.push(...mapping.events);
  }
  return out;
}

/** The official client's verifier: throws on any sequence an AG-UI client would reject. */
async function verify(events: AguiEvent[]): Promise<BaseEvent[]> {
  return lastValueFrom(from(events as BaseEvent[]).pipe(verifyEvents(), toArray()));
}

/** Every event parses with @ag-ui/core's schema and has no field that schema does not name. */
function expectOfficialShapes(events: AguiEvent[]): void {
  const schemas = new Map(EventSchema.options.map((schema) => [schema.shape.type.value as string, schema]));
  for (const event of events) {
    const schema = schemas.get(event.type)!;
    expect(() => schema.parse(event)).not.toThrow();
    expect(Object.keys(event).filter((key) => !(key in schema.shape))).toEqual([]);
  }
}

describe('mapToAguiEvents', () => {
  it('maps a text run to one closed message between RUN_STARTED and RUN_FINISHED, without empty deltas', async () => {
    const events = mapAll(runEvents('run_abc', TEXT_RUN));
    const messageId = 'msg_abc_2';
    expect(events).toEqual([
      { type: 'RUN_STARTED', threadId: 'run_abc', runId: 'run_abc' },
      { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: 'lo' },
      { type: 'TEXT_MESSAGE_END', messageId },
      { type: 'RUN_FINISHED', threadId: 'run_abc', runId: 'run_abc' },
    ]);
    await verify(events);
    expectOfficialShapes(events);
  });

  it('closes the text before tool calls, attaches the calls to the step message and gives results their own ids', async () => {
    const events = mapAll(runEvents('run_abc', TOOL_RUN));
    expect(events.map((event) => event.type)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_START',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TOOL_CALL_RESULT',
      'CUSTOM',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(events[4]).toEqual({
      type: 'TOOL_CALL_START',
      toolCallId: 'call_a',
      toolCallName: 'get_current_time',
      parentMessageId: 'msg_abc_2',
    });
    expect(events[5]).toEqual({ type: 'TOOL_CALL_ARGS', toolCallId: 'call_a', delta: '{"timezone":"UTC"}' });
    expect(events[9]).toEqual({
      type: 'TOOL_CALL_RESULT',
      messageId: 'msg_abc_8',
      toolCallId: 'call_b',
      content: '12:00',
    });
    expect(events[11]).toEqual({
      type: 'CUSTOM',
      name: 'guardrail_flag',
      value: { guardrail: 'pii', entity: 'email', action: 'redact' },
    });
    expect(events[12]).toMatchObject({ messageId: 'msg_abc_10' });
    await verify(events);
    expectOfficialShapes(events);
  });

  it('ends a failed run with RUN_ERROR {message, code} after closing its message', async () => {
    const events = mapAll(runEvents('run_abc', FAILED_RUN));
    expect(events.slice(-2)).toEqual([
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_abc_2' },
      { type: 'RUN_ERROR', message: 'The model failed', code: 'upstream_error' },
    ]);
    await verify(events);
    expectOfficialShapes(events);
  });

  it('echoes the identity it is given, and otherwise uses the session as the thread', () => {
    const [withSession] = runEvents('run_abc', [{ ...TEXT_RUN[0], sessionId: 'ses_1' } as (typeof TEXT_RUN)[number]]);
    expect(mapAll([withSession])).toEqual([{ type: 'RUN_STARTED', threadId: 'ses_1', runId: 'run_abc' }]);
    const echoed = mapAll(
      runEvents('run_abc', TEXT_RUN),
      initialAguiState({ threadId: 'thread-1', runId: 'client-run' }),
    );
    expect(echoed[0]).toEqual({ type: 'RUN_STARTED', threadId: 'thread-1', runId: 'client-run' });
    expect(echoed.at(-1)).toEqual({ type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'client-run' });
  });

  it('fails a stream cut short with one RUN_ERROR and closes what was open', async () => {
    const events = runEvents('run_abc', TEXT_RUN).slice(0, 3);
    let state = initialAguiState();
    const out: AguiEvent[] = [];
    for (const event of events) {
      const mapping = mapToAguiEvents(state, event);
      state = mapping.state;
      out.push(...mapping.events);
    }
    out.push(...failAguiStream(state, { code: 'stream_interrupted', message: 'gone' }).events);
    expect(out.slice(-2)).toEqual([
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_abc_2' },
      { type: 'RUN_ERROR', message: 'gone', code: 'stream_interrupted' },
    ]);
    await verify(out);
  });

  it('names messages the same when a log is replayed, so a resumed stream continues the same message', () => {
    const events = runEvents('run_abc', TOOL_RUN);
    expect(mapAll(events)).toEqual(mapAll(events));
  });
});
