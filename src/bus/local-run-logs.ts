import { isTerminalEvent, type RunEvent } from './events.js';
import type { SyncRunEventSource } from './run-event-source.js';
import { RunLog } from './run-log.js';

interface LocalRun {
  log: RunLog;
  expiry?: NodeJS.Timeout;
}

/**
 * The logs of the runs this process publishes, kept in memory beside Redis: this process's own readers
 * (the run's direct client, attaches that land here) read them as the in-process bus's readers do, so a
 * Redis outage or restart costs them nothing. Redis carries the events to the other processes.
 */
export class LocalRunLogs {
  private readonly limit: number;
  private readonly retentionMs: number;
  private readonly runs = new Map<string, LocalRun>();

  constructor(limit: number, retentionMs: number) {
    this.limit = limit;
    this.retentionMs = retentionMs;
  }

  push(event: RunEvent): void {
    let run = this.runs.get(event.runId);
    // A seq that does not follow is a new attempt's numbering (a run taken over again): it starts a new log.
    if (!run || event.seq !== run.log.lastSeq + 1) {
      if (run) this.drop(event.runId, run);
      run = { log: new RunLog(event.runId, this.limit, event.seq - 1) };
      this.runs.set(event.runId, run);
    }
    run.log.push(event);
    // Once the run's end is stored, attach reads the stored log; the copy here only bridges that moment.
    if (isTerminalEvent(event)) {
      const ended = run;
      ended.expiry = setTimeout(
        () => this.runs.get(event.runId) === ended && this.runs.delete(event.runId),
        this.retentionMs,
      );
      ended.expiry.unref();
    }
  }

  /** A reader of the run's log from `afterSeq` on, when this process holds that part of it; else undefined. */
  read(runId: string, afterSeq: number, signal?: AbortSignal): SyncRunEventSource | undefined {
    const log = this.runs.get(runId)?.log;
    if (!log || log.firstAvailableSeq > afterSeq + 1) return undefined;
    return log.read(afterSeq, signal);
  }

  /** Ends the readers of every log here with `error` (the process leaves; they attach again elsewhere). */
  fail(error: Error): void {
    for (const run of this.runs.values()) run.log.fail(error);
  }

  close(): void {
    for (const [runId, run] of this.runs) this.drop(runId, run);
  }

  private drop(runId: string, run: LocalRun): void {
    clearTimeout(run.expiry);
    run.log.close();
    this.runs.delete(runId);
  }
}
