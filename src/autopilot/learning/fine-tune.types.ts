/** `queued` → `running` → `succeeded` (model takes over) | `rejected` (failed its promotion evaluation) | `failed`. */
export type FineTuneStatus = 'queued' | 'running' | 'succeeded' | 'rejected' | 'failed';

export const UNFINISHED_FINE_TUNE_STATUSES: readonly FineTuneStatus[] = ['queued', 'running'];

/** The blueprint's promotion_criteria as the job started, and the result once evaluated. */
export interface PromotionEvaluation {
  held_out_samples: number;
  min_overlap: number;
  passed?: boolean;
  /** Mean share of each held-out answer's words that the candidate's answer also uses, 0..1. */
  overlap?: number;
  empty_answers?: number;
}

export interface FineTuneJob {
  job_id: string;
  dataset: string;
  backend: 'provider' | 'command';
  /** The provider that trains (provider backend) or serves (command backend) the model. */
  provider: string | null;
  base_model: string;
  status: FineTuneStatus;
  sample_count: number;
  held_out_count: number;
  training_file_id: string | null;
  external_job_id: string | null;
  /** `<provider>/<model id>` of the trained model, once known. */
  model: string | null;
  served_base_url: string | null;
  evaluation: PromotionEvaluation | null;
  error_message: string | null;
  poll_count: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface ModelActivation {
  activation_id: string;
  dataset: string;
  /** 1, 2, 3, … within the dataset's history. */
  seq: number;
  model: string;
  job_id: string | null;
  activated_at: string;
  rolled_back_at: string | null;
}
