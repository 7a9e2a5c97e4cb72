import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = join(ROOT, 'dist/ui/index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Vitest global setup: builds the dashboard (as `npm run build:ui`) once, before any test file, unless dist/ui is
 * newer than every file under ui/ (`npm ci` has built it already). Test files never build it themselves, so two
 * of them running at once cannot overwrite each other's build.
 */
export function setup(): void {
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestSource(join(ROOT, 'ui'))) return;
  // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  execFileSync('npx', ['vite', 'build', '--config', 'ui/vite.config.ts'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
