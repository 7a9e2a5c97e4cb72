import { endRunSpan, linksTo, recordSpanError, setRunId, spanTraceId, startRunSpan } from '../../telemetry/index.js';
import type { LiveRun, StartRunRequest } from '../control/run-handle.js';

/**
 * Starts a run with its `invoke_agent` span, a child of the request's span: the span travels with the run
 * (its setup), so its model and tool calls are the span's children and send its trace upstream. The span
 * ends with the run's result.
 */
export async function traceRun(
  request: StartRunRequest,
  start: (request: StartRunRequest) => Promise<LiveRun>,
): Promise<LiveRun> {
  const span = startRunSpan(
    {
      agentName: request.agentName,
      source: request.source,
      sessionId: request.sessionId,
      links: linksTo(request.traceparent),
    },
    request.parentSpan,
  );
  let run: LiveRun;
  try {
    // Not `{ ...request, … }`: V8 would give each run's request a map of its own.
    run = await start(Object.assign({}, request, { runSpan: span, traceId: spanTraceId(span) }));
  } catch (error) {
    recordSpanError(span, error);
    span.end();
    throw error;
  }
  setRunId(span, run.runId);
  void run.handle.result.then((result) =>
    endRunSpan(span, {
      runId: result.runId,
      status: result.status,
      costUsd: result.costUsd,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      finishReason: result.status === 'completed' ? result.finishReason : undefined,
      error: result.status === 'completed' ? undefined : result.error,
    }),
  );
  return run;
}
