import { describe, expect, it } from 'vitest';
import { runWithNativesSyntax } from '../support/v8-maps.js';

const SCRIPT = new URL('./trace-header-maps.script.ts', import.meta.url);

/**
 * Every traced model call sends its headers with `traceparent` added. Built with a spread, each headers object
 * V8's optimised code made got a map (hidden class) of its own, ~1.5 µs and a map's garbage per upstream
 * request (bench/README.md, 2026-11-25). Only V8's natives syntax can tell, so a child process checks.
 */
describe('headers carrying traceparent', () => {
  it('share one V8 map once the injection is optimised', async () => {
    expect(await runWithNativesSyntax(SCRIPT)).toEqual({ requests: 1000, distinct: 0 });
  });
});
