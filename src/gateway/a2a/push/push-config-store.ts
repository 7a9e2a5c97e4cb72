import { randomUUID } from 'node:crypto';
import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { PushNotificationStore, ServerCallContext } from '@a2a-js/sdk/server';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { isoNow } from '../../../ids.js';
import { ownerOfContext } from '../call-context.js';
import type { A2aPushStore } from './a2a-push.store.js';
import type { PushEndpointGuard } from './push-endpoint-guard.js';

export interface PushConfigStoreOptions {
  agentName: string;
  store: A2aPushStore;
  guard: PushEndpointGuard;
  /** Whether the task is `owner`'s; undefined while it does not exist yet (a message that sets a config). */
  isTaskOwnedBy(taskId: string, owner: string): Promise<boolean | undefined>;
}

/**
 * The SDK's push config store over our database. A config belongs to the principal that owns the task;
 * a URL the SSRF rules refuse is refused when it is set (a JSON-RPC invalid-params error naming why).
 */
export function createPushConfigStore(options: PushConfigStoreOptions): PushNotificationStore {
  const { agentName, store } = options;
  return {
    async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig) {
      const reason = await options.guard.refusal(config.url);
      if (reason) throw new RequestMalformedError(`Push notification URL "${config.url}" refused: ${reason}`);
      const owner = ownerOfContext(context);
      // An operator may read another principal's task, but never set where its updates go.
      if ((await options.isTaskOwnedBy(taskId, owner)) === false)
        throw new TaskNotFoundError(`Task not found: ${taskId}`);
      // The SDK's contract: an empty id is assigned here, and the caller reads it from the same object. v0.3's
      // default id is the task's (get and delete without an id find it); a 1.0 config gets a fresh one.
      const wireVersion = context.requestedVersion || A2A_LEGACY_PROTOCOL_VERSION;
      if (!config.id) config.id = wireVersion === A2A_LEGACY_PROTOCOL_VERSION ? taskId : randomUUID();
      await store.saveConfig(
        {
          agentName,
          taskId,
          configId: config.id,
          owner,
          wireVersion,
          config: TaskPushNotificationConfig.toJSON({ ...config, taskId }),
        },
        isoNow(),
      );
    },

    async load(taskId: string, context: ServerCallContext) {
      const configs = await store.listConfigs(agentName, taskId, ownerOfContext(context));
      return configs.map((stored) => TaskPushNotificationConfig.fromJSON(stored.config));
    },

    // Without an id the SDK's own stores delete the config named after the task (v0.3's default id).
    async delete(taskId: string, context: ServerCallContext, configId?: string) {
      await store.deleteConfig(agentName, taskId, configId ?? taskId, ownerOfContext(context));
    },
  };
}
