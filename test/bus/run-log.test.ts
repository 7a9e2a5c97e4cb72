import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/bus/index.js';
import { RunLog } from '../../src/bus/run-log.js';
import { collect, range, seqs, tick } from './bus-test-helpers.js';

function event(seq: number, type: 'text-delta' | 'run-end' = 'text-delta'): RunEvent {
  const at = new Date(0).toISOString();
  return type === 'run-end'
    ? { type, output: '', totalTokens: 0, costUsd: 0, runId: 'run_1', seq, at }
    : { type, delta: String(seq), runId: 'run_1', seq, at };
}

describe('RunLog', () => {
  it('starts a reader mid-stream when the log itself starts there (a Redis tail)', async () => {
    const log = new RunLog('run_1', 10, 40);
    expect(log.firstAvailableSeq).toBe(41);
    const reading = collect(log.read(40));
    for (const seq of range(41, 44)) log.push(event(seq));
    log.push(event(45, 'run-end'));
    expect(seqs(await reading)).toEqual(range(41, 45));
  });

  it('clamps a reader that asks for events older than the window to the oldest one still held', async () => {
    const log = new RunLog('run_1', 3);
    for (const seq of range(1, 5)) log.push(event(seq));
    log.close();
    expect(seqs(await collect(log.read(0)))).toEqual([3, 4, 5]);
  });

  it('ends every reader with the error given to fail()', async () => {
    const log = new RunLog('run_1', 3);
    const reading = collect(log.read(0));
    log.fail(new Error('stream trimmed'));
    await expect(reading).rejects.toThrow('stream trimmed');
  });

  it('lets an aborted reader go without keeping its wake-up around', async () => {
    const log = new RunLog('run_1', 3);
    const controller = new AbortController();
    const reading = collect(log.read(0, controller.signal));
    await tick();
    controller.abort();
    await expect(reading).resolves.toEqual([]);
    expect((log as unknown as { waiters: Set<unknown> }).waiters.size).toBe(0);
  });
});
