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

/** Builds the dashboard (npm run build:ui) unless dist/ui is newer than every file under ui/: `npm ci` builds it already. */
export function ensureUiBuilt(): void {
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestSource(join(ROOT, 'ui'))) return;
  execFileSync('npx', ['vite', 'build', '--config', 'ui/vite.config.ts'], { cwd: ROOT, stdio: 'pipe' });
}
