/** What the bench asks its load-generator process to do, and what comes back (over IPC, so plain data). */

/** Closed loop (`rate` unset: each connection sends its next request when the previous answer arrived) or open loop. */
export interface HttpLoadJob {
  kind: 'http';
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** Requests per second across all connections: open loop. */
  rate?: number;
  /** Gives every request a unique webhook body signed with hex HMAC-SHA256 in this header. */
  sign?: { secret: string; header: string };
}

export interface HttpLoadResult {
  /** Answers with a 2xx status. */
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  seconds: number;
  /** Latency of every 2xx answer, ms with sub-ms resolution (autocannon's own histogram rounds to whole ms). */
  latenciesMs: number[];
}

/** Streamed chat completions from `concurrency` clients, each timestamping every chunk. */
export interface StreamLoadJob {
  kind: 'stream';
  url: string;
  headers: Record<string, string>;
  body: string;
  concurrency: number;
  seconds: number;
}

export interface StreamLoadResult {
  requests: number;
  errors: number;
  /** Request sent to first content chunk received. */
  ttftMs: number[];
  /** Between two consecutive content chunks of one response. */
  gapMs: number[];
  /** Upstream wrote a chunk (its stamp) to the client received it. */
  lagMs: number[];
  chunks: number;
}

/** `subscribers` SSE clients attached with GET /agui/ws?run_id= to a run the bench started with POST /agui/runs. */
export interface FanoutJob {
  kind: 'fanout';
  baseUrl: string;
  apiKey: string;
  runId: string;
  subscribers: number;
  /** Attach requests in flight at once, in this process. */
  attachBatch: number;
  timeoutMs: number;
}

export interface FanoutResult {
  attached: number;
  failed: number;
  /** Epoch ms (comparable across processes): the first attach request, the last subscriber's 200. */
  attachStartedAt: number;
  attachedAt: number;
  /** Stamp and arrival (epoch ms) of every chunk stamped after this process's last attach, flattened: [stamp, at, stamp, at, …]. */
  deliveries: number[];
  /** Stamped chunks each subscriber received, fewest and most. */
  chunksPerSubscriber: { min: number; max: number };
  /** Subscriber streams that ended before the run did, or errored. */
  dropped: number;
  /** The load process itself from the last attach to the last stream's end: a saturated client shows here. */
  client: {
    cpuMs: number;
    deliveryMs: number;
    eventLoopDelayP50Ms: number;
    eventLoopDelayP99Ms: number;
    eventLoopDelayMaxMs: number;
  };
}

export type LoadJob = HttpLoadJob | StreamLoadJob | FanoutJob;
export type LoadResult<J extends LoadJob> = J extends HttpLoadJob
  ? HttpLoadResult
  : J extends StreamLoadJob
    ? StreamLoadResult
    : FanoutResult;
