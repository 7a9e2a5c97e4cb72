import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { registerChild, stopChild } from '../processes/child-registry.js';
import type { LoadJob, LoadResult } from './load-jobs.js';

const WORKER_SCRIPT = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

export interface LoadWorker {
  pid: number;
  run<J extends LoadJob>(job: J): Promise<LoadResult<J>>;
  close(): Promise<void>;
}

/** Forks the load generator; jobs run one after the other, each answered by id. */
export function startLoadWorker(): LoadWorker {
  const child: ChildProcess = fork(WORKER_SCRIPT, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  registerChild(child);
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(`load worker: ${message.error}`));
    else waiter?.resolve(message.result as never);
  });
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`load worker exited (${code})`));
    pending.clear();
  });
  return {
    pid: child.pid!,
    run(job) {
      nextId += 1;
      const id = nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, job });
      });
    },
    close: () => stopChild(child, 2_000),
  };
}
