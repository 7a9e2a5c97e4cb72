/**
 * What an access token may use over A2A beyond its `a2a` scope: which of the agent's skills (card
 * skill ids) and which operations. Null in either list means no restriction on it.
 */
export interface A2aRestrictions {
  skills: string[] | null;
  methods: string[] | null;
}

/**
 * A2A operations by their 1.0 method name, with the v0.3 JSON-RPC name of each. A token names either;
 * it is stored under the 1.0 name, and a call in either version is checked against it.
 */
export const A2A_METHODS: Readonly<Record<string, string>> = {
  SendMessage: 'message/send',
  SendStreamingMessage: 'message/stream',
  GetTask: 'tasks/get',
  ListTasks: 'tasks/list',
  CancelTask: 'tasks/cancel',
  SubscribeToTask: 'tasks/resubscribe',
  CreateTaskPushNotificationConfig: 'tasks/pushNotificationConfig/set',
  GetTaskPushNotificationConfig: 'tasks/pushNotificationConfig/get',
  ListTaskPushNotificationConfigs: 'tasks/pushNotificationConfig/list',
  DeleteTaskPushNotificationConfig: 'tasks/pushNotificationConfig/delete',
  GetExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
};

const BY_LEGACY_NAME = new Map(Object.entries(A2A_METHODS).map(([current, legacy]) => [legacy, current]));

/** The 1.0 name of an A2A method given in either version's spelling; undefined for a name A2A does not define. */
export function canonicalA2aMethod(name: string): string | undefined {
  return name in A2A_METHODS ? name : BY_LEGACY_NAME.get(name);
}

/** Whether the restrictions let a call of `method` (either spelling) through; unknown methods pass, the SDK refuses them. */
export function allowsA2aMethod(restrictions: A2aRestrictions | undefined, method: string): boolean {
  if (!restrictions?.methods) return true;
  const canonical = canonicalA2aMethod(method);
  return canonical === undefined || restrictions.methods.includes(canonical);
}

export function allowsA2aSkill(restrictions: A2aRestrictions | undefined, skillId: string): boolean {
  return !restrictions?.skills || restrictions.skills.includes(skillId);
}
