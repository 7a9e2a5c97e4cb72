import { createLeasedWorker, retryWhileUnreachable } from '../../../db/index.js';
import type { InboxStore } from './inbox.store.js';
import type { InboxItem, InboxLaneSettings, InboxOutcome, InboxSourceKind } from './inbox.types.js';
import type { Logger } from '../../../logger.js';

/** A share of the worker: the source kinds it takes, with their own concurrency and retry policy. */
export interface InboxLane {
  kinds: readonly InboxSourceKind[];
  settings: InboxLaneSettings;
}

export interface InboxWorkerOptions {
  store: InboxStore;
  /** A flood of one lane's items never takes another lane's capacity (webhooks vs pollers and listeners). */
  lanes: readonly InboxLane[];
  /** Runs one claimed item's handlers; `stopping()` is true while the worker shuts down. */
  handle(item: InboxItem, stopping: () => boolean): Promise<InboxOutcome>;
  logger: Logger;
  now?: () => Date;
  /** Identifies this worker's claims; unique per process by default. */
  workerId?: string;
  /**
   * Take back every running item at start, without waiting for its lease to lapse. Only right when this
   * process is the database's sole user (embedded SQLite); replicas sharing PostgreSQL rely on leases.
   */
  reclaimAllOnStart?: boolean;
}

/** Runs started since this worker was created, per source (`<kind>:<name>`). */
export interface InboxWorkerStats {
  group: string;
  runs_started: number;
}

export interface InboxWorker {
  /** Recovers items orphaned by a crash, then claims due items until stop(). */
  start(): Promise<void>;
  /** Stops claiming and waits for the items in hand; runs failing meanwhile leave their item pending. */
  stop(): Promise<void>;
  /** Claims now: a new item was stored or queued again. */
  wake(): void;
  /** Claims and handles due items until none is left; resolves with how many it handled. */
  processDue(): Promise<number>;
  stats(): InboxWorkerStats[];
}

const LABEL = 'inbox';

/** The durable inbox's consumer: the leased worker (db/leased-worker.ts) over inbox_items, one lane per share. */
export function createInboxWorker(options: InboxWorkerOptions): InboxWorker {
  const { store, logger, lanes } = options;
  const now = options.now ?? (() => new Date());
  const counters = new Map<string, InboxWorkerStats>();
  const stopped = new AbortController();
  const kindsOf = (lane: number) => lanes[lane].kinds;

  async function handle(item: InboxItem, workerId: string, stopping: () => boolean): Promise<void> {
    const group = `${item.source_kind}:${item.source_name}`;
    const fields = { item_id: item.item_id, source: group, event: item.event, attempt: item.attempts };
    try {
      const outcome = await options.handle(item, stopping);
      const entry = counters.get(group) ?? { group, runs_started: 0 };
      entry.runs_started += outcome.runIds.length - item.run_ids.length;
      counters.set(group, entry);
      // The outcome is known and the claim held (its lease renewed until settled): a database out of reach is
      // waited out, or the item would run again once its lease lapsed.
      const settled = await retryWhileUnreachable(() => store.settle(item.item_id, workerId, outcome), {
        signal: stopped.signal,
      });
      const logged = {
        ...fields,
        status: outcome.status,
        run_ids: outcome.runIds,
        error: outcome.lastError ?? undefined,
      };
      if (!settled) logger.warn(logged, `${LABEL}: item was taken over by another worker; outcome discarded`);
      else if (outcome.status === 'dead')
        logger.error(logged, `${LABEL}: item failed every attempt and is kept as a dead letter`);
      else if (outcome.lastError) logger.warn(logged, `${LABEL}: attempt failed; will retry`);
      else logger.info(logged, `${LABEL}: item handled`);
    } catch (error) {
      // The claim stays; its lease lapses and the item is picked up again.
      logger.error({ ...fields, err: error }, `${LABEL}: item could not be handled`);
    }
  }

  const worker = createLeasedWorker<InboxItem>({
    name: LABEL,
    logger,
    now,
    workerId: options.workerId,
    reclaimAllOnStart: options.reclaimAllOnStart,
    lanes: lanes.map((lane) => lane.settings),
    idOf: (item) => item.item_id,
    handle,
    queue: {
      claimDue: (lane, claim) => store.claimDue({ ...claim, kinds: kindsOf(lane) }),
      nextDueAt: () => store.nextDueAt(lanes.flatMap((lane) => lane.kinds)),
      renewLeases: (_lane, ids, workerId, leaseUntil) => store.renewLeases({ ids, workerId, leaseUntil }),
      releaseStale: (lane, at, all) =>
        store.releaseStale({ now: at, maxAttempts: lanes[lane].settings.max_attempts, kinds: kindsOf(lane), all }),
    },
  });

  return {
    start: () => worker.start(),
    async stop() {
      stopped.abort();
      await worker.stop();
    },
    wake: () => worker.wake(),
    processDue: () => worker.processDue(),
    stats: () => [...counters.values()].map((entry) => ({ ...entry })),
  };
}
