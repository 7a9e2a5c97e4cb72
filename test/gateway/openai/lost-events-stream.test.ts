import { describe, expect, it } from 'vitest';
import type { RunHandle } from '../../../src/agents/index.js';
import { eventsLostError } from '../../../src/agents/control/guard-run-events.js';
import type { RunEvent } from '../../../src/bus/index.js';
import { streamChatCompletion } from '../../../src/gateway/openai/chat-completion-stream.js';
import type { SseWriter } from '../../../src/http/index.js';

const RUN_ID = 'run_streamed';
const at = '2026-01-01T00:00:00Z';

/** A run that completed, read through events that lost part of it (attach fails with events_lost). */
function completedRunWithLostEvents(): RunHandle {
  async function* events(): AsyncGenerator<RunEvent> {
    yield { type: 'text-delta', delta: 'Part of ', runId: RUN_ID, seq: 2, at };
    throw eventsLostError(RUN_ID);
  }
  return {
    runId: RUN_ID,
    agentName: 'helper',
    control: { cancel: () => undefined },
    timing: {},
    result: Promise.resolve({ status: 'completed', output: 'Part of the whole answer', finishReason: 'stop' }),
    [Symbol.asyncIterator]: () => events(),
  } as unknown as RunHandle;
}

/** What the client received, frame by frame. */
function recordingWriter() {
  const frames: string[] = [];
  let opened = false;
  let closed = false;
  const writer = {
    get opened() {
      return opened;
    },
    get closed() {
      return closed;
    },
    signal: new AbortController().signal,
    open: () => void (opened = true),
    write(chunk: string) {
      opened = true;
      frames.push(chunk);
      return undefined;
    },
    settle: () => undefined,
    end(last?: string) {
      if (last) frames.push(last);
      closed = true;
    },
    onClientGone: () => undefined,
  } as unknown as SseWriter;
  return { writer, frames };
}

describe('a chat completion stream whose run events lost part of the answer', () => {
  it('ends with an error chunk naming where the whole answer is, and no finish_reason or [DONE]', async () => {
    const { writer, frames } = recordingWriter();
    const identity = { id: 'chatcmpl-x', created: 0, model: 'helper' };
    await streamChatCompletion(completedRunWithLostEvents(), writer, { identity, includeUsage: false });
    const last = JSON.parse(frames.at(-1)!.replace(/^data: /, '')) as { error?: { code: string; message: string } };
    expect(last.error).toMatchObject({ code: 'events_lost' });
    expect(last.error?.message).toContain(`GET /api/v1/admin/runs/${RUN_ID}`);
    expect(frames.join('')).not.toContain('[DONE]');
    expect(frames.join('')).not.toContain('"finish_reason":"stop"');
  });
});
