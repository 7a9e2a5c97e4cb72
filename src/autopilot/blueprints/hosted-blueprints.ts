import type { AutopilotConfig } from '../../config/index.js';
import { UpstreamError } from '../../errors.js';
import type { AutopilotInstanceStore } from '../autopilot-instance.store.js';
import type { AutopilotTier, Clock } from '../autopilot.types.js';
import type {
  BlueprintCandidate,
  BlueprintServiceClient,
  GeneratedBlueprint,
  ServiceIdentity,
} from './blueprint-service.client.js';
import { createRetrieveCache } from './retrieve-cache.js';
import type { Logger } from '../../logger.js';

/** Why no answer came from the hosted service. */
export type ServiceGap = 'tier_skip' | 'not_configured' | 'service_unavailable' | 'quota_exceeded';

export type HostedAnswer<T> = { ok: true; value: T; cached?: boolean } | { ok: false; reason: ServiceGap };

export interface HostedBlueprints {
  retrieve(goal: string, tier: AutopilotTier): Promise<HostedAnswer<BlueprintCandidate[]>>;
  generate(
    goal: string,
    context: Record<string, unknown>,
    tier: AutopilotTier,
  ): Promise<HostedAnswer<GeneratedBlueprint>>;
}

export interface HostedBlueprintsOptions {
  config: Pick<AutopilotConfig, 'service_url' | 'retrieve_k' | 'cache_ttl_seconds' | 'cache_stale_seconds'>;
  client?: BlueprintServiceClient;
  instances: AutopilotInstanceStore;
  clock: Clock;
  log?: Pick<Logger, 'warn'>;
}

/** The hosted service behind enrollment, signing and the retrieve cache; every failure becomes a ServiceGap, never an error. */
export function createHostedBlueprints(options: HostedBlueprintsOptions): HostedBlueprints {
  const cache = createRetrieveCache(options.clock);
  const serviceUrl = options.config.service_url;
  let enrolling: Promise<ServiceIdentity> | undefined;

  async function identity(): Promise<ServiceIdentity> {
    const instance = await options.instances.get();
    if (instance.secret && instance.enrolledUrl === serviceUrl)
      return { instanceId: instance.instanceId, secretHex: instance.secret };
    // One enrollment at a time: concurrent goals wait for the same secret.
    enrolling ??= (async () => {
      const secret = await options.client!.enroll(instance.instanceId);
      await options.instances.setSecret(secret, serviceUrl ?? null, options.clock().toISOString());
      return { instanceId: instance.instanceId, secretHex: secret };
    })().finally(() => (enrolling = undefined));
    return enrolling;
  }

  // A rejected identity (the service forgot us, or the secret changed) enrolls again once.
  async function signed<T>(call: (id: ServiceIdentity) => Promise<T>): Promise<T> {
    try {
      return await call(await identity());
    } catch (error) {
      const rejected = error instanceof UpstreamError && (error.upstreamStatus === 401 || error.upstreamStatus === 403);
      if (!rejected) throw error;
      await options.instances.setSecret(null, null, options.clock().toISOString());
      return call(await identity());
    }
  }

  function gap(error: unknown, what: string): ServiceGap {
    if (!(error instanceof UpstreamError)) throw error;
    options.log?.warn(
      { code: error.code, status: error.upstreamStatus },
      `blueprint service ${what} failed: ${error.message}`,
    );
    return error.upstreamStatus === 429 ? 'quota_exceeded' : 'service_unavailable';
  }

  function unusable(tier: AutopilotTier): ServiceGap | undefined {
    if (tier === 'skip') return 'tier_skip';
    return serviceUrl && options.client ? undefined : 'not_configured';
  }

  return {
    async retrieve(goal, tier) {
      const reason = unusable(tier);
      if (reason) return { ok: false, reason };
      const cached = cache.get(goal);
      if (cached && cached.ageSeconds < options.config.cache_ttl_seconds)
        return { ok: true, value: cached.candidates, cached: true };
      try {
        const candidates = await signed((id) => options.client!.retrieve(id, goal, options.config.retrieve_k));
        cache.set(goal, candidates);
        return { ok: true, value: candidates };
      } catch (error) {
        const failure = gap(error, 'retrieve');
        const fresh = options.config.cache_ttl_seconds + options.config.cache_stale_seconds;
        if (cached && cached.ageSeconds < fresh) return { ok: true, value: cached.candidates, cached: true };
        return { ok: false, reason: failure };
      }
    },
    async generate(goal, context, tier) {
      const reason = unusable(tier);
      if (reason) return { ok: false, reason };
      try {
        return { ok: true, value: await signed((id) => options.client!.generate(id, goal, context)) };
      } catch (error) {
        return { ok: false, reason: gap(error, 'generate') };
      }
    },
  };
}
