import { describe, expect, it } from 'vitest';
import { createEventMapper } from '../../../src/gateway/agui/create-event-mapper.js';
import { streamRunEvents } from '../../../src/gateway/agui/stream-run-events.js';
import type { StreamEvent } from '../../../src/gateway/agui/agui-event.js';
import type { RunEvent } from '../../../src/bus/index.js';
import { runEvents, TEXT_RUN } from './run-events.fixture.js';

async function* replay(events: RunEvent[]): AsyncGenerator<RunEvent> {
  yield* events;
}

describe('streamRunEvents', () => {
  it('holds the terminal event until beforeTerminal resolves (the run’s records are stored)', async () => {
    const sent: StreamEvent[] = [];
    const sink = { closed: false, send: async (events: StreamEvent[]) => void sent.push(...events) };
    let resolveRecords!: () => void;
    const records = new Promise<void>((resolve) => (resolveRecords = resolve));
    const streaming = streamRunEvents(replay(runEvents('run_abc', TEXT_RUN)), createEventMapper('agui'), sink, { beforeTerminal: () => records });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((event) => event.type)).not.toContain('RUN_FINISHED');
    expect(sent.map((event) => event.type)).toContain('TEXT_MESSAGE_CONTENT');
    resolveRecords();
    await streaming;
    expect(sent.at(-1)?.type).toBe('RUN_FINISHED');
  });
});
