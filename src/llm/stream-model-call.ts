import { createCallSignal } from './call-signal.js';
import { mapCallFailure, type ModelCall } from './model-call.js';
import type { PartReader } from './model-transport.js';
import { runWithRetries } from './run-with-retries.js';
import { StreamCollector } from './stream-collector.js';
import type { ModelStreamPart } from './types.js';

/**
 * Reads until the first text or tool call (or the end); until then a failure may still be retried. Usage
 * reported before it stays in the collector: an attempt that failed that early is not billed.
 */
async function openStream(
  call: ModelCall,
  signal: AbortSignal,
): Promise<{ reader: PartReader; collector: StreamCollector; first?: ModelStreamPart }> {
  const reader = await call.entry.openStream(call.modelId, call.request, signal);
  const collector = new StreamCollector();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { reader, collector };
      const first = collector.accept(value);
      if (first && first.type !== 'usage') return { reader, collector, first };
    }
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  }
}

/** One streamed model call: retried only before its first part, bounded by the deadline, stopped by the caller's signal. */
export async function* streamModelCall(call: ModelCall): AsyncGenerator<ModelStreamPart> {
  const callSignal = createCallSignal(call.entry.timeoutMs, call.request.signal);
  let reader: PartReader | undefined;
  let finished = false;
  try {
    const opened = await runWithRetries(call, callSignal, (signal) => openStream(call, signal));
    reader = opened.reader;
    if (opened.first) yield opened.first;
    for (;;) {
      let part: ModelStreamPart | undefined;
      try {
        const { done, value } = await reader.read();
        if (done) break;
        part = opened.collector.accept(value);
      } catch (error) {
        throw mapCallFailure(error, call, callSignal).error;
      }
      if (part) yield part;
    }
    const end = opened.collector.end(call.request);
    finished = true;
    callSignal.dispose();
    yield end;
  } finally {
    callSignal.dispose();
    if (!finished) {
      // The caller stopped early or the call failed: close the upstream request now, not when it times out.
      callSignal.abort();
      reader?.cancel().catch(() => undefined);
    }
  }
}
