import { createCallSignal, type CallSignal } from './call-signal.js';
import { mapCallFailure, type ModelCall, type RouteTarget } from './model-call.js';
import type { PartReader } from './model-transport.js';
import { runWithRetries, type OpenedAttempt } from './run-with-retries.js';
import type { StallWatch } from './routing/stall-watch.js';
import { StreamCollector } from './stream-collector.js';
import type { ModelStreamPart } from './types.js';

interface OpenedStream {
  reader: PartReader;
  collector: StreamCollector;
  first?: ModelStreamPart;
}

/**
 * Reads until the first text or tool call (or the end); until then a failure may still be retried or move on.
 * Usage reported before it stays in the collector: an attempt that failed that early is not billed.
 */
async function openStream(call: ModelCall, target: RouteTarget, stall: StallWatch): Promise<OpenedStream> {
  const reader = await target.entry.openStream(target.modelId, call.request, stall.signal);
  const collector = new StreamCollector();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { reader, collector };
      stall.touch();
      const first = collector.accept(value);
      if (first && first.type !== 'usage') return { reader, collector, first };
    }
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  }
}

/**
 * One streamed model call: retried and moved to the next target only before its first part, bounded by each
 * target's deadline (and the call's budget), stopped by the caller's signal.
 */
export async function* streamModelCall(call: ModelCall): AsyncGenerator<ModelStreamPart> {
  const budget: CallSignal | undefined =
    call.budgetMs === undefined ? undefined : createCallSignal(call.budgetMs, call.request.signal);
  let opened: OpenedAttempt<OpenedStream> | undefined;
  let finished = false;
  try {
    opened = await runWithRetries(call, budget, (target, stall) => openStream(call, target, stall));
    const { value: stream, target, signals } = opened;
    if (stream.first) yield stream.first;
    for (;;) {
      let part: ModelStreamPart | undefined;
      try {
        const { done, value } = await stream.reader.read();
        if (done) break;
        signals.stall.touch();
        part = stream.collector.accept(value);
      } catch (error) {
        const failure = mapCallFailure(error, call, target, signals);
        reportOpened(call, opened, { status: 'failed', reason: failure.reason });
        throw failure.error;
      }
      if (part) yield part;
    }
    const end = stream.collector.end(call.request);
    finished = true;
    disposeSignals(opened, budget);
    reportOpened(call, opened, { status: 'ok' });
    yield end;
  } finally {
    disposeSignals(opened, budget);
    if (opened && !finished) {
      // The caller stopped early or the call failed: close the upstream request now, not when it times out.
      opened.signals.stall.abort();
      opened.value.reader.cancel().catch(() => undefined);
    }
  }
}

function disposeSignals(opened: OpenedAttempt<OpenedStream> | undefined, budget: CallSignal | undefined): void {
  opened?.signals.stall.dispose();
  opened?.signals.target.dispose();
  budget?.dispose();
}

/** The attempt that answered, as the last line of the step's prompt log. */
function reportOpened(
  call: ModelCall,
  opened: OpenedAttempt<OpenedStream>,
  outcome: { status: 'ok' } | { status: 'failed'; reason: string },
): void {
  call.request.onAttempt?.({
    model: opened.target.ref,
    latencyMs: Math.round(performance.now() - opened.startedMs),
    ...outcome,
  });
}
