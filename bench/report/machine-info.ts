import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { REPO_ROOT } from '../processes/ensure-build.js';

/** The machine the numbers come from. */
export function machineInfo(): Record<string, string | number> {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${osRelease()} (${osType()} ${release()}, ${process.arch})`,
  };
}

export function loadAverage(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}

/** Versions of what is compared and of what measures it. */
export function packageVersions(): Record<string, string> {
  const require = createRequire(`${REPO_ROOT}package.json`);
  const version = (name: string) => {
    try {
      return (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      return 'not installed';
    }
  };
  const own = JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8')) as { version: string };
  return {
    'agent-gateway': `${own.version} (${gitRevision()})`,
    '@portkey-ai/gateway': version('@portkey-ai/gateway'),
    autocannon: version('autocannon'),
    fastify: version('fastify'),
    'better-sqlite3': version('better-sqlite3'),
    ai: version('ai'),
  };
}

function gitRevision(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} + uncommitted src/ changes` : commit;
  } catch {
    return 'no git';
  }
}

function osRelease(): string {
  try {
    return /^PRETTY_NAME="?([^"\n]+)/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? osType();
  } catch {
    return osType();
  }
}
