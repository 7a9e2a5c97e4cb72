// V8 hidden classes ("maps") seen from a test: an object literal that spreads an object and adds keys gives, once
// optimised, every object it makes a map of its own (bench/README.md, optimisation log, 2026-11-25). Only V8's
// natives syntax can tell, and only a process started with --allow-natives-syntax has it: the tests run a script.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Runs `script` (a file URL next to the test) with natives syntax and tsx; returns what it printed, parsed. */
export async function runWithNativesSyntax(script: URL): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', fileURLToPath(script)],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout) as unknown;
}

/** In such a script: how many neighbours in `objects` differ in map (0: they all share one). */
export function countMapChanges(objects: readonly object[]): number {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax, which TypeScript cannot parse
  const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  let changes = 0;
  for (let index = 1; index < objects.length; index += 1)
    if (!haveSameMap(objects[index - 1], objects[index])) changes += 1;
  return changes;
}
