import { AppError } from '../errors.js';

/**
 * What the runtime loop awaits before every model call, every tool call and before completion.
 * Run control (pause/resume) plugs in here: `checkpoint()` may wait, and throws once the run is cancelled.
 */
export interface RunControl {
  /** Aborted when the run is cancelled; reaches the upstream request and tool calls. */
  readonly signal: AbortSignal;
  checkpoint(): Promise<void>;
}

/** The owner's side of a run's control: the runtime sees only RunControl. */
export interface RunController extends RunControl {
  /** Aborts the run at once; the run ends `cancelled` with this error. A second call is ignored. */
  cancel(error?: AppError): void;
  /** Why the run was cancelled, once it was. */
  readonly cancellation: AppError | undefined;
}

export function cancelledError(message = 'The run was cancelled', code = 'cancelled'): AppError {
  return new AppError({ type: 'conflict_error', code, status: 409, message });
}

/** The client of a streamed response went away before the run ended. */
export const CLIENT_CLOSED = (): AppError => cancelledError('The client closed the stream before the run finished', 'client_closed');

/** `signal`, when given, cancels the run when it aborts (e.g. the server shutting down). */
export function createRunControl(options: { signal?: AbortSignal } = {}): RunController {
  const abort = new AbortController();
  let cancellation: AppError | undefined;
  const cancel = (error: AppError = cancelledError()) => {
    if (cancellation) return;
    cancellation = error;
    abort.abort(error);
  };
  if (options.signal?.aborted) cancel();
  else options.signal?.addEventListener('abort', () => cancel(), { once: true });
  return {
    signal: abort.signal,
    get cancellation() {
      return cancellation;
    },
    cancel,
    async checkpoint() {
      if (cancellation) throw cancellation;
    },
  };
}
