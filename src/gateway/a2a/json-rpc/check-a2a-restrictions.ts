import { allowsA2aMethod, allowsA2aSkill, type Principal } from '../../../auth/index.js';
import { PermissionError } from '../../../errors.js';

/** Where a message names the skill it asks for: `message.metadata.skill_id`, a skill id of the agent's card. */
export const SKILL_METADATA_KEY = 'skill_id';

const MESSAGE_METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

/**
 * Refuses (403, answered as a JSON-RPC error) a call its access token's A2A restrictions do not allow:
 * a method it may not call, or a message for a skill it may not use. A token limited to one skill
 * uses that skill when the message names none; limited to several, the message must name one.
 */
export function checkA2aRestrictions(principal: Principal, body: { method: string; params?: unknown }): void {
  if (principal.kind !== 'access_token' || !principal.a2a) return;
  const restrictions = principal.a2a;
  if (!allowsA2aMethod(restrictions, body.method))
    throw new PermissionError(`This access token may not call ${body.method}`, 'a2a_method_not_allowed');
  // A message that sets where the task's updates go sets a push config: it needs that method too.
  if (
    MESSAGE_METHODS.has(body.method) &&
    setsPushConfig(body.params) &&
    !allowsA2aMethod(restrictions, 'CreateTaskPushNotificationConfig')
  )
    throw new PermissionError(
      'This access token may not set push notification configs (CreateTaskPushNotificationConfig)',
      'a2a_method_not_allowed',
    );
  if (!MESSAGE_METHODS.has(body.method) || !restrictions.skills) return;
  const skill = skillOf(body.params);
  if (skill === undefined) {
    if (restrictions.skills.length === 1) return;
    throw new PermissionError(
      `This access token may use only some skills: name one in message.metadata.${SKILL_METADATA_KEY} (${restrictions.skills.join(', ')})`,
      'a2a_skill_required',
    );
  }
  if (!allowsA2aSkill(restrictions, skill))
    throw new PermissionError(`This access token may not use the skill "${skill}"`, 'a2a_skill_not_allowed');
}

/** 1.0 names it `taskPushNotificationConfig` (proto-JSON may spell it snake_case), v0.3 `pushNotificationConfig`. */
function setsPushConfig(params: unknown): boolean {
  const configuration = (params as { configuration?: Record<string, unknown> } | undefined)?.configuration;
  return (
    configuration?.taskPushNotificationConfig != null ||
    configuration?.task_push_notification_config != null ||
    configuration?.pushNotificationConfig != null
  );
}

function skillOf(params: unknown): string | undefined {
  const metadata = (params as { message?: { metadata?: Record<string, unknown> } } | undefined)?.message?.metadata;
  const skill = metadata?.[SKILL_METADATA_KEY];
  return typeof skill === 'string' && skill !== '' ? skill : undefined;
}
