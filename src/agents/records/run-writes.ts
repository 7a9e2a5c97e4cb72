import type { RunEvent } from '../../bus/index.js';
import type { Write } from '../../db/index.js';
import type { RunStore } from './run.store.js';
import type { NewRunRecord, ResumeInput, RunEnd, StepRecord } from './run.types.js';

/**
 * One run's writes in the order the store needs them: the run's row first, then its steps, status
 * changes and end. The insert is queued, not awaited, so the first model call starts while it commits;
 * every later write waits for it (a step's row refers to the run's).
 */
export interface RunWrites {
  /** The run's own insert; rejects when the run could not be recorded. */
  readonly inserted: Promise<void>;
  /**
   * Queues the run's insert (a new run; called once, before any model call); `before` commits with it,
   * ahead of it (a new session's insert).
   */
  readonly insert: (run: NewRunRecord, resume?: ResumeInput, before?: Write) => void;
  /**
   * Queues the insert again, retried until the database takes it: for a run whose insert failed because the
   * database stayed out of reach, so that it is still recorded (with its end and usage) once it is back.
   */
  readonly insertOnceBack: () => void;
  readonly insertStep: (step: StepRecord) => Promise<void>;
  /** Stores running/paused, one write after the other (a pause and a quick resume must land in that order). */
  readonly writeStatus: (status: 'running' | 'paused') => Promise<void>;
  /**
   * Rejects when the run was taken over by another process meanwhile (its attempt moved on): nothing is
   * written. `after` commits with the end (a session's new turns).
   */
  readonly finish: (end: RunEnd, events: RunEvent[], after?: Write) => Promise<void>;
}

/**
 * `stored`: a run taken over, whose row exists already; `attempt`: the run's attempt this process executes
 * (1 for a new run, the claimed count for a takeover), the only one whose end it may write.
 */
export function createRunWrites(
  store: RunStore,
  runId: string,
  options: { stored?: boolean; attempt?: number } = {},
): RunWrites {
  const attempt = options.attempt ?? 1;
  let begin: (insert: Promise<void>) => void = () => undefined;
  const inserted = options.stored
    ? Promise.resolve()
    : new Promise<void>((resolve, reject) => {
        begin = (insert) => void insert.then(resolve, reject);
      });
  inserted.catch(() => undefined);
  // What the end waits for: the insert, or the insert queued again once it failed.
  let stored = inserted;
  let queued: Parameters<RunWrites['insert']> | undefined;
  let statusWrites: Promise<void> = inserted;
  return {
    inserted,
    // Queued from the check phase: undici writes a request on an idle keep-alive socket only there (a
    // setImmediate of its own), and the group commit, queued at once, would commit synchronously ahead of it.
    // Queued one turn later, the commit runs after the model request is on the wire, while the upstream works.
    insert: (run, resume, before) => {
      queued = [run, resume, before];
      setImmediate(() => begin(store.insertRun(run, resume, { before })));
    },
    insertOnceBack: () => {
      if (!queued) return;
      const [run, resume, before] = queued;
      stored = store.insertRun(run, resume, { before, persistent: true });
    },
    insertStep: (step) => inserted.then(() => store.insertStep(step)),
    writeStatus: (status) => {
      statusWrites = statusWrites.catch(() => undefined).then(() => store.setActiveStatus(runId, status));
      return statusWrites;
    },
    finish: async (end, events, after) => {
      await stored;
      if (!(await store.finishRun(runId, end, events, { attempt, after })))
        throw new Error(
          `run ${runId} was taken over by another process after attempt ${attempt}: its end was not written`,
        );
    },
  };
}
