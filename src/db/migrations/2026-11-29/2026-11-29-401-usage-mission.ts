import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * A mission step's model calls (and guardrail hits) are counted under one stable agent name (`@autopilot`) with the mission and the
 * step (node id) as columns, instead of one pseudo agent per mission and step. Records written before keep their
 * `autopilot:<mission>:<node>` names and no mission; filtering by mission reads the usage records, not the daily
 * totals, so it has its own index.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('usage_records').addColumn('mission_id', 'text').execute();
  await db.schema.alterTable('usage_records').addColumn('mission_step', 'text').execute();
  await db.schema
    .createIndex('usage_records_mission_created_idx')
    .on('usage_records')
    .columns(['mission_id', 'created_at'])
    .execute();
  await db.schema.alterTable('risk_events').addColumn('mission_id', 'text').execute();
  await db.schema.alterTable('risk_events').addColumn('mission_step', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('risk_events').dropColumn('mission_step').execute();
  await db.schema.alterTable('risk_events').dropColumn('mission_id').execute();
  await db.schema.dropIndex('usage_records_mission_created_idx').execute();
  await db.schema.alterTable('usage_records').dropColumn('mission_step').execute();
  await db.schema.alterTable('usage_records').dropColumn('mission_id').execute();
}
