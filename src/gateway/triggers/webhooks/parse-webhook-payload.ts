import { JsonTooDeepError, ValidationError } from '../../../errors.js';
import { exceedsJsonDepth } from '../../../http/index.js';

export type WebhookPayload = Record<string, unknown>;

/**
 * Parses a verified body. JSON normally; `application/x-www-form-urlencoded` with a `payload` field
 * (GitHub's form content type, Slack interactivity) carries the same JSON inside that field.
 * JSON nested deeper than `maxJsonDepth` is refused here, so it is never stored to fail every handler run.
 */
export function parseWebhookPayload(
  body: Buffer,
  contentType: string | undefined,
  maxJsonDepth: number,
): { payload: WebhookPayload; json: string } {
  let json = body.toString('utf8');
  if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const field = new URLSearchParams(json).get('payload');
    if (field === null)
      throw new ValidationError(
        'A form-encoded webhook body must carry the JSON in a "payload" field',
        'invalid_payload',
      );
    json = field;
  }
  if (exceedsJsonDepth(json, maxJsonDepth)) throw new JsonTooDeepError(maxJsonDepth);
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    throw new ValidationError('The webhook body is not valid JSON', 'invalid_json');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new ValidationError('The webhook body must be a JSON object', 'invalid_payload');
  }
  return { payload: payload as WebhookPayload, json };
}
