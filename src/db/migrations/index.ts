import type { Migration } from 'kysely';
import * as foundation from './2026-11-22-001-foundation.js';
import * as runs from './2026-11-22-002-runs.js';

/** Every migration in order. Names sort by date; a new one is appended, never edited once released. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22-001-foundation': foundation,
  '2026-11-22-002-runs': runs,
};
