import { z } from 'zod';
import { UpstreamError } from '../../errors.js';
import type { Clock } from '../autopilot.types.js';
import { parseQuotaHeader, type ServiceQuota } from '../parse-quota-header.js';
import { signedHeaders } from './sign-request.js';

/** A blueprint as the service sends it: JSON text (an object is accepted and turned into text). */
const blueprintText = z.union([
  z.string(),
  z.record(z.string(), z.unknown()).transform((value) => JSON.stringify(value)),
]);
const candidatesBody = z.object({
  candidates: z.array(z.object({ blueprint_json: blueprintText, score: z.number() })),
});
const generatedBody = z.object({ blueprint_json: blueprintText, confidence: z.number().optional() });
const enrolledBody = z.object({
  instance_secret: z.string().regex(/^[0-9a-fA-F]{16,}$/, 'instance_secret must be hex'),
});

export type BlueprintCandidate = z.infer<typeof candidatesBody>['candidates'][number];
export type GeneratedBlueprint = z.infer<typeof generatedBody>;

export interface ServiceIdentity {
  instanceId: string;
  secretHex: string;
}

export interface BlueprintServiceClientOptions {
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  /** Called with every X-Service-Quota header the service sends. */
  onQuota?(quota: ServiceQuota): void;
  fetch?: typeof fetch;
}

/** The hosted blueprint service's wire API. Failures are UpstreamError: 429 = quota exceeded, 401/403 = rejected identity. */
export interface BlueprintServiceClient {
  enroll(instanceId: string): Promise<string>;
  retrieve(identity: ServiceIdentity, goal: string, k: number): Promise<BlueprintCandidate[]>;
  generate(identity: ServiceIdentity, goal: string, context: Record<string, unknown>): Promise<GeneratedBlueprint>;
}

export function createBlueprintServiceClient(options: BlueprintServiceClientOptions): BlueprintServiceClient {
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  const doFetch = options.fetch ?? fetch;

  async function call<T>(path: string, payload: unknown, schema: z.ZodType<T>, identity?: ServiceIdentity): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), base);
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (identity) {
      const timestamp = options.clock().toISOString();
      Object.assign(
        headers,
        signedHeaders(identity.instanceId, {
          method: 'POST',
          path: url.pathname,
          timestamp,
          body,
          secretHex: identity.secretHex,
        }),
      );
    }
    let response: Response;
    try {
      response = await doFetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const timeout = (error as Error).name === 'TimeoutError';
      throw new UpstreamError({
        // Its address stays out of the message (issue #41): the cause keeps it for the logs.
        message: 'The blueprint service (autopilot.service_url) is unreachable',
        retryable: true,
        timeout,
        cause: error,
      });
    }
    const quota = parseQuotaHeader(response.headers.get('x-service-quota'));
    if (quota) options.onQuota?.(quota);
    const text = await response.text().catch(() => '');
    if (!response.ok) throw serviceError(response.status, text);
    const parsed = schema.safeParse(safeJson(text));
    if (!parsed.success)
      throw new UpstreamError({
        message: `The blueprint service sent an unexpected ${path} answer`,
        retryable: false,
        upstreamStatus: response.status,
      });
    return parsed.data;
  }

  return {
    enroll: async (instanceId) =>
      (await call('/v1/instances/enroll', { instance_id: instanceId }, enrolledBody)).instance_secret.toLowerCase(),
    retrieve: async (identity, goal, k) =>
      (await call('/v1/blueprints/retrieve', { goal, k }, candidatesBody, identity)).candidates,
    generate: (identity, goal, context) => call('/v1/blueprints/generate', { goal, context }, generatedBody, identity),
  };
}

function serviceError(status: number, text: string): UpstreamError {
  const detail = (safeJson(text) as { error?: { message?: string } | string } | undefined)?.error;
  const reason = typeof detail === 'string' ? detail : (detail?.message ?? `status ${status}`);
  if (status === 429)
    return new UpstreamError({
      message: `The blueprint service quota is exhausted: ${reason}`,
      retryable: false,
      upstreamStatus: 429,
    });
  if (status === 401 || status === 403)
    return new UpstreamError({
      message: `The blueprint service rejected this instance: ${reason}`,
      retryable: false,
      upstreamStatus: status,
    });
  return new UpstreamError({
    message: `The blueprint service failed: ${reason}`,
    retryable: status >= 500,
    upstreamStatus: status,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
