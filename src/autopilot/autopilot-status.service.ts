import type { AutopilotInstanceStore } from './autopilot-instance.store.js';
import type { AutopilotTier, Clock } from './autopilot.types.js';
import type { ServiceQuota } from './parse-quota-header.js';

/** GET /status (spec "Autopilot status" plus the last quota report and the service URL). */
export interface AutopilotStatus {
  enabled: boolean;
  tier: AutopilotTier;
  instance_id: string;
  quota: ServiceQuota | null;
  service_url: string | null;
  /** True once this instance holds a secret from the service at service_url. */
  enrolled: boolean;
}

export interface AutopilotStatusService {
  status(): Promise<AutopilotStatus>;
  enable(tier: AutopilotTier): Promise<void>;
  /** New goals are refused afterwards; scheduled and running missions carry on. */
  disable(): Promise<void>;
}

export function createAutopilotStatusService(options: {
  instances: AutopilotInstanceStore;
  serviceUrl?: string;
  clock: Clock;
}): AutopilotStatusService {
  const now = () => options.clock().toISOString();
  return {
    async status() {
      const instance = await options.instances.get();
      const serviceUrl = options.serviceUrl ?? null;
      return {
        enabled: instance.enabled,
        tier: instance.tier,
        instance_id: instance.instanceId,
        quota: instance.quota,
        service_url: serviceUrl,
        enrolled: !!instance.secret && instance.enrolledUrl === serviceUrl,
      };
    },
    enable: (tier) => options.instances.setSwitch(true, tier, now()),
    disable: () => options.instances.setSwitch(false, undefined, now()),
  };
}
