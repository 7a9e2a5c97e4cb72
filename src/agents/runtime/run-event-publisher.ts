import { DEFAULT_LOG_LIMIT, type RunEvent, type RunEventBody, type RunEventBus } from '../../bus/index.js';
import { createError, type AppError } from '../../errors.js';
import type { RunFlow } from './run-flow.js';

/** The runtime's side of a run's events: everything goes to the bus, except while the run is paused. */
export interface RunEventPublisher {
  /**
   * Publishes the event, or holds it while `isHeld()` says so. Never waits for the bus. Throws
   * output_too_large for a text delta that would take the run's output past `maxOutputBytes`.
   */
  emit: (body: RunEventBody) => void;
  /** Publishes the held events, in order (on resume, and before the terminal event). */
  release(): void;
  /** Every text the agent said, held or not: the run's output. */
  readonly output: string;
  /** Resolves once every event published so far reached the bus (or failed to). */
  settled(): Promise<void>;
  /**
   * The run's log as this publisher wrote it to the bus (after `settled()`): the newest events, at most the
   * bus's log limit, oldest first. Undefined when the log holds events this publisher did not write (a run
   * taken over: its earlier attempts published from another process), so the bus has to be read back.
   */
  log(): RunEvent[] | undefined;
}

export interface RunEventPublisherOptions {
  runId: string;
  bus: RunEventBus;
  isHeld: () => boolean;
  /** A failed publish has no caller to throw to: the run goes on and the failure is reported here. */
  onError: (error: unknown) => void;
  /** Counts what reached the bus, for the readers that hold the run back. */
  flow?: RunFlow;
  /** Bytes (UTF-8) of text the run may say; unset: no cap. */
  maxOutputBytes?: number;
  /** A run taken over: the text its earlier attempts said (the output goes on from it). */
  output?: string;
  /** Events of this run already on the bus from elsewhere (a takeover): log() then returns undefined. */
  continued?: boolean;
  /** Events log() keeps at most: the bus's own log limit. Default DEFAULT_LOG_LIMIT. */
  logLimit?: number;
}

/** The run said more than its cap: it fails rather than holding an unbounded answer in memory. */
export function outputTooLargeError(limit: number): AppError {
  return createError('output_too_large', { limit });
}

export function createRunEventPublisher(options: RunEventPublisherOptions): RunEventPublisher {
  const { runId, bus, isHeld, onError, flow, maxOutputBytes = Infinity } = options;
  let held: RunEventBody[] = [];
  let output = options.output ?? '';
  let outputBytes = Buffer.byteLength(output);
  let last: Promise<unknown> = Promise.resolve();
  // What reached the bus, kept for the run's persisted log: reading it back from Redis at the run's end
  // cost a round trip and the decoding of every entry (bench/README.md, optimisation log).
  const logLimit = options.logLimit ?? DEFAULT_LOG_LIMIT;
  let kept: RunEvent[] | undefined = options.continued ? undefined : [];
  let unordered = false;
  const keep = (event: RunEvent) => {
    if (!kept) return;
    if (kept.length > 0 && kept[kept.length - 1].seq > event.seq) unordered = true;
    kept.push(event);
    // Trimmed in chunks rather than one shift per event once the log is full.
    if (kept.length >= 2 * logLimit) kept = kept.slice(-logLimit);
  };
  // Not awaited one by one: the bus keeps publishes in call order (Redis pipelines them), so a delta costs no round trip here.
  const publish = (body: RunEventBody) => {
    const reached = bus.publish(runId, body).then((event) => {
      keep(event);
      flow?.published(body);
    }, onError);
    last = Promise.all([last, reached]);
  };
  return {
    emit(body) {
      if (body.type === 'text-delta') {
        outputBytes += Buffer.byteLength(body.delta);
        if (outputBytes > maxOutputBytes) throw outputTooLargeError(maxOutputBytes);
        output += body.delta;
      }
      if (isHeld()) held.push(body);
      else publish(body);
    },
    release() {
      const pending = held;
      held = [];
      for (const body of pending) publish(body);
    },
    get output() {
      return output;
    },
    async settled() {
      await last;
    },
    log() {
      if (!kept) return undefined;
      const events = unordered ? [...kept].sort((a, b) => a.seq - b.seq) : kept;
      return events.length > logLimit ? events.slice(-logLimit) : events;
    },
  };
}
