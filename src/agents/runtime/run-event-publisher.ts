import { DEFAULT_LOG_LIMIT, toRunEvent, type RunEvent, type RunEventBody, type RunEventBus } from '../../bus/index.js';
import { isoNow } from '../../ids.js';
import { createError, type AppError } from '../../errors.js';
import type { RunControlStatus } from '../control/run-control.js';
import type { RunFlow } from './run-flow.js';

/** The runtime's side of a run's events: everything goes to the bus, except while the run is paused. */
export interface RunEventPublisher {
  /**
   * Publishes the event, or holds it while the run is paused. Never waits for the bus. Throws
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
   * The run's log as it happened: every event this publisher numbered, whether or not it reached the bus (an
   * outage must not leave holes in the stored log), after the earlier attempts' events of a run taken over;
   * the newest, at most the bus's log limit, oldest first.
   */
  log(): RunEvent[];
}

export interface RunEventPublisherOptions {
  runId: string;
  bus: RunEventBus;
  /** The run's control: events are held while it is paused. */
  control: { readonly status: RunControlStatus };
  /** A failed publish has no caller to throw to: the run goes on and the failure is reported here. */
  onError: (error: unknown) => void;
  /** Counts what went to the bus, for the readers that hold the run back. */
  flow?: RunFlow;
  /** Bytes (UTF-8) of text the run may say; unset: no cap. */
  maxOutputBytes?: number;
  /** A run taken over: the text its earlier attempts said (the output goes on from it). */
  output?: string;
  /**
   * A run taken over: its earlier attempts' events, whole and in order (the log goes on from them, and
   * numbering after the last of them).
   */
  earlier?: readonly RunEvent[];
  /** The seq the first event follows when `earlier` is empty (a takeover that starts a new block). Default 0. */
  afterSeq?: number;
  /** Events log() keeps at most: the bus's own log limit. Default DEFAULT_LOG_LIMIT. */
  logLimit?: number;
}

/** The run said more than its cap: it fails rather than holding an unbounded answer in memory. */
export function outputTooLargeError(limit: number): AppError {
  return createError('output_too_large', { limit });
}

export function createRunEventPublisher(options: RunEventPublisherOptions): RunEventPublisher {
  const { runId, bus, control, onError, flow, maxOutputBytes = Infinity } = options;
  let held: RunEventBody[] = [];
  let output = options.output ?? '';
  let outputBytes = Buffer.byteLength(output);
  let last: Promise<unknown> = Promise.resolve();
  const logLimit = options.logLimit ?? DEFAULT_LOG_LIMIT;
  let kept: RunEvent[] = options.earlier ? [...options.earlier] : [];
  // Numbered here, not by the bus: a Redis that restarted empty must not make the run's numbering start again.
  let seq = kept.at(-1)?.seq ?? options.afterSeq ?? 0;
  // Not awaited one by one: the bus keeps publishes in call order (Redis pipelines them), so a delta costs no round trip here.
  const publish = (body: RunEventBody) => {
    seq += 1;
    const event = toRunEvent(body, runId, seq, isoNow());
    kept.push(event);
    // Trimmed in chunks rather than one shift per event once the log is full.
    if (kept.length >= 2 * logLimit) kept = kept.slice(-logLimit);
    // The same number and time on the bus as in the stored log.
    const reached = bus.publish(runId, body, seq, event.at).catch(onError);
    flow?.published(body);
    last = Promise.all([last, reached]);
  };
  return {
    emit(body) {
      if (body.type === 'text-delta') {
        outputBytes += Buffer.byteLength(body.delta);
        if (outputBytes > maxOutputBytes) throw outputTooLargeError(maxOutputBytes);
        output += body.delta;
      }
      if (control.status === 'paused') held.push(body);
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
      return kept.length > logLimit ? kept.slice(-logLimit) : kept;
    },
  };
}
