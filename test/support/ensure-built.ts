import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Vitest global setup: spawned servers and CLIs run dist/ (as `npm start` does) and the dashboard tests serve
 * dist/ui. Runs `npm start`'s own build check once, before any test file, so test files never build themselves.
 */
export function setup(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: ROOT,
    stdio: 'pipe',
    // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
