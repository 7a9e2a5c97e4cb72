import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { A2aPushDeliveriesTable, Database } from '../../../db/index.js';

/** A push config as stored: the SDK's TaskPushNotificationConfig (proto-JSON) with who set it and over which version. */
export interface StoredPushConfig {
  agentName: string;
  taskId: string;
  configId: string;
  owner: string;
  wireVersion: string;
  /** The SDK's TaskPushNotificationConfig as `toJSON` writes it. */
  config: unknown;
}

export type PushDelivery = Omit<Selectable<A2aPushDeliveriesTable>, 'locked_by' | 'locked_until'>;

export type NewPushDelivery = Pick<
  PushDelivery,
  'delivery_id' | 'agent_name' | 'task_id' | 'config_id' | 'content_type' | 'body'
>;

/** What a worker writes when it lets go of a delivery. */
export type PushDeliveryOutcome =
  | { status: 'done' | 'dead'; finishedAt: string; lastError: string | null }
  | { status: 'pending'; nextAttemptAt: string; lastError: string };

/** Push configs and the durable outbox of task updates to POST to them. */
export interface A2aPushStore {
  /** Inserts or replaces (same agent, task and id) a config. */
  saveConfig(config: StoredPushConfig, now: string): Promise<void>;
  /** A task's configs; with `owner`, only those that principal set. */
  listConfigs(agentName: string, taskId: string, owner?: string): Promise<StoredPushConfig[]>;
  deleteConfig(agentName: string, taskId: string, configId: string, owner: string): Promise<void>;
  enqueue(deliveries: readonly NewPushDelivery[], now: string): Promise<void>;
  /**
   * Claims up to `limit` due deliveries (pending and due, or running under a lapsed lease), each the
   * oldest unfinished one of its config, so a config's updates go out in order. One worker per row.
   */
  claimDue(options: { now: string; workerId: string; leaseUntil: string; limit: number }): Promise<PushDelivery[]>;
  /** False when the claim was lost (the lease lapsed and another worker took it). */
  settle(deliveryId: string, workerId: string, outcome: PushDeliveryOutcome): Promise<boolean>;
  /** When the next pending delivery is due; undefined when none is pending. */
  nextDueAt(): Promise<string | undefined>;
  /** A task's deliveries, oldest first (operators and tests). */
  deliveriesOf(agentName: string, taskId: string): Promise<PushDelivery[]>;
}

const deliveries = 'a2a_push_deliveries';
type DeliveryAlias = Database & { d: A2aPushDeliveriesTable };

export function createA2aPushStore(database: Kysely<Database>): A2aPushStore {
  const db = database;
  return {
    async saveConfig(config, now) {
      const row = {
        owner: config.owner,
        wire_version: config.wireVersion,
        config: JSON.stringify(config.config),
        created_at: now,
      };
      await db
        .insertInto('a2a_push_configs')
        .values({ agent_name: config.agentName, task_id: config.taskId, config_id: config.configId, ...row })
        .onConflict((conflict) => conflict.columns(['agent_name', 'task_id', 'config_id']).doUpdateSet(row))
        .execute();
    },

    async listConfigs(agentName, taskId, owner) {
      const rows = await db
        .selectFrom('a2a_push_configs')
        .selectAll()
        .where('agent_name', '=', agentName)
        .where('task_id', '=', taskId)
        .$if(owner !== undefined, (query) => query.where('owner', '=', owner!))
        .orderBy('created_at')
        .orderBy('config_id')
        .execute();
      return rows.map((row) => ({
        agentName: row.agent_name,
        taskId: row.task_id,
        configId: row.config_id,
        owner: row.owner,
        wireVersion: row.wire_version,
        config: JSON.parse(row.config) as unknown,
      }));
    },

    async deleteConfig(agentName, taskId, configId, owner) {
      await db
        .deleteFrom('a2a_push_configs')
        .where('agent_name', '=', agentName)
        .where('task_id', '=', taskId)
        .where('config_id', '=', configId)
        .where('owner', '=', owner)
        .execute();
    },

    async enqueue(items, now) {
      if (items.length === 0) return;
      await db
        .insertInto(deliveries)
        .values(
          items.map((item) => ({
            ...item,
            status: 'pending' as const,
            attempts: 0,
            next_attempt_at: now,
            locked_by: null,
            locked_until: null,
            last_error: null,
            created_at: now,
            finished_at: null,
          })),
        )
        .execute();
    },

    async claimDue({ now, workerId, leaseUntil, limit }) {
      if (limit <= 0) return [];
      const due = db
        .selectFrom(`${deliveries} as d`)
        .select('d.delivery_id')
        .where((eb) =>
          eb.or([
            eb.and([eb('d.status', '=', 'pending'), eb('d.next_attempt_at', '<=', now)]),
            eb.and([eb('d.status', '=', 'running'), eb('d.locked_until', '<=', now)]),
          ]),
        )
        .where(isHeadOfItsConfig)
        .orderBy('d.next_attempt_at')
        .orderBy('d.delivery_id')
        .limit(limit);
      // The status test is repeated in the update: on PostgreSQL a row another worker claimed meanwhile is
      // re-checked after its lock is released and no longer matches, so each row goes to one worker.
      const rows = await db
        .updateTable(deliveries)
        .set({ status: 'running', locked_by: workerId, locked_until: leaseUntil, attempts: sql<number>`attempts + 1` })
        .where('delivery_id', 'in', due)
        .where((eb) =>
          eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'running'), eb('locked_until', '<=', now)])]),
        )
        .returningAll()
        .execute();
      return rows.map(mapRow).sort((a, b) => a.delivery_id.localeCompare(b.delivery_id));
    },

    async settle(deliveryId, workerId, outcome) {
      const result = await db
        .updateTable(deliveries)
        .set(
          outcome.status === 'pending'
            ? { status: 'pending', next_attempt_at: outcome.nextAttemptAt, last_error: outcome.lastError }
            : { status: outcome.status, finished_at: outcome.finishedAt, last_error: outcome.lastError },
        )
        .set({ locked_by: null, locked_until: null })
        .where('delivery_id', '=', deliveryId)
        .where('locked_by', '=', workerId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async nextDueAt() {
      const row = await db
        .selectFrom(`${deliveries} as d`)
        .select((eb) => eb.fn.min('d.next_attempt_at').as('due'))
        .where('d.status', '=', 'pending')
        .where(isHeadOfItsConfig)
        .executeTakeFirst();
      return row?.due ?? undefined;
    },

    async deliveriesOf(agentName, taskId) {
      const rows = await db
        .selectFrom(deliveries)
        .selectAll()
        .where('agent_name', '=', agentName)
        .where('task_id', '=', taskId)
        .orderBy('delivery_id')
        .execute();
      return rows.map(mapRow);
    },
  };
}

/** No earlier delivery of the same config is still unfinished: a config's updates go out one by one, in order. */
function isHeadOfItsConfig(eb: ExpressionBuilder<DeliveryAlias, 'd'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom(`${deliveries} as e`)
        .select('e.delivery_id')
        .whereRef('e.agent_name', '=', 'd.agent_name')
        .whereRef('e.task_id', '=', 'd.task_id')
        .whereRef('e.config_id', '=', 'd.config_id')
        .whereRef('e.delivery_id', '<', 'd.delivery_id')
        .where('e.status', 'in', ['pending', 'running']),
    ),
  );
}

function mapRow(row: Selectable<A2aPushDeliveriesTable>): PushDelivery {
  const { locked_by: _lockedBy, locked_until: _lockedUntil, ...rest } = row;
  return { ...rest, attempts: Number(rest.attempts) };
}
