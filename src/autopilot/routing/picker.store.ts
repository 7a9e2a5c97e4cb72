import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.js';

export interface StoredPicker {
  goal: string;
  candidates: { blueprint_json: string; score: number; source: string }[];
  created_at: string;
}

/** The last picker per project (one row each, replaced by the next picker). */
export interface PickerStore {
  save(projectId: string, picker: StoredPicker): Promise<void>;
  get(projectId: string): Promise<StoredPicker | undefined>;
}

export function createPickerStore(db: Kysely<Database>): PickerStore {
  return {
    async save(projectId, picker) {
      const row = {
        project_id: projectId,
        goal: picker.goal,
        candidates: JSON.stringify(picker.candidates),
        created_at: picker.created_at,
      };
      await db
        .insertInto('autopilot_pickers')
        .values(row)
        .onConflict((conflict) =>
          conflict
            .column('project_id')
            .doUpdateSet({ goal: row.goal, candidates: row.candidates, created_at: row.created_at }),
        )
        .execute();
    },
    async get(projectId) {
      const row = await db
        .selectFrom('autopilot_pickers')
        .selectAll()
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return (
        row && {
          goal: row.goal,
          candidates: JSON.parse(row.candidates) as StoredPicker['candidates'],
          created_at: row.created_at,
        }
      );
    },
  };
}
