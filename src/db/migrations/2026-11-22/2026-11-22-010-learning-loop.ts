import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('curator_datasets')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('blueprint_id', 'text', (col) => col.notNull())
    .addColumn('threshold', 'integer', (col) => col.notNull())
    .addColumn('sample_count', 'integer', (col) => col.notNull().defaultTo(0))
    // The sample count when the last fine-tune started: the next starts `threshold` samples later.
    .addColumn('triggered_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('curator_samples')
    .addColumn('dataset', 'text', (col) => col.notNull())
    .addColumn('sample_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('curator_samples_pk', ['dataset', 'sample_hash'])
    .execute();
  await db.schema
    .createTable('fine_tune_jobs')
    .addColumn('job_id', 'text', (col) => col.primaryKey())
    .addColumn('dataset', 'text', (col) => col.notNull())
    .addColumn('backend', 'text', (col) => col.notNull())
    .addColumn('provider', 'text')
    .addColumn('base_model', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('sample_count', 'integer', (col) => col.notNull())
    .addColumn('held_out_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('training_file_id', 'text')
    .addColumn('external_job_id', 'text')
    .addColumn('model', 'text')
    .addColumn('served_base_url', 'text')
    .addColumn('evaluation', 'text')
    .addColumn('error_message', 'text')
    .addColumn('poll_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('fine_tune_jobs_dataset_idx')
    .on('fine_tune_jobs')
    .columns(['dataset', 'created_at'])
    .execute();
  await db.schema
    .createTable('model_activations')
    .addColumn('activation_id', 'text', (col) => col.primaryKey())
    .addColumn('dataset', 'text', (col) => col.notNull())
    // Orders activations when clocks tie; 1, 2, 3, ... per dataset.
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('job_id', 'text')
    .addColumn('activated_at', 'text', (col) => col.notNull())
    .addColumn('rolled_back_at', 'text')
    .execute();
  await db.schema
    .createIndex('model_activations_dataset_idx')
    .on('model_activations')
    .columns(['dataset', 'seq'])
    .unique()
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('model_activations').execute();
  await db.schema.dropTable('fine_tune_jobs').execute();
  await db.schema.dropTable('curator_samples').execute();
  await db.schema.dropTable('curator_datasets').execute();
}
