/** Where a run's time went, for the gateway-overhead figures (request time minus upstream time). */
export interface RunTiming {
  /** Milliseconds spent waiting on model calls and tool calls (parallel tool calls count once). */
  readonly upstreamMs: number;
  /** upstreamMs at the moment the run's first text was released: what a stream's first byte waited for. */
  readonly upstreamMsAtFirstText?: number;
}

/** Adds up a run's upstream time; the run's handle exposes it read-only as RunTiming. */
export interface RunTimer extends RunTiming {
  /** Counts a call that took `ms`. */
  add(ms: number): void;
  /** Runs `work` and counts its wall time once (a batch of parallel tool calls). */
  measure<T>(work: () => Promise<T>): Promise<T>;
  /** Notes the first released text, `inFlightMs` into a call not yet counted; later calls change nothing. */
  markFirstText(inFlightMs: number): void;
}

export function createRunTimer(): RunTimer {
  let upstreamMs = 0;
  let upstreamMsAtFirstText: number | undefined;
  return {
    get upstreamMs() {
      return upstreamMs;
    },
    get upstreamMsAtFirstText() {
      return upstreamMsAtFirstText;
    },
    add(ms) {
      upstreamMs += ms;
    },
    async measure(work) {
      const started = performance.now();
      try {
        return await work();
      } finally {
        upstreamMs += performance.now() - started;
      }
    },
    markFirstText(inFlightMs) {
      upstreamMsAtFirstText ??= upstreamMs + inFlightMs;
    },
  };
}
