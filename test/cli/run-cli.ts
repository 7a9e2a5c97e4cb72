import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Built by the test run's global setup (test/support/ensure-built.ts) when src/ changed. */
export const BINS = {
  'agent-gateway': join(REPO_ROOT, 'dist/cli/main.js'),
  autopilot: join(REPO_ROOT, 'dist/cli/autopilot-main.js'),
};

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The child's working folder; by default a new empty one, removed when the child exits. */
  cwd?: string;
  bin?: keyof typeof BINS;
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
    'LOG_FORMAT',
  ])
    delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('SERVICE_GATEWAY_')) delete env[name];
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs `agent-gateway <args>` as a user would, and collects its output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, env, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts the CLI in a working folder of its own, never the repository root (nor the folder the tests run in):
 * a user's ./agent-gateway.yaml or ./data there must not reach a test (issue #38).
 */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: CliOptions = {},
): ChildProcessWithoutNullStreams {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'agent-gateway-cwd-'));
  const child = spawn(process.execPath, [BINS[options.bin ?? 'agent-gateway'], ...args], { cwd, env: cliEnv(env) });
  if (options.cwd === undefined) child.once('close', () => rmSync(cwd, { recursive: true, force: true }));
  return child;
}
