import type { RunControlCommand, RunControlHandler } from './run-event-bus.js';

export const RUN_CONTROL_COMMANDS: readonly RunControlCommand[] = ['pause', 'resume', 'cancel'];

export function isRunControlCommand(value: unknown): value is RunControlCommand {
  return typeof value === 'string' && (RUN_CONTROL_COMMANDS as readonly string[]).includes(value);
}

/** The process-local set of onControl handlers; one throwing handler must not starve the others. */
export class ControlHandlers {
  private readonly handlers = new Set<RunControlHandler>();
  private readonly onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.onError = onError;
  }

  add(handler: RunControlHandler): () => void {
    this.handlers.add(handler);
    return () => {
      this.handlers.delete(handler);
    };
  }

  dispatch(runId: string, command: RunControlCommand): void {
    for (const handler of this.handlers) {
      try {
        handler(runId, command);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  clear(): void {
    this.handlers.clear();
  }
}
