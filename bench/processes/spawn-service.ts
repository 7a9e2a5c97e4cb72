import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { registerChild, stopChild } from './child-registry.js';
import { pollUntilOk } from './poll-until-ok.js';

export interface ServiceSpec {
  name: string;
  /** Arguments to `node` (flags, then the script). */
  nodeArgs: string[];
  env?: NodeJS.ProcessEnv;
  /** The line (stdout or stderr, ANSI colours removed) that says the service listens. */
  readyLine: RegExp;
  /** Polled from the instant of spawn, so that start-up is measured to the first 200 as well. */
  healthUrl?: string;
  readyTimeoutMs?: number;
  /** Gives the child an IPC channel: our own children exit when it closes, even if the bench is killed. */
  ipc?: boolean;
}

export interface ServiceProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  /** The ready line's match (its groups carry the URL for services that print it). */
  ready: RegExpMatchArray;
  /** performance.now() at spawn: V8 profiles start about then. */
  spawnedAt: number;
  startup: { readyLineMs: number; firstOkMs?: number };
  /** The last lines the service printed, for error messages. */
  tail(): string;
  stop(): Promise<void>;
}

// eslint-disable-next-line no-control-regex -- the ESC that starts an ANSI colour code is what this removes
const ANSI = /\u001b\[[0-9;]*m/g;
const TAIL_LINES = 40;

/** Spawns a Node.js service and resolves once it printed its ready line (and answered 200, with healthUrl). */
export async function spawnService(spec: ServiceSpec): Promise<ServiceProcess> {
  const lines: string[] = [];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, spec.nodeArgs, {
    env: spec.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe', ...(spec.ipc ? ['ipc' as const] : [])],
  });
  registerChild(child);
  if (child.pid === undefined) throw new Error(`${spec.name}: could not spawn`);
  const health = spec.healthUrl
    ? pollUntilOk(spec.healthUrl, spec.readyTimeoutMs ?? 60_000).then((ok) =>
        ok ? performance.now() - spawnedAt : undefined,
      )
    : Promise.resolve(undefined);
  const ready = new Promise<{ match: RegExpMatchArray; ms: number }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${spec.name}: not ready after ${spec.readyTimeoutMs ?? 60_000} ms\n${lines.join('\n')}`)),
      spec.readyTimeoutMs ?? 60_000,
    );
    const onLine = (raw: string) => {
      const line = raw.replace(ANSI, '');
      lines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
      if (lines.length > TAIL_LINES) lines.shift();
      const match = spec.readyLine.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ match, ms: performance.now() - spawnedAt });
      }
    };
    // Reading every line also keeps the pipes drained, so a chatty logger never blocks on a full pipe.
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${spec.name}: exited (${signal ?? code}) before it was ready\n${lines.join('\n')}`));
    });
  });
  try {
    const { match, ms } = await ready;
    const firstOkMs = await health;
    return {
      name: spec.name,
      pid: child.pid,
      child,
      spawnedAt,
      ready: match,
      startup: { readyLineMs: round(ms), firstOkMs: firstOkMs === undefined ? undefined : round(firstOkMs) },
      tail: () => lines.join('\n'),
      stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child, 1_000);
    throw error;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
