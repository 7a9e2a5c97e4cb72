import autocannon from 'autocannon';
import { BENCH_API_KEY } from '../bench-settings.js';

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
