import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.js';
import type { ModelActivation } from './fine-tune.types.js';

/** The history of models that took over a dataset's missions; the newest one not rolled back is active. */
export interface ModelActivationStore {
  /** Appends to the dataset's history (numbered after its last entry). */
  activate(activation: Omit<ModelActivation, 'seq'>): Promise<void>;
  /** The active model of a dataset, or (no dataset) the newest active model of any dataset (scope `all`). */
  active(dataset?: string): Promise<ModelActivation | undefined>;
  /** Marks the dataset's active model rolled back; returns it, or undefined when there was none. */
  rollback(dataset: string, now: string): Promise<ModelActivation | undefined>;
  /** Newest first. */
  history(dataset: string): Promise<ModelActivation[]>;
}

export function createModelActivationStore(db: Kysely<Database>): ModelActivationStore {
  return {
    async activate(activation) {
      const last = await db
        .selectFrom('model_activations')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('dataset', '=', activation.dataset)
        .executeTakeFirst();
      await db
        .insertInto('model_activations')
        .values({ ...activation, seq: Number(last?.seq ?? 0) + 1 })
        .execute();
    },
    async active(dataset) {
      let query = db.selectFrom('model_activations').selectAll().where('rolled_back_at', 'is', null);
      if (dataset !== undefined) query = query.where('dataset', '=', dataset);
      const row = await query.orderBy('activated_at', 'desc').orderBy('seq', 'desc').limit(1).executeTakeFirst();
      return row && { ...row, seq: Number(row.seq) };
    },
    async rollback(dataset, now) {
      const current = await this.active(dataset);
      if (!current) return undefined;
      await db
        .updateTable('model_activations')
        .set({ rolled_back_at: now })
        .where('activation_id', '=', current.activation_id)
        .execute();
      return { ...current, rolled_back_at: now };
    },
    async history(dataset) {
      const rows = await db
        .selectFrom('model_activations')
        .selectAll()
        .where('dataset', '=', dataset)
        .orderBy('seq', 'desc')
        .execute();
      return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
    },
  };
}
