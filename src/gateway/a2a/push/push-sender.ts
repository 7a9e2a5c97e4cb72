import { randomBytes } from 'node:crypto';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { V1PushNotificationSerializer, type PushNotificationSender } from '@a2a-js/sdk/server';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import { isoNow } from '../../../ids.js';
import type { Logger } from '../../../logger.js';
import type { A2aPushStore, NewPushDelivery } from './a2a-push.store.js';

const v1 = new V1PushNotificationSerializer();
const v03 = new V03PushNotificationSerializer();

let lastMs = 0;
let sequence = 0;
const processTag = randomBytes(3).toString('hex');

/**
 * `evt_<ms><sequence><process>`: ordered within this process even inside one millisecond, so a config's
 * updates (all written by the process executing the task) are delivered in the order they happened.
 */
function nextDeliveryId(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    sequence = 0;
  }
  sequence += 1;
  return `evt_${ms.toString(16).padStart(12, '0')}${sequence.toString(16).padStart(6, '0')}${processTag}`;
}

/** Stores a task's update in the push outbox, one row per config of the task; resolves once stored. */
export type PushRecorder = (task: Task) => Promise<void>;

/**
 * The executor calls this at each status change of a task (working, input-required, the end) and awaits
 * it before publishing the change: by the time a caller sees a task end, its notification is on disk.
 * Every notification carries the whole task (its answer too), shaped for the version the config was set
 * over.
 */
export function createPushRecorder(options: {
  agentName: string;
  store: A2aPushStore;
  wake(): void;
  logger: Logger;
}): PushRecorder {
  return async (task) => {
    try {
      await record(task);
    } catch (error) {
      // The task goes on: it is this notification that is lost, and the log says so.
      options.logger.error({ err: error, task_id: task.id }, 'a2a push: could not store a task update');
    }
  };

  async function record(task: Task): Promise<void> {
    const configs = await options.store.listConfigs(options.agentName, task.id);
    if (configs.length === 0) return;
    const update: StreamResponse = { payload: { $case: 'task', value: task } };
    const deliveries: NewPushDelivery[] = configs.map((config) => {
      const serializer = config.wireVersion.startsWith('0.') ? v03 : v1;
      const { body, contentType } = serializer.serialize(update, task);
      return {
        delivery_id: nextDeliveryId(),
        agent_name: options.agentName,
        task_id: task.id,
        config_id: config.configId,
        content_type: contentType,
        body,
      };
    });
    await options.store.enqueue(deliveries, isoNow());
    options.wake();
  }
}

/**
 * Given to the SDK so it does not build its own sender (which POSTs at once, fire-and-forget, and forgets
 * on a restart): our executor records every update itself (createPushRecorder).
 */
export const NO_SDK_PUSH_SENDER: PushNotificationSender = { send: () => Promise.resolve() };
