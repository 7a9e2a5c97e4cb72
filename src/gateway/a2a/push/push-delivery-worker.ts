import { randomUUID } from 'node:crypto';
import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { A2aPushConfig } from '../../../config/index.js';
import { isoAfterSeconds, isoNow } from '../../../ids.js';
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
 * runs one; a claim is a lease in the shared database, so each update goes to one of them at a time.
 */
export function createPushDeliveryWorker(options: PushDeliveryWorkerOptions): PushDeliveryWorker {
  const { store, guard, settings, logger } = options;
  const workerId = randomUUID();
  const inHand = new Map<string, Promise<void>>();
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let claiming = false;
  let claimAgain = false;

  async function deliver(delivery: PushDelivery): Promise<void> {
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
    if (delivery.attempts >= settings.max_attempts) return { status: 'dead', finishedAt: isoNow(), lastError: failure };
    const delay = Math.min(settings.backoff_seconds * 2 ** (delivery.attempts - 1), settings.max_backoff_seconds);
    return { status: 'pending', nextAttemptAt: isoAfterSeconds(delay), lastError: failure };
  }

  async function claim(): Promise<void> {
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = true;
    try {
      do {
        claimAgain = false;
        if (!started) break;
        const claimed = await store.claimDue({
          now: isoNow(),
          workerId,
          leaseUntil: isoAfterSeconds(settings.lease_seconds),
          limit: CONCURRENCY - inHand.size,
        });
        for (const delivery of claimed) {
          const done = deliver(delivery).finally(() => {
            inHand.delete(delivery.delivery_id);
            // The next update of the same config may be due now.
            if (started) wake();
          });
          inHand.set(delivery.delivery_id, done);
        }
      } while (claimAgain && started);
    } finally {
      claiming = false;
    }
  }

  function wake(): void {
    claim().catch((error: unknown) => logger.error({ err: error }, 'a2a push: claim failed'));
  }

  async function tick(): Promise<void> {
    let delayMs = settings.poll_interval_ms;
    try {
      await claim();
      const due = await store.nextDueAt();
      if (due !== undefined) delayMs = Math.max(10, Math.min(delayMs, Date.parse(due) - Date.now()));
    } catch (error) {
      logger.error({ err: error }, 'a2a push: poll failed');
    } finally {
      if (started) {
        timer = setTimeout(() => void tick(), delayMs);
        timer.unref();
      }
    }
  }

  return {
    start() {
      if (started) return;
      started = true;
      void tick();
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await Promise.allSettled([...inHand.values()]);
    },
    wake() {
      if (started) wake();
    },
  };
}

/** As the SDK's sender: `authentication` becomes an Authorization header, else a plain `token` its own header. */
function authHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  if (config.authentication?.scheme && config.authentication.credentials)
    return { authorization: `${config.authentication.scheme} ${config.authentication.credentials}` };
  return config.token ? { [TOKEN_HEADER]: config.token } : {};
}
