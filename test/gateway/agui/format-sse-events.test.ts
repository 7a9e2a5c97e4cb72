import { describe, expect, it } from 'vitest';
import { formatSseEvents } from '../../../src/gateway/agui/format-sse-events.js';

describe('formatSseEvents', () => {
  it('writes event and data lines with LF framing, and the id only on the last event of a group', () => {
    const text = formatSseEvents(
      [
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ] as never,
      7,
    );
    expect(text).toBe(
      'event: TEXT_MESSAGE_END\ndata: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\n' +
        'id: 7\nevent: RUN_FINISHED\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n',
    );
    expect(text).not.toContain('\r');
  });
});
