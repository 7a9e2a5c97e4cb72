import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { startCli } from '../cli/run-cli.js';

export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything the process wrote to stderr and stdout (logs), for failure messages. */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `agent-gateway serve` (dist/, as `npm start` does) as its own process and waits for its "listening on" line. */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = startCli(['serve', '--port', '0', ...args], env);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.on('data', (more: Buffer) => (output += more.toString()));
      resolve({
        url: match[1],
        child,
        output: () => output,
        async kill(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
}
