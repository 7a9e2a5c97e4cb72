import type { PollerConfig } from '../../../config/index.js';
import { injectTraceHeaders, type TraceSpan } from '../../../telemetry/index.js';
import { readPath } from '../read-path.js';

/** Fetches one poll's response and returns its items; throws on a network error, non-2xx answer or unexpected shape. */
export async function fetchPollItems(
  http: PollerConfig['http'],
  fetchImpl: typeof fetch,
  signal: AbortSignal,
  trace?: TraceSpan,
): Promise<unknown[]> {
  const response = await fetchImpl(http.url, {
    method: http.method,
    // The poll span's trace context goes along, so a traced endpoint joins the poll's trace.
    headers: injectTraceHeaders({ accept: 'application/json', ...http.headers }, trace),
    signal: AbortSignal.any([signal, AbortSignal.timeout(http.timeout_seconds * 1000)]),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${http.method} ${http.url} answered ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error(`${http.method} ${http.url} did not answer with JSON`);
  }
  const items = http.items_path ? readPath(body, http.items_path) : body;
  if (!Array.isArray(items))
    throw new Error(
      http.items_path
        ? `items_path "${http.items_path}" is not an array in the response`
        : 'the response is not a JSON array (set items_path)',
    );
  return items as unknown[];
}
