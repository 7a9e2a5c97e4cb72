import { UpstreamError } from '../errors.js';
import type { ModelCall } from './model-call.js';
import { streamModelCall } from './stream-model-call.js';
import type { ModelCallResult } from './types.js';

/** One model call, collected from its stream: one path, so retries, deadlines and errors behave exactly as for stream(). */
export async function generateModelCall(call: ModelCall): Promise<ModelCallResult> {
  const started = performance.now();
  let firstPartMs: number | undefined;
  for await (const part of streamModelCall(call)) {
    if (part.type === 'usage') continue;
    if (part.type !== 'end') {
      firstPartMs ??= performance.now() - started;
      continue;
    }
    const latencyMs = Math.round(performance.now() - started);
    return {
      text: part.text,
      toolCalls: part.toolCalls,
      finishReason: part.finishReason,
      usage: part.usage,
      timeToFirstTokenMs: firstPartMs === undefined ? latencyMs : Math.round(firstPartMs),
      latencyMs,
    };
  }
  // streamModelCall yields `end` last or throws.
  throw new UpstreamError({
    message: `model stream of ${call.targets[0].label} ended without its end part`,
    retryable: false,
  });
}
