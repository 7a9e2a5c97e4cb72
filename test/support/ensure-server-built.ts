import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Written after each build here: tsc's incremental build leaves unchanged outputs with their old times. */
const STAMP = join(ROOT, 'dist/.test-build-stamp');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Vitest global setup: tests that spawn the server or the CLI run `node dist/cli/main.js`, as `npm start` and the
 * installed bin do (no TypeScript compile in every child). Builds dist/ once, before any test file, when a file under
 * src/ is newer than the last build made here.
 */
export function setup(): void {
  if (existsSync(STAMP) && statSync(STAMP).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'pipe',
  });
  writeFileSync(STAMP, new Date().toISOString());
}
