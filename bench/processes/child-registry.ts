import type { ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();
let installed = false;

/** Tracks a child so that it is killed however the bench ends: normal exit, Ctrl-C, or a crash. */
export function registerChild(child: ChildProcess): void {
  installCleanup();
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** SIGTERM to every child still running, then SIGKILL to those that ignore it. */
export async function stopAllChildren(graceMs = 5_000): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, graceMs)));
}

export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function installCleanup(): void {
  if (installed) return;
  installed = true;
  // 'exit' handlers cannot wait, so anything still alive at that point is killed outright.
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping child processes…\n`);
      void stopAllChildren(2_000).finally(() => process.exit(130));
    });
  }
}
