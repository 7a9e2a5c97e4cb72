import { BENCH_PROMPT, type UpstreamProfile } from '../bench-settings.js';
import type { BenchTarget } from '../targets/bench-target.js';

/** URL, headers and JSON body of one chat completion through `target` to the `profile` upstream. */
export function chatCompletionRequest(
  target: BenchTarget,
  profile: UpstreamProfile,
  stream: boolean,
): { url: string; headers: Record<string, string>; body: string } {
  const request = target.chatRequest(profile);
  const body = {
    model: request.model,
    messages: [{ role: 'user', content: BENCH_PROMPT }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  return { url: request.url, headers: request.headers, body: JSON.stringify(body) };
}
