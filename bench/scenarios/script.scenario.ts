import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../processes/ensure-build.js';
import type { Scenario } from './scenario.js';

/**
 * A scenario that is a script of its own (`bench/<file>.ts`, run with tsx): its printed report becomes the
 * scenario's notes. The hook for the scenarios other work adds as standalone scripts (telemetry, replicas);
 * when the file is not there the scenario says so instead of failing the run.
 */
export function scriptScenario(name: string, file: string, description: string): Scenario {
  return {
    name,
    description,
    needsServices: false,
    async run({ log }) {
      const path = join(REPO_ROOT, 'bench', file);
      if (!existsSync(path)) return { measurements: [], ratios: [], notes: [`bench/${file} is not in this tree`] };
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', path], {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolve(out) : reject(new Error(`bench/${file} exited with ${code}: ${out.slice(-500)}`)),
        );
      });
      return { measurements: [], ratios: [], notes: output.trimEnd().split('\n') };
    },
  };
}
