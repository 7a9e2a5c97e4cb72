import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { withBindingsOnUse } from '../../src/logger.js';

function capturedPino() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

describe("a traced run's logger", () => {
  it('writes its trace ids on every line, making the pino child only when a first line is written', async () => {
    const { log, lines } = capturedPino();
    const child = vi.spyOn(log, 'child');
    const runLog = withBindingsOnUse(log, { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) });
    expect(child).not.toHaveBeenCalled();

    runLog.error({ run_id: 'run_1' }, 'run failed unexpectedly');
    runLog.warn({ run_id: 'run_1' }, 'could not read the run event log');
    expect(child).toHaveBeenCalledTimes(1);
    runLog.child!({ tool: 'lookup' }).info({}, 'tool called');
    await new Promise((resolve) => setImmediate(resolve));

    expect(lines).toMatchObject([
      { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16), run_id: 'run_1', msg: 'run failed unexpectedly' },
      { trace_id: 'a'.repeat(32), msg: 'could not read the run event log' },
      { trace_id: 'a'.repeat(32), tool: 'lookup', msg: 'tool called' },
    ]);
  });
});
