import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Built by the test run's global setup (test/support/ensure-built.ts) when src/ changed. */
const MAIN = 'dist/cli/main.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a CLI child gets: ours minus anything that would point it at a real server or key. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'AGENT_GATEWAY_TOKEN',
    'AGENT_GATEWAY_CONFIG',
    'HOST',
    'PORT',
    'DATA_DIR',
    'DATABASE_URL',
    'LOG_LEVEL',
  ])
    delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('SERVICE_GATEWAY_')) delete env[name];
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs `agent-gateway <args>` as a user would, and collects its output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [MAIN, ...args], { cwd: REPO_ROOT, env: cliEnv(env) });
}
