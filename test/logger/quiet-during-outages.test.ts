import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatabaseUnavailableError } from '../../src/errors.js';
import { quietDuringOutages, type Logger } from '../../src/logger.js';

function recordingLogger(lines: { level: string; details: object; message: string }[]): Logger {
  const at = (level: string) => (details: object, message: string) => void lines.push({ level, details, message });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('a log quiet during outages', () => {
  afterEach(() => vi.useRealTimers());

  it('says an outage once per window for each message, then how many it left out; other lines all go through', () => {
    vi.useFakeTimers();
    const lines: { level: string; details: object; message: string }[] = [];
    const log = quietDuringOutages(
      recordingLogger(lines),
      (error) => error instanceof DatabaseUnavailableError,
      30_000,
    );
    const outage = new DatabaseUnavailableError();
    // A loop that retries every second for a minute, beside another loop and an unrelated error.
    for (let second = 0; second < 60; second++) {
      log.warn({ err: outage }, 'inbox: poll failed');
      log.error({ err: outage }, 'run heartbeat failed');
      vi.advanceTimersByTime(1_000);
    }
    log.warn({ err: new Error('a bad row') }, 'inbox: poll failed');
    log.warn({ err: new Error('a bad row') }, 'inbox: poll failed');

    const polls = lines.filter((line) => line.message === 'inbox: poll failed');
    expect(polls.map((line) => (line.details as { repeated?: number }).repeated)).toEqual([
      undefined,
      29,
      undefined,
      undefined,
    ]);
    expect(lines.filter((line) => line.message === 'run heartbeat failed')).toHaveLength(2);
  });
});
