import {
  currentTraceId,
  endRunSpan,
  linksTo,
  recordSpanError,
  setRunId,
  startRunSpan,
  withSpan,
} from '../../telemetry/index.js';
import type { LiveRun, StartRunRequest } from '../control/run-handle.js';

/**
 * Starts a run inside its `invoke_agent` span: everything the run does (model and tool calls, their
 * upstream requests) happens in the span's context. The span ends with the run's result.
 */
export async function traceRun(
  request: StartRunRequest,
  start: (request: StartRunRequest) => Promise<LiveRun>,
): Promise<LiveRun> {
  const span = startRunSpan({
    agentName: request.agentName,
    source: request.source,
    sessionId: request.sessionId,
    links: linksTo(request.traceparent),
  });
  let run: LiveRun;
  try {
    run = await withSpan(span, () => start({ ...request, traceId: currentTraceId() }));
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
