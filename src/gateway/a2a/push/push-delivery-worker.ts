import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { A2aPushConfig } from '../../../config/index.js';
import { afterFailedAttempt, createLeasedWorker } from '../../../db/index.js';
import { isoNow } from '../../../ids.js';
import type { Logger } from '../../../logger.js';
import type { A2aPushStore, PushDelivery, PushDeliveryOutcome } from './a2a-push.store.js';
import type { PushEndpointGuard } from './push-endpoint-guard.js';

/** The header v0.3 peers (and the SDK's own sender) read a config's plain `token` from. */
const TOKEN_HEADER = 'X-A2A-Notification-Token';
/** Deliveries POSTed at once by one process. */
const CONCURRENCY = 8;

export interface PushDeliveryWorker {
  /** Claims due deliveries until stop(); rows a stopped process left claimed are taken once their lease lapses. */
  start(): void;
  /** Stops claiming and waits for the POSTs in hand. */
  stop(): Promise<void>;
  /** A delivery was stored: claim now. */
  wake(): void;
}

export interface PushDeliveryWorkerOptions {
  store: A2aPushStore;
  guard: PushEndpointGuard;
  settings: A2aPushConfig;
  logger: Logger;
}

/**
 * POSTs stored task updates to their push configs: in order per config, with the config's token or
 * authentication, retried with doubling backoff until `max_attempts`, then kept as dead. Every replica
 * runs one (the leased worker of db/leased-worker.ts); a claim is a lease in the shared database, so each
 * update goes to one of them at a time.
 */
export function createPushDeliveryWorker(options: PushDeliveryWorkerOptions): PushDeliveryWorker {
  const { store, guard, settings, logger } = options;

  async function deliver(delivery: PushDelivery, workerId: string): Promise<void> {
    const fields = { task_id: delivery.task_id, config_id: delivery.config_id, attempt: delivery.attempts };
    let outcome: PushDeliveryOutcome;
    try {
      outcome = await attempt(delivery);
    } catch (error) {
      // The lease lapses and the delivery is tried again.
      logger.error({ ...fields, err: error }, 'a2a push: delivery could not be attempted');
      return;
    }
    if (!(await store.settle(delivery.delivery_id, workerId, outcome)))
      logger.warn(fields, 'a2a push: delivery was taken over by another worker');
    else if (outcome.status === 'dead')
      logger.error({ ...fields, error: outcome.lastError }, 'a2a push: delivery given up');
    else if (outcome.status === 'pending')
      logger.warn({ ...fields, error: outcome.lastError }, 'a2a push: delivery failed; will retry');
  }

  async function attempt(delivery: PushDelivery): Promise<PushDeliveryOutcome> {
    const configs = await store.listConfigs(delivery.agent_name, delivery.task_id);
    const stored = configs.find((config) => config.configId === delivery.config_id);
    if (!stored) return { status: 'dead', finishedAt: isoNow(), lastError: 'the push config was deleted' };
    const config = TaskPushNotificationConfig.fromJSON(stored.config);
    let failure: string;
    try {
      const status = await guard.post(config.url, {
        headers: { 'content-type': delivery.content_type, ...authHeaders(config) },
        body: delivery.body,
        timeoutMs: settings.timeout_ms,
      });
      if (status >= 200 && status < 300) return { status: 'done', finishedAt: isoNow(), lastError: null };
      failure = `HTTP ${status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    return { ...afterFailedAttempt(delivery.attempts, settings), lastError: failure };
  }

  const worker = createLeasedWorker<PushDelivery>({
    name: 'a2a push',
    logger,
    lanes: [
      { concurrency: CONCURRENCY, lease_seconds: settings.lease_seconds, poll_interval_ms: settings.poll_interval_ms },
    ],
    // claimDue takes rows whose lease lapsed itself (releaseStale is not needed); a head blocked by its
    // config's running delivery is due but not claimable, so the timer waits at least this long.
    minDelayMs: 10,
    idOf: (delivery) => delivery.delivery_id,
    handle: deliver,
    queue: {
      claimDue: (_lane, claim) => store.claimDue(claim),
      nextDueAt: () => store.nextDueAt(),
    },
  });

  return {
    start() {
      void worker.start();
    },
    stop: () => worker.stop(),
    wake: () => worker.wake(),
  };
}

/** As the SDK's sender: `authentication` becomes an Authorization header, else a plain `token` its own header. */
function authHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  if (config.authentication?.scheme && config.authentication.credentials)
    return { authorization: `${config.authentication.scheme} ${config.authentication.credentials}` };
  return config.token ? { [TOKEN_HEADER]: config.token } : {};
}
