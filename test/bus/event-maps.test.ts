import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./event-maps.script.ts', import.meta.url));

/**
 * A run's log keeps a thousand events. Built with a spread, every event V8's optimised publish made got a map
 * (hidden class) of its own: about 250 bytes more per event kept, for every live run (bench/README.md,
 * stalled readers, 2026-11-25). Only V8's natives syntax can tell, so a child process checks.
 */
describe('the events of a run’s log', () => {
  it('share one V8 map once publish is optimised', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', SCRIPT],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual({ events: 1000, distinct: 0 });
  });
});
