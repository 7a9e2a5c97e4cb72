import { CancelledError, type AppError, type CodeOf } from '../../errors.js';

/** Where a run stands as its controller sees it: live (running, paused, cancel under way) or ended. */
export type RunControlStatus = 'running' | 'paused' | 'cancelled' | 'completed' | 'failed';

/**
 * What the runtime loop awaits before every model call, every tool call and before completion.
 * `checkpoint()` waits while the run is paused, and throws once the run is cancelled.
 */
export interface RunControl {
  /** Aborted when the run is cancelled; reaches the upstream request and tool calls. */
  readonly signal: AbortSignal;
  checkpoint(): Promise<void>;
}

/** The owner's side of a run's control: the runtime sees only RunControl. */
export interface RunController extends RunControl {
  readonly status: RunControlStatus;
  /** Why the run was cancelled, once it was. */
  readonly cancellation: AppError | undefined;
  /** Aborts the run at once; the run ends `cancelled` with this error. Ignored once cancelled or ended. */
  cancel(error?: AppError): void;
  /** Holds the run at its next checkpoint; false unless it is running. */
  pause(): boolean;
  /** Lets a paused run continue from its checkpoint; false unless it is paused. */
  resume(): boolean;
  /** The loop is over: later commands are refused. A cancelled run stays `cancelled`. */
  end(status: 'completed' | 'failed' | 'cancelled'): void;
  /** Called synchronously on every status change, before waiting checkpoints continue. */
  onChange(listener: (status: RunControlStatus) => void): void;
}

export interface RunControlOptions {
  /** Cancels the run when it aborts (e.g. the server shutting down). */
  signal?: AbortSignal;
  /** Runs first at every checkpoint: in multi-process mode it applies commands other processes persisted. */
  beforeCheckpoint?: () => Promise<void>;
}

export function cancelledError(message?: string, code: CodeOf<'cancelled_error'> = 'cancelled'): AppError {
  return new CancelledError(message, code);
}

/** The client of a streamed response went away before the run ended. */
export const CLIENT_CLOSED = (): AppError =>
  cancelledError('The client closed the stream before the run finished', 'client_closed');

/** The client of a streamed response stopped reading for longer than the stall timeout (server.stalled_client_timeout_seconds). */
export const CLIENT_STALLED = (): AppError =>
  cancelledError('The client stopped reading the stream for longer than the stall timeout', 'client_stalled');

export function createRunControl(options: RunControlOptions = {}): RunController {
  const abort = new AbortController();
  const listeners: ((status: RunControlStatus) => void)[] = [];
  let status: RunControlStatus = 'running';
  let cancellation: AppError | undefined;
  // Resolved (never rejected) whenever the run leaves `paused`; checkpoints then look at the status again.
  let wake: { promise: Promise<void>; resolve: () => void } | undefined;

  const move = (next: RunControlStatus) => {
    status = next;
    for (const listener of listeners) listener(next);
    wake?.resolve();
    wake = undefined;
  };
  const cancel = (error: AppError = cancelledError()) => {
    if (status !== 'running' && status !== 'paused') return;
    cancellation = error;
    abort.abort(error);
    move('cancelled');
  };
  if (options.signal?.aborted) cancel();
  else options.signal?.addEventListener('abort', () => cancel(), { once: true });

  return {
    signal: abort.signal,
    get status() {
      return status;
    },
    get cancellation() {
      return cancellation;
    },
    cancel,
    pause: () => status === 'running' && (move('paused'), true),
    resume: () => status === 'paused' && (move('running'), true),
    end(final) {
      if (status === 'running' || status === 'paused') move(final);
    },
    onChange(listener) {
      listeners.push(listener);
    },
    async checkpoint() {
      await options.beforeCheckpoint?.();
      for (;;) {
        if (cancellation) throw cancellation;
        if (status !== 'paused') return;
        wake ??= withResolvers();
        await wake.promise;
      }
    },
  };
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
