import { Redis } from 'ioredis';

/** The Redis the machine runs on loopback; override with TEST_REDIS_URL. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Resolves to a one-line skip reason when Redis does not answer; under CI=true it must answer. */
export async function redisUnavailable(): Promise<string | undefined> {
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // connect() only says "Connection is closed."; the error event carries the cause (ECONNREFUSED…).
  let cause: Error | undefined;
  probe.on('error', (error: Error) => (cause ??= error));
  try {
    await probe.connect();
    await probe.ping();
    return undefined;
  } catch (error) {
    const reason = `Redis not reachable at ${TEST_REDIS_URL} (${(cause ?? (error as Error)).message})`;
    if (process.env.CI === 'true') throw new Error(`${reason}; it is required under CI=true`, { cause: error });
    return reason;
  } finally {
    probe.disconnect();
  }
}
