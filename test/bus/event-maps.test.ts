import { describe, expect, it } from 'vitest';
import { runWithNativesSyntax } from '../support/v8-maps.js';

const SCRIPT = new URL('./event-maps.script.ts', import.meta.url);

/**
 * A run's log keeps a thousand events. Built with a spread, every event V8's optimised publish made got a map
 * (hidden class) of its own: about 250 bytes more per event kept, for every live run (bench/README.md,
 * stalled readers, 2026-11-25). Only V8's natives syntax can tell, so a child process checks.
 */
describe('the events of a run’s log', () => {
  it('share one V8 map once publish is optimised', async () => {
    expect(await runWithNativesSyntax(SCRIPT)).toEqual({ events: 1000, distinct: 0 });
  });
});
