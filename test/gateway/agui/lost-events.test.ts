import { describe, expect, it } from 'vitest';
import { eventsLostError } from '../../../src/agents/control/guard-run-events.js';
import type { RunEvent } from '../../../src/bus/index.js';
import type { StreamEvent } from '../../../src/gateway/agui/agui-event.js';
import { createRunFrameCache } from '../../../src/gateway/agui/run-frame-cache.js';
import type { RunFrame } from '../../../src/gateway/agui/run-frame.js';
import { streamRunEvents } from '../../../src/gateway/agui/stream-run-events.js';
import { runEvents, TEXT_RUN } from './run-events.fixture.js';

/** A run's events up to its first text, then attach's failure: the bus lost the rest and the store cannot fill it. */
async function* lostAfterFirstText(events: RunEvent[]): AsyncGenerator<RunEvent> {
  for (const event of events) {
    yield event;
    if (event.type === 'text-delta') throw eventsLostError(event.runId);
  }
}

describe('an AG-UI stream whose run events lost part of the answer', () => {
  it('ends with RUN_ERROR events_lost naming where the whole answer is, never RUN_FINISHED', async () => {
    const sent: StreamEvent[] = [];
    const sink = { closed: false, write: (frame: RunFrame) => void sent.push(...frame.events) };
    await streamRunEvents(
      lostAfterFirstText(runEvents('run_abc', TEXT_RUN)),
      createRunFrameCache().open({ runId: 'run_abc', format: 'agui' }),
      sink,
    );
    expect(sent.map((event) => event.type)).not.toContain('RUN_FINISHED');
    expect(sent.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'events_lost',
      message: expect.stringContaining('GET /api/v1/admin/runs/run_abc'),
    });
  });
});
