import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/index.js';
import type { SampleFormat } from '../blueprints/blueprint.schema.js';
import type { FineTuneJob } from './fine-tune.types.js';
import { mapJobRow, mapJobToRow } from './fine-tune-job.store.js';

/** A curated dataset as stored, its format narrowed to the formats a blueprint may name. */
export type DatasetRecord = Omit<Selectable<Database['curator_datasets']>, 'format'> & { format: SampleFormat };

/** Curated datasets and their samples (JSONL lines, deduplicated by hash), shared by every replica. */
export interface CuratorStore {
  /** Creates the dataset or refreshes its format and threshold (the latest blueprint's say). */
  ensureDataset(
    dataset: Pick<DatasetRecord, 'name' | 'format' | 'blueprint_id' | 'threshold'>,
    now: string,
  ): Promise<void>;
  /** Stores the sample's JSONL line; false when the dataset already holds a sample with this hash. */
  addSample(dataset: string, hash: string, line: string, now: string): Promise<boolean>;
  /** The dataset's stored lines, in the order they were curated; `legacy` counts samples kept only in the old file. */
  lines(dataset: string): Promise<{ lines: string[]; legacy: number }>;
  /** Counts a stored sample (its position is the new count); returns the dataset after the count. */
  countSample(dataset: string, hash: string, now: string): Promise<DatasetRecord>;
  /**
   * Starts a fine-tune atomically: only the caller whose compare-and-set moves `triggered_count` from the
   * value it read inserts the job, so a dataset past its threshold starts exactly one job.
   */
  claimTrigger(dataset: DatasetRecord, job: (sampleCount: number) => FineTuneJob): Promise<FineTuneJob | undefined>;
  get(name: string): Promise<DatasetRecord | undefined>;
  list(): Promise<DatasetRecord[]>;
}

export function createCuratorStore(db: Kysely<Database>): CuratorStore {
  return {
    async ensureDataset(dataset, now) {
      await db
        .insertInto('curator_datasets')
        .values({ ...dataset, sample_count: 0, triggered_count: 0, created_at: now, updated_at: now })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({ format: dataset.format, threshold: dataset.threshold, updated_at: now }),
        )
        .execute();
    },
    async lines(dataset) {
      const rows = await db
        .selectFrom('curator_samples')
        .select('line')
        .where('dataset', '=', dataset)
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('sample_hash')
        .execute();
      const lines = rows.flatMap((row) => (row.line === null ? [] : [row.line]));
      return { lines, legacy: rows.length - lines.length };
    },
    async addSample(dataset, hash, line, now) {
      const result = await db
        .insertInto('curator_samples')
        .values({ dataset, sample_hash: hash, created_at: now, line })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async countSample(dataset, hash, now) {
      // One statement counts and reads, so two replicas counting at once get two different positions.
      const row = await db
        .updateTable('curator_datasets')
        .set((eb) => ({ sample_count: eb('sample_count', '+', 1), updated_at: now }))
        .where('name', '=', dataset)
        .returningAll()
        .executeTakeFirstOrThrow();
      const counted = mapDataset(row);
      await db
        .updateTable('curator_samples')
        .set({ position: counted.sample_count })
        .where('dataset', '=', dataset)
        .where('sample_hash', '=', hash)
        .execute();
      return counted;
    },
    async claimTrigger(dataset, job) {
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('curator_datasets')
          .set({ triggered_count: dataset.sample_count })
          .where('name', '=', dataset.name)
          .where('triggered_count', '=', dataset.triggered_count)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return undefined;
        const record = job(dataset.sample_count);
        await trx.insertInto('fine_tune_jobs').values(mapJobToRow(record)).execute();
        return mapJobRow(mapJobToRow(record));
      });
    },
    async get(name) {
      const row = await db.selectFrom('curator_datasets').selectAll().where('name', '=', name).executeTakeFirst();
      return row && mapDataset(row);
    },
    async list() {
      return (await db.selectFrom('curator_datasets').selectAll().orderBy('name').execute()).map(mapDataset);
    },
  };
}

function mapDataset(row: Selectable<Database['curator_datasets']>): DatasetRecord {
  return {
    ...row,
    format: row.format as SampleFormat,
    threshold: Number(row.threshold),
    sample_count: Number(row.sample_count),
    triggered_count: Number(row.triggered_count),
  };
}
