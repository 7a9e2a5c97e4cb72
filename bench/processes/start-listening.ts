import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BENCH_API_KEY } from '../bench-settings.js';

/**
 * Spawns `node <args>` (through tsx for a .ts entry) and resolves with its URL once it prints
 * `listening on <url>`; rejects if it exits first. The child is added to `children` for the caller to stop.
 */
export function startListening(
  children: ChildProcess[],
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args.some((arg) => arg.endsWith('.ts')) ? ['--import', 'tsx', ...args] : args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      // From here on its output (a log line per request) is read and dropped: kept, it grew without end in
      // the process that also generates the load.
      child.stdout.off('data', onData);
      child.stdout.resume();
      out = '';
      resolve({ child, url: match[1] });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/**
 * A build named on a side-by-side bench's command line: `<cli>?NAME=value&...` is that CLI started with those
 * environment variables (the same build with telemetry on, another engine, a flag).
 */
export function parseBuild(build: string): { cli: string; variables: Record<string, string> } {
  const [cli, query] = build.split('?');
  return { cli, variables: Object.fromEntries(new URLSearchParams(query ?? '')) };
}

/** utime + stime of a process, or of one of its threads (its main thread's id is the process id), in microseconds (clock ticks are 1/100 s on Linux). */
export function cpuMicros(pid: number, thread?: number): number {
  const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8')
    .split(') ')[1]
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Stops every child gracefully (SIGINT, so a --cpu-prof profile is written), SIGKILL after 10 s. */
export async function stopChildren(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
}

/**
 * The config of a gateway with one agent, `bench-fast`, on `upstreamUrl` and the bench's API key, storing in
 * `dataDir`; `extra` (YAML) is appended (a `telemetry:` section, say).
 */
export function singleAgentGatewayYaml(upstreamUrl: string, dataDir: string, extra = ''): string {
  return `server: { host: 127.0.0.1, port: 0, data_dir: "${dataDir}", log_level: info }
auth: { api_keys: ["${BENCH_API_KEY}"] }
providers:
  fast: { type: openai-compatible, base_url: "${upstreamUrl}/v1", api_key: bench }
agents:
  - { name: bench-fast, model: fast/bench-model }
${extra}`;
}
