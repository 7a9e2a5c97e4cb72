import type { CuratorOverview } from '../../autopilot/index.js';

/** `autopilot curator` on a terminal: one line per dataset, then one per fine-tune job. */
export function printCurator(overview: CuratorOverview): void {
  console.log(
    `fine-tune backend: ${overview.backend ?? 'none (samples are curated, no job starts)'}  threshold: ${overview.threshold}  scope: ${overview.scope}`,
  );
  console.log('\nDatasets:');
  if (overview.datasets.length === 0) console.log('  (none yet)');
  for (const dataset of overview.datasets) {
    console.log(
      `  ${dataset.name}  ${dataset.format}  ${dataset.sample_count} samples  next fine-tune in ${dataset.samples_until_fine_tune}  active model: ${dataset.active_model ?? '(configured models)'}`,
    );
  }
  if (overview.datasets.some((dataset) => dataset.samples_until_fine_tune > 0))
    console.log(
      '  (identical samples count once: a re-run whose answers do not change, as on the development model, adds none)',
    );
  console.log('\nFine-tune jobs:');
  if (overview.jobs.length === 0) console.log('  (none yet)');
  for (const job of overview.jobs) {
    const detail = job.error_message ? `  ${job.error_message}` : job.model ? `  → ${job.model}` : '';
    console.log(
      `  ${job.job_id}  ${job.dataset}  ${job.backend}  ${job.status}  ${job.sample_count} samples  ${job.created_at}${detail}`,
    );
  }
}
