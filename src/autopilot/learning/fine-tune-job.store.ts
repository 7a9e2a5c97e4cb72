import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/index.js';
import { UNFINISHED_FINE_TUNE_STATUSES, type FineTuneJob, type FineTuneStatus } from './fine-tune.types.js';

/** Fine-tune jobs with their state, so polling resumes after a restart. */
export interface FineTuneJobStore {
  update(jobId: string, patch: Partial<Omit<FineTuneJob, 'job_id'>>): Promise<FineTuneJob>;
  get(jobId: string): Promise<FineTuneJob | undefined>;
  /** Newest first. */
  list(): Promise<FineTuneJob[]>;
  listUnfinished(): Promise<FineTuneJob[]>;
}

export function createFineTuneJobStore(db: Kysely<Database>): FineTuneJobStore {
  return {
    async update(jobId, patch) {
      const { evaluation, ...rest } = patch;
      const values =
        evaluation === undefined ? rest : { ...rest, evaluation: evaluation && JSON.stringify(evaluation) };
      await db.updateTable('fine_tune_jobs').set(values).where('job_id', '=', jobId).execute();
      return (await this.get(jobId))!;
    },
    async get(jobId) {
      const row = await db.selectFrom('fine_tune_jobs').selectAll().where('job_id', '=', jobId).executeTakeFirst();
      return row && mapJobRow(row);
    },
    async list() {
      return (
        await db
          .selectFrom('fine_tune_jobs')
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('sample_count', 'desc')
          .execute()
      ).map(mapJobRow);
    },
    async listUnfinished() {
      const rows = await db
        .selectFrom('fine_tune_jobs')
        .selectAll()
        .where('status', 'in', [...UNFINISHED_FINE_TUNE_STATUSES])
        .orderBy('created_at')
        .execute();
      return rows.map(mapJobRow);
    },
  };
}

export function mapJobToRow(job: FineTuneJob): Insertable<Database['fine_tune_jobs']> {
  return { ...job, evaluation: job.evaluation && JSON.stringify(job.evaluation) };
}

export function mapJobRow(
  row: Selectable<Database['fine_tune_jobs']> | Insertable<Database['fine_tune_jobs']>,
): FineTuneJob {
  return {
    ...(row as Selectable<Database['fine_tune_jobs']>),
    backend: row.backend as FineTuneJob['backend'],
    status: row.status as FineTuneStatus,
    sample_count: Number(row.sample_count),
    held_out_count: Number(row.held_out_count ?? 0),
    poll_count: Number(row.poll_count ?? 0),
    evaluation: row.evaluation ? (JSON.parse(row.evaluation) as FineTuneJob['evaluation']) : null,
  };
}
