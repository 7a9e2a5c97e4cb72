import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const SOURCE_CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface GatewayRuntime {
  /** `dist`: the built JavaScript users run; `tsx`: the sources, only when no build could be made. */
  kind: 'dist' | 'tsx';
  nodeArgs: string[];
  note: string;
}

/**
 * Builds what changed (`scripts/build-if-stale.mjs`, as `npm start` does: nothing when dist/ is current) and
 * returns how to start the gateway.
 * tsc still emits when a type error stops it, so a failed build is reported but the emitted JS is used.
 */
export function ensureBuild(options: { skip: boolean; log: (line: string) => void }): GatewayRuntime {
  let note: string;
  if (options.skip) note = 'build skipped (--no-build): existing dist/';
  else {
    options.log('building the gateway where sources changed (scripts/build-if-stale.mjs)…');
    const started = performance.now();
    const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (build.status === 0) note = `build checked (scripts/build-if-stale.mjs) in ${seconds} s`;
    else {
      note = `the build failed (exit ${build.status}) in ${seconds} s; using what tsc emitted`;
      options.log(`${note}:\n${(build.stdout + build.stderr).split('\n').slice(0, 10).join('\n')}`);
    }
  }
  if (existsSync(BUILT_CLI)) return { kind: 'dist', nodeArgs: [BUILT_CLI], note };
  options.log('no dist/cli/main.js: starting the gateway from its sources with tsx');
  return { kind: 'tsx', nodeArgs: ['--import', 'tsx', SOURCE_CLI], note: `${note}; no dist/, ran src/ with tsx` };
}
