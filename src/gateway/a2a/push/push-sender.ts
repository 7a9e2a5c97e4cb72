import { randomBytes } from 'node:crypto';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { V1PushNotificationSerializer, type PushNotificationSender } from '@a2a-js/sdk/server';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import { isoNow } from '../../../ids.js';
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

/**
 * The SDK calls this for every event of a task it processes. Status changes (and the task itself) are
 * stored in the push outbox, one row per config, before the SDK goes on to the next event: once a caller
 * has seen a task end, its notification is on disk. Streamed artifact chunks are not pushed; every
 * notification carries the whole task (with its artifacts), so the last one holds the answer.
 */
export function createPushSender(options: {
  agentName: string;
  store: A2aPushStore;
  wake(): void;
}): PushNotificationSender {
  return {
    async send(streamResponse: StreamResponse, _context, task?: Task) {
      const payload = streamResponse.payload;
      if (payload?.$case !== 'task' && payload?.$case !== 'statusUpdate') return;
      const taskId = payload.$case === 'task' ? payload.value.id : payload.value.taskId;
      const configs = await options.store.listConfigs(options.agentName, taskId);
      if (configs.length === 0) return;
      const snapshot: StreamResponse = { payload: { $case: 'task', value: task ?? taskOf(payload) } };
      const deliveries: NewPushDelivery[] = configs.map((config) => {
        const serializer = config.wireVersion.startsWith('0.') ? v03 : v1;
        const { body, contentType } = serializer.serialize(snapshot, task);
        return {
          delivery_id: nextDeliveryId(),
          agent_name: options.agentName,
          task_id: taskId,
          config_id: config.configId,
          content_type: contentType,
          body,
        };
      });
      await options.store.enqueue(deliveries, isoNow());
      options.wake();
    },
  };
}

function taskOf(payload: NonNullable<StreamResponse['payload']>): Task {
  if (payload.$case === 'task') return payload.value;
  if (payload.$case !== 'statusUpdate') throw new Error(`no task in a ${payload.$case} event`);
  const update = payload.value;
  return {
    id: update.taskId,
    contextId: update.contextId,
    status: update.status,
    artifacts: [],
    history: [],
    metadata: update.metadata,
  };
}
