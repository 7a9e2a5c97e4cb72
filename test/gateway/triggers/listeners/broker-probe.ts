import { connect } from 'node:net';

/**
 * Resolves to a skip reason when nothing listens on the broker's loopback port; under CI=true the
 * broker is required, so the probe throws and the suite fails instead of skipping.
 */
export async function brokerUnavailable(name: string, port: number, host = '127.0.0.1'): Promise<string | undefined> {
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect({ port, host, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    for (const event of ['error', 'timeout'])
      socket.once(event, () => {
        socket.destroy();
        resolve(false);
      });
  });
  if (reachable) return undefined;
  const reason = `${name} not reachable at ${host}:${port}`;
  if (process.env.CI === 'true') throw new Error(`${reason}: it is required under CI=true`);
  console.warn(`skipping ${name} listener tests: ${reason}`);
  return reason;
}

export const uniqueSuffix = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
