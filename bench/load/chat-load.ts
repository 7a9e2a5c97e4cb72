import autocannon from 'autocannon';

/** The API key the standalone benches (telemetry, ab-cpu) configure on the gateways they start. */
export const BENCH_API_KEY = 'bench-key-0123456789';

/** `seconds` of non-streamed chat completions to agent `bench-fast` at `connections`, closed loop. */
export function loadChatCompletions(url: string, seconds: number, connections: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/v1/chat/completions`,
        method: 'POST',
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${BENCH_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'bench-fast', messages: [{ role: 'user', content: 'Hello' }] }),
      },
      (error, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)),
    );
  });
}
