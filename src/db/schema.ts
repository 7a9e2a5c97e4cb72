import type { ColumnType, Generated } from 'kysely';

/**
 * Every table, declared once. Timestamps are ISO 8601 UTC strings and booleans are 0/1 integers on
 * both engines, so the same queries (and string comparisons of times) run on SQLite and PostgreSQL.
 */
export interface Database {
  agents: AgentsTable;
  access_tokens: AccessTokensTable;
  kv: KvTable;
  runs: RunsTable;
  run_steps: RunStepsTable;
  sessions: SessionsTable;
  session_messages: SessionMessagesTable;
  usage_records: UsageRecordsTable;
  usage_daily: UsageDailyTable;
  risk_events: RiskEventsTable;
  run_event_logs: RunEventLogsTable;
  autopilot_instance: AutopilotInstanceTable;
  missions: MissionsTable;
  mission_executions: MissionExecutionsTable;
  mission_steps: MissionStepsTable;
  a2a_tasks: A2aTasksTable;
  a2a_push_configs: A2aPushConfigsTable;
  a2a_push_deliveries: A2aPushDeliveriesTable;
  inbox_items: InboxItemsTable;
  budget_accounts: BudgetAccountsTable;
  budget_holds: BudgetHoldsTable;
  source_leases: SourceLeasesTable;
  curator_datasets: CuratorDatasetsTable;
  curator_samples: CuratorSamplesTable;
  fine_tune_jobs: FineTuneJobsTable;
  model_activations: ModelActivationsTable;
  autopilot_pickers: AutopilotPickersTable;
  ui_login_codes: UiLoginCodesTable;
  responses: ResponsesTable;
}

/** A response of `POST /v1/responses` (stored unless `store: false`), for retrieval and `previous_response_id`. */
export interface ResponsesTable {
  /** `resp_…`, the run id's digits. */
  response_id: string;
  /** The principal that created it (see SessionsTable.owner): nobody else reads or continues it. */
  owner: string;
  agent_name: string;
  run_id: string;
  /** The session holding the conversation up to this response. */
  session_id: string;
  /** The session's message count after this response's turn: continuing from an earlier count forks the session. */
  turn_end: number;
  /** completed, incomplete, failed or cancelled. */
  status: string;
  /** The Response object as JSON. */
  response: string;
  created_at: string;
}

/** A one-time dashboard login code: its SHA-256 (hex) and the credential sealed with a key derived from it. */
export interface UiLoginCodesTable {
  code_hash: string;
  /** base64url of iv (12 bytes) | AES-256-GCM tag (16) | ciphertext. */
  sealed_credential: string;
  expires_at: string;
}

/** The last picker shown in a project: `autopilot pick <n>` chooses from it. */
export interface AutopilotPickersTable {
  project_id: string;
  goal: string;
  /** JSON array of {blueprint_json, score, source}, best first. */
  candidates: string;
  created_at: string;
}

export interface AgentsTable {
  name: string;
  registered_at: string;
}

export interface AccessTokensTable {
  token_id: string;
  token_hash: string;
  token_suffix: string;
  agent_name: string;
  /** JSON array of scope strings. */
  scopes: string;
  single_use: number;
  status: 'active' | 'revoked' | 'used';
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  use_count: Generated<number>;
  max_cost_usd: number | null;
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  /** JSON A2aRestrictions (allowed skills and methods); null: the a2a scope allows everything. */
  a2a_restrictions: string | null;
}

/** Small named values the service keeps across restarts (instance ids, generated secrets' metadata). */
export interface KvTable {
  key: string;
  value: string;
  updated_at: string;
}

/** One agent run. Written at start (status running) and once more when it ends. */
export interface RunsTable {
  run_id: string;
  agent_name: string;
  /** `input_required`: the run ended asking its caller (A2A requires_input); the caller's answer starts the next run. */
  status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
  source: 'chat' | 'agui' | 'webhook' | 'poller' | 'listener' | 'a2a' | 'autopilot' | 'mcp';
  session_id: string | null;
  /** `<provider>/<model id>` the run used. */
  model: string;
  started_at: string;
  finished_at: string | null;
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  steps: number;
  output: string | null;
  error_code: string | null;
  error_message: string | null;
  /** The access token that started the run, for per-token spending limits. */
  token_id: string | null;
  /** The latest control command asked of the run by any process (multi-process mode). */
  control_request: 'pause' | 'resume' | 'cancel' | null;
  /** Last sign of life from the executing process (multi-process mode). */
  heartbeat_at: string | null;
  /** The OpenTelemetry trace the run belongs to; null when telemetry is off. */
  trace_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1, plus one for each takeover of the run by another process (or the same one after a restart). */
  attempts: Generated<number>;
  /** The number of steps the run had stored when it was last taken over; null if never. */
  resumed_from_step: number | null;
  /** JSON (agents' ResumeInput): the screened conversation and settings a takeover resumes from. */
  resume_input: string | null;
  /** JSON (agents' RunTrigger): the inbox item that started the run, its source and event; null unless a trigger did. */
  triggered_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The end user the caller named (Chat Completions `user`); null when it named none. */
  end_user: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One model call or tool call of a run, written when it ends. */
export interface RunStepsTable {
  step_id: string;
  run_id: string;
  step_index: number;
  kind: 'model' | 'tool';
  /** The model (`<provider>/<model id>`) or the tool name. */
  name: string;
  status: 'completed' | 'failed';
  started_at: string;
  finished_at: string;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** JSON: what was sent and what came back (see agents/run.types.ts PromptLog). */
  prompt_log: string;
}

/** A conversation kept for clients that send X-Session-Id; it belongs to one agent. */
export interface SessionsTable {
  session_id: string;
  agent_name: string;
  /** The principal that created the session ("token:…", "agent:…", "operator:…"); NULL for sessions older than ownership. */
  owner: string | null;
  created_at: string;
  last_active: string;
  message_count: number;
  /**
   * 1 once the caller asked for the session: named it (X-Session-Id, AG-UI session_id) or continued it. 0 for a
   * session the gateway made up for a one-off call: kept, but not listed or counted as active.
   */
  requested: Generated<number>;
}

export interface SessionMessagesTable {
  session_id: string;
  /** 0-based position in the conversation. */
  seq: number;
  /** JSON of one chat message. */
  message: string;
  created_at: string;
}

/** PostgreSQL returns bigint (and sums) as strings, so every read of one goes through Number(). */
type Int8 = ColumnType<string | number, number, number>;

/** One model call (analytics). */
export interface UsageRecordsTable {
  usage_id: string;
  run_id: string;
  step_id: string | null;
  /** The configured agent; `@autopilot` for a mission step's call (the step's own agent is transient). */
  agent_name: string;
  session_id: string | null;
  /** The mission a call belongs to (a mission step's run); null otherwise. */
  mission_id: string | null;
  /** The step (blueprint node id) of that mission; null otherwise. */
  mission_step: string | null;
  /** The end user the run's caller named (Chat Completions `user`); null otherwise. */
  end_user: string | null;
  /** The run's source (bus RunSource). */
  source: 'chat' | 'agui' | 'webhook' | 'poller' | 'listener' | 'a2a' | 'autopilot' | 'mcp';
  /** The configured provider name, the part of `model` before the slash. */
  provider: string;
  /** `<provider>/<model id>`. */
  model: string;
  /** Includes the cached input tokens. */
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  /** Rounded to 1e-9 USD. */
  cost_usd: number;
  latency_ms: number;
  /** Time to first token of a streamed call; null for non-streamed calls. */
  ttft_ms: number | null;
  status: 'ok' | 'error';
  /** 0 when no price was known and cost_usd is 0 for that reason. */
  priced: number;
  /** 1 when the provider reported no usage and the tokens were counted locally. */
  estimated: number;
  created_at: string;
}

/** Totals of usage_records per UTC day (`YYYY-MM-DD`), agent and model. */
export interface UsageDailyTable {
  day: string;
  agent_name: string;
  model: string;
  request_count: Int8;
  input_tokens: Int8;
  output_tokens: Int8;
  cached_tokens: Int8;
  total_tokens: Int8;
  cost_nanos: Int8;
}

/** One guardrail hit. */
export interface RiskEventsTable {
  event_id: string;
  /** Null for a hit outside any run. */
  run_id: string | null;
  /** As in usage_records: `@autopilot` for a mission step's hit. */
  agent_name: string;
  /** The mission and step (node id) of a mission step's hit; null otherwise. */
  mission_id: string | null;
  mission_step: string | null;
  /** As in usage_records. */
  end_user: string | null;
  type: 'pii' | 'content_filter' | 'hallucination';
  /** What was found (a PII type, a blocklist entry, `ungrounded_answer`), never the matched text. */
  entity: string;
  action: string;
  created_at: string;
}

/** A finished run's events, persisted when it ends so a late attach can replay them. */
export interface RunEventLogsTable {
  run_id: string;
  /** JSON array of RunEvent (the bus's bounded log). */
  events: string;
  event_count: number;
  persisted_at: string;
}

/** The one autopilot row (key `instance`): identity, switch, tier and enrollment with the hosted service. */
export interface AutopilotInstanceTable {
  key: string;
  instance_id: string;
  enabled: number;
  tier: 'anonymous' | 'free' | 'skip';
  /** Hex secret from enrollment; never returned or logged. */
  instance_secret: string | null;
  /** The service URL the secret was issued by: another URL enrolls again. */
  enrolled_url: string | null;
  /** JSON of the last X-Service-Quota header seen. */
  quota: string | null;
  created_at: string;
  updated_at: string;
}

/** A goal turned into a blueprint with slot values, scoped to a project. */
export interface MissionsTable {
  mission_id: string;
  project_id: string;
  blueprint_id: string;
  blueprint_json: string;
  /** JSON object of slot values. */
  slots: string;
  goal: string | null;
  title: string;
  status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
  /** 5-field cron expression of a recurring mission. */
  schedule: string | null;
  next_run_at: string | null;
  budget_usd: number | null;
  created_at: string;
  updated_at: string;
  approved_at: string | null;
  /** IANA time zone the cron is read in; null: UTC. */
  timezone: ColumnType<string | null, string | null | undefined, string | null>;
  overlap: ColumnType<
    'skip' | 'buffer_one' | 'allow',
    'skip' | 'buffer_one' | 'allow' | undefined,
    'skip' | 'buffer_one' | 'allow'
  >;
  catchup_window_seconds: ColumnType<number | null, number | null | undefined, number | null>;
  pause_after_failures: ColumnType<number | null, number | null | undefined, number | null>;
  jitter_seconds: ColumnType<number, number | undefined, number>;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  /** W3C `traceparent` of the request that created the mission (telemetry on): its step runs link to it. */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One execution of a mission's graph. */
export interface MissionExecutionsTable {
  execution_id: string;
  mission_id: string;
  project_id: string;
  blueprint_id: string;
  /** 1 for the mission's first execution, then 2, 3, … */
  attempt: number;
  trigger: 'approve' | 'schedule' | 'manual' | 'heal' | 'auto_heal';
  /** The tick this execution serves (schedule), unique per mission. */
  scheduled_for: string | null;
  status: 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'skipped';
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  cost_usd: number;
  error_code: string | null;
  error_message: string | null;
  failure_class: string | null;
  /** Renewed by the executing replica (multi-process mode); a stale one is recovered by another replica. */
  heartbeat_at: string | null;
}

/** One node of an execution: the agent run it made and its step result. */
export interface MissionStepsTable {
  execution_id: string;
  step_index: number;
  node_id: string;
  run_id: string | null;
  status: 'completed' | 'failed' | 'cancelled';
  output: string;
  /** JSON array of the system/user/assistant messages. */
  messages: string;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  model_used: string;
  latency_ms: number;
  error_code: string | null;
  error_message: string | null;
  started_at: string;
  finished_at: string;
}

/** One A2A task: the SDK task as proto-JSON plus the columns that tasks/list filters and sorts on. */
export interface A2aTasksTable {
  task_id: string;
  /** The agent the task was sent to: tasks are scoped to it. */
  agent_name: string;
  context_id: string;
  run_id: string | null;
  /** proto-JSON task state, e.g. TASK_STATE_WORKING. */
  state: string;
  status_timestamp: string;
  /** JSON: the task as the A2A SDK's `Task.toJSON` writes it. */
  task: string;
  created_at: string;
  updated_at: string;
  /** The principal that sent the task (see SessionsTable.owner); NULL for tasks older than ownership. */
  owner: string | null;
}

/** A push notification config of an A2A task (tasks/pushNotificationConfig/set, or a message's configuration). */
export interface A2aPushConfigsTable {
  agent_name: string;
  task_id: string;
  /** The config's id within the task (the caller's, or one we assigned). */
  config_id: string;
  /** The principal that set it (auth ownerOf): only it reads, lists or deletes it. */
  owner: string;
  /** The A2A version it was set over ('0.3' or '1.0'): notifications are serialized for it. */
  wire_version: string;
  /** JSON: the SDK's TaskPushNotificationConfig (url, token, authentication). */
  config: string;
  created_at: string;
}

/** `running`: claimed by a worker under a lease; `dead`: every attempt failed (or the config is gone). */
export type A2aPushDeliveryStatus = 'pending' | 'running' | 'done' | 'dead';

/** One task update to POST to one push config: the durable outbox of push notifications. */
export interface A2aPushDeliveriesTable {
  /** `evt_…`: time-ordered, so a config's updates go out in the order they happened. */
  delivery_id: string;
  agent_name: string;
  task_id: string;
  config_id: string;
  content_type: string;
  /** The serialized update, in the shape of the config's protocol version. */
  body: string;
  status: A2aPushDeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** `running`: claimed by a worker; `dead`: its handlers failed every attempt (a dead letter an operator can replay). */
export type InboxStatus = 'pending' | 'running' | 'done' | 'dead' | 'ignored';

export type InboxSourceKind = 'webhook' | 'poller' | 'listener';

/** One event any trigger received (webhook delivery, poller item, listener message), stored before it is acknowledged. */
export interface InboxItemsTable {
  /** `del_…` for webhook deliveries, `evt_…` for poller and listener events. */
  item_id: string;
  source_kind: InboxSourceKind;
  /** The configured webhook's, poller's or listener's name. */
  source_name: string;
  /** `<webhook>.<event type>` for webhooks, the message's type for listeners, `item` for poller items. */
  event: string;
  /** Signed provider id or body hash (webhooks), broker message id or item id; NULL when a message has none. */
  dedupe_key: string | null;
  /** The JSON payload as received. */
  payload: string;
  /** JSON object of the few request headers worth keeping (webhooks); `{}` for other sources. */
  headers: string;
  status: InboxStatus;
  /** Handler attempts started so far (claims). */
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  received_at: string;
  finished_at: string | null;
  /** JSON array of every run id started for this item, across attempts. */
  run_ids: string;
  /** JSON array of the keys of handlers whose run succeeded, so a retry runs only the others. */
  completed_handlers: string;
  /** The worker holding the claim while running. */
  locked_by: string | null;
  /** When that claim lapses unless renewed. */
  locked_until: string | null;
  /** W3C `traceparent` of the request that stored the item (telemetry on), for span links from its runs. */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A JSONL training dataset the curator appends to (`<data_dir>/datasets/<name>.jsonl`). */
export interface CuratorDatasetsTable {
  name: string;
  format: string;
  blueprint_id: string;
  threshold: number;
  sample_count: number;
  /** The sample count when the last fine-tune started. */
  triggered_count: number;
  created_at: string;
  updated_at: string;
}

/** The hash of every sample written, so an exact duplicate is skipped. */
export interface CuratorSamplesTable {
  dataset: string;
  sample_hash: string;
  created_at: string;
  /** The sample's JSONL line; null for samples curated before it was stored (they are in the old file). */
  line: ColumnType<string | null, string | null | undefined, string | null>;
  /** The dataset's sample_count once this sample was counted: the curation order. */
  position: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface FineTuneJobsTable {
  job_id: string;
  dataset: string;
  backend: string;
  provider: string | null;
  base_model: string;
  status: string;
  /** The dataset's first `sample_count` lines are this job's corpus (the last `held_out_count` of them held out). */
  sample_count: number;
  held_out_count: number;
  training_file_id: string | null;
  external_job_id: string | null;
  /** `<provider>/<model id>` of the trained model. */
  model: string | null;
  served_base_url: string | null;
  /** JSON of the promotion evaluation. */
  evaluation: string | null;
  error_message: string | null;
  poll_count: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** Which model took over a dataset's missions, newest last; a rollback stamps `rolled_back_at`. */
export interface ModelActivationsTable {
  activation_id: string;
  dataset: string;
  seq: number;
  model: string;
  job_id: string | null;
  activated_at: string;
  rolled_back_at: string | null;
}

/** A budget shared by every replica (`daily:<agent>:<day>`, `token:<id>`), in integer nano-dollars. */
export interface BudgetAccountsTable {
  account_key: string;
  /** What finished model calls charged (and, when the account opened, what stored runs had spent). */
  spent_nanos: ColumnType<number, number, number>;
  /** Live runs' reservations not yet charged. */
  reserved_nanos: ColumnType<number, number | undefined, number>;
  /** Live runs holding the account. */
  holds: ColumnType<number, number | undefined, number>;
}

/** One run's reservation on one account, released when the run ends (or by the sweep once it ended elsewhere). */
export interface BudgetHoldsTable {
  run_id: string;
  account_key: string;
  /** What is still reserved: the estimate less what the run has been charged, never below 0. */
  reserved_nanos: number;
  charged_nanos: ColumnType<number, number | undefined, number>;
  /** The last call settled on this hold (its settle id): a settle tried again after an uncertain COMMIT is not charged twice. */
  last_settle_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A source only one replica reads at a time (an external SSE stream): its holder, lease and read position. */
export interface SourceLeasesTable {
  /** `<kind>:<name>`, e.g. `listener:feed`. */
  source_key: string;
  holder: string;
  expires_at: string;
  /** Where the holder has read up to (the last stored SSE event id), for the next holder to resume from. */
  cursor: string | null;
  updated_at: string;
}
