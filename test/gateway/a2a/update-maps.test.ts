import { describe, expect, it } from 'vitest';
import { runWithNativesSyntax } from '../../support/v8-maps.js';

const SCRIPT = new URL('./update-maps.script.ts', import.meta.url);

/**
 * A streamed A2A task sends one artifact update per text delta. Built as `{ ...ids, artifact, … }`, each got a V8
 * map (hidden class) of its own once the mapper was optimised (bench/README.md, optimisation log, 2026-11-25).
 * Only V8's natives syntax can tell, so a child process checks.
 */
describe('the A2A updates of a run’s text deltas', () => {
  it('share one V8 map once the mapper is optimised', async () => {
    expect(await runWithNativesSyntax(SCRIPT)).toEqual({ updates: 1000, distinct: 0 });
  });
});
