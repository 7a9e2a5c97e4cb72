// `npm start`'s prestart: builds only what changed since the last build. The server (tsc) and the dashboard
// (vite) each have a stamp in dist/; a part is rebuilt when one of its inputs (files and folders, so a deleted
// file counts too) is newer than its stamp. `--force` (npm run build) builds both. Plain JavaScript, so that
// starting needs no TypeScript loader.
/* global process, URL -- Node's globals: this file is plain JavaScript, outside the TypeScript project */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const force = process.argv.includes('--force');
const root = fileURLToPath(new URL('..', import.meta.url));
const shared = ['package.json', 'package-lock.json', 'tsconfig.json'];
const parts = [
  {
    name: 'server',
    inputs: ['src', 'scripts/bundle-server.mjs', ...shared],
    stamp: 'dist/.server-build-stamp',
    // Also the output the stamp vouches for: a deleted dist/ must rebuild.
    output: 'dist/cli/main.js',
    // esbuild, no type check (npm run typecheck does that): a bundle that starts in a fraction of the time.
    command: [process.execPath, ['scripts/bundle-server.mjs']],
  },
  {
    name: 'dashboard',
    inputs: ['ui', ...shared],
    stamp: 'dist/ui/.ui-build-stamp',
    output: 'dist/ui/index.html',
    command: ['npx', ['vite', 'build', '--config', 'ui/vite.config.ts']],
  },
];

/**
 * The newest modification time of a path and everything under it (folders included: a removal changes them).
 * @param {string} path
 * @returns {number}
 */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

let failed = false;
for (const part of parts) {
  const stamp = join(root, part.stamp);
  const builtAt = existsSync(stamp) && existsSync(join(root, part.output)) ? statSync(stamp).mtimeMs : 0;
  const changedAt = Math.max(...part.inputs.map((input) => newestMtime(join(root, input))));
  if (!force && builtAt > changedAt) continue;
  process.stderr.write(
    `building the ${part.name} (${force ? '--force' : builtAt === 0 ? 'no build yet' : 'sources changed'})\n`,
  );
  const startedAt = Date.now();
  const [command, args] = part.command;
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed = true;
    continue;
  }
  mkdirSync(dirname(stamp), { recursive: true });
  // The time the build started: a source saved during the build is newer, so the next start builds again.
  writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stamp, startedAt / 1000, startedAt / 1000);
}
process.exitCode = failed ? 1 : 0;
