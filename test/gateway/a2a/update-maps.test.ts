import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./update-maps.script.ts', import.meta.url));

/**
 * A streamed A2A task sends one artifact update per text delta. Built as `{ ...ids, artifact, … }`, each got a V8
 * map (hidden class) of its own once the mapper was optimised (bench/README.md, optimisation log, 2026-11-25).
 * Only V8's natives syntax can tell, so a child process checks.
 */
describe('the A2A updates of a run’s text deltas', () => {
  it('share one V8 map once the mapper is optimised', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', SCRIPT],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual({ updates: 1000, distinct: 0 });
  });
});
