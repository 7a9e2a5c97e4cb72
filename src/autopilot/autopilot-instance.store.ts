import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { AutopilotTier } from './autopilot.types.js';
import type { ServiceQuota } from './parse-quota-header.js';

const ROW_KEY = 'instance';

/** The installation's autopilot row. `secret` is the enrollment secret: it never leaves the service. */
export interface AutopilotInstance {
  instanceId: string;
  enabled: boolean;
  tier: AutopilotTier;
  secret: string | null;
  enrolledUrl: string | null;
  quota: ServiceQuota | null;
}

export interface AutopilotInstanceStore {
  /** Creates the row on first use (keeping any row another process created first) and returns it. */
  ensure(instanceId: string, now: string): Promise<AutopilotInstance>;
  get(): Promise<AutopilotInstance>;
  setSwitch(enabled: boolean, tier: AutopilotTier | undefined, now: string): Promise<void>;
  setSecret(secret: string | null, enrolledUrl: string | null, now: string): Promise<void>;
  setQuota(quota: ServiceQuota, now: string): Promise<void>;
}

export function createAutopilotInstanceStore(db: Kysely<Database>): AutopilotInstanceStore {
  const update = (values: Partial<Selectable<Database['autopilot_instance']>>) =>
    db.updateTable('autopilot_instance').set(values).where('key', '=', ROW_KEY).execute();
  async function get(): Promise<AutopilotInstance> {
    const row = await db
      .selectFrom('autopilot_instance')
      .selectAll()
      .where('key', '=', ROW_KEY)
      .executeTakeFirstOrThrow();
    return mapInstance(row);
  }
  return {
    async ensure(instanceId, now) {
      await db
        .insertInto('autopilot_instance')
        .values({
          key: ROW_KEY,
          instance_id: instanceId,
          enabled: 0,
          tier: 'anonymous',
          instance_secret: null,
          enrolled_url: null,
          quota: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return get();
    },
    get,
    async setSwitch(enabled, tier, now) {
      await update({ enabled: enabled ? 1 : 0, ...(tier ? { tier } : {}), updated_at: now });
    },
    async setSecret(secret, enrolledUrl, now) {
      await update({ instance_secret: secret, enrolled_url: enrolledUrl, updated_at: now });
    },
    async setQuota(quota, now) {
      await update({ quota: JSON.stringify(quota), updated_at: now });
    },
  };
}

function mapInstance(row: Selectable<Database['autopilot_instance']>): AutopilotInstance {
  return {
    instanceId: row.instance_id,
    enabled: Number(row.enabled) === 1,
    tier: row.tier,
    secret: row.instance_secret,
    enrolledUrl: row.enrolled_url,
    quota: row.quota ? (JSON.parse(row.quota) as ServiceQuota) : null,
  };
}
