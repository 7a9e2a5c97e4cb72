/** Every error type the service reports to clients; one per HTTP meaning (DESIGN.md, HTTP conventions). */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'cancelled_error'
  | 'payment_required_error'
  | 'payload_too_large_error'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'timeout_error'
  | 'server_error'
  | 'unavailable_error';

export interface ErrorCatalogEntry {
  readonly type: ErrorType;
  readonly status: number;
  /** The message; `{name}` placeholders are filled by `createError(code, params)`. Callers may pass a more precise one. */
  readonly message: string;
}

/**
 * The one table of error codes: code → type, HTTP status and message template. `docs/api.md` lists it
 * (`npm run docs:api`), and `test/errors/catalog-reach.test.ts` fails for a code no route test reaches.
 */
export const ERROR_CATALOG = {
  // 400 and the other malformed-request statuses
  invalid_request: { type: 'invalid_request_error', status: 400, message: 'The request is not valid: {reason}' },
  invalid_json: { type: 'invalid_request_error', status: 400, message: 'The request body is not valid JSON' },
  json_too_deep: {
    type: 'invalid_request_error',
    status: 400,
    message: 'The JSON body is nested more than {limit} levels deep',
  },
  invalid_url: {
    type: 'invalid_request_error',
    status: 400,
    message: 'The URL path is not valid: a %-escape does not decode to UTF-8',
  },
  malformed_request: { type: 'invalid_request_error', status: 400, message: 'The request is not valid HTTP' },
  invalid_frame: { type: 'invalid_request_error', status: 400, message: 'A WebSocket frame is not a known message' },
  invalid_payload: { type: 'invalid_request_error', status: 400, message: 'The webhook body must be a JSON object' },
  invalid_model: {
    type: 'invalid_request_error',
    status: 400,
    message: 'model "{model}" must be written <provider>/<model id>',
  },
  unknown_provider: {
    type: 'invalid_request_error',
    status: 400,
    message: 'model "{model}" names a provider that is not configured',
  },
  unknown_agent: {
    type: 'invalid_request_error',
    status: 400,
    message: 'agent_name: no agent named "{agent_name}" is registered',
  },
  invalid_expires_in_seconds: {
    type: 'invalid_request_error',
    status: 400,
    message: 'expires_in_seconds is outside the allowed range',
  },
  content_filtered: {
    type: 'invalid_request_error',
    status: 400,
    message: 'The input was blocked by the content filter',
  },
  missing_agent_name: { type: 'invalid_request_error', status: 400, message: 'agent_name is required' },
  missing_run_id: {
    type: 'invalid_request_error',
    status: 400,
    message: 'run_id is required (or open a WebSocket with agent_name)',
  },
  invalid_project_id: { type: 'invalid_request_error', status: 400, message: 'The project id is not valid' },
  invalid_blueprint: { type: 'invalid_request_error', status: 400, message: 'The blueprint is not valid: {reason}' },
  invalid_slot: { type: 'invalid_request_error', status: 400, message: 'invalid slots: {reason}' },
  missing_slots: { type: 'invalid_request_error', status: 400, message: 'The mission still needs slots: {slots}' },
  invalid_pick: { type: 'invalid_request_error', status: 400, message: 'No picker candidate {n}' },
  invalid_heal_param: { type: 'invalid_request_error', status: 400, message: 'A healing action parameter is invalid' },
  model_not_found: {
    type: 'invalid_request_error',
    status: 404,
    message: 'The model `{model}` does not exist or you do not have access to it.',
  },
  method_not_allowed: {
    type: 'invalid_request_error',
    status: 405,
    message: '{method} is not allowed on {path}; use {allowed}',
  },
  path_parameter_too_long: {
    type: 'invalid_request_error',
    status: 414,
    message: 'A path parameter is longer than 100 characters',
  },
  unsupported_media_type: {
    type: 'invalid_request_error',
    status: 415,
    message: 'Unsupported Content-Type: send the body as application/json',
  },
  headers_too_large: { type: 'invalid_request_error', status: 431, message: 'The request headers are too large' },

  // 401
  invalid_credentials: { type: 'authentication_error', status: 401, message: 'Missing or invalid credentials' },
  missing_credentials: { type: 'authentication_error', status: 401, message: 'This route requires credentials' },
  invalid_authorization_header: {
    type: 'authentication_error',
    status: 401,
    message: 'Authorization header must use the Bearer scheme',
  },
  jwt_expired: { type: 'authentication_error', status: 401, message: 'JWT has expired' },
  jwt_invalid: { type: 'authentication_error', status: 401, message: 'JWT signature or format is invalid' },
  jwt_invalid_claims: { type: 'authentication_error', status: 401, message: 'JWT claim "{claim}" is invalid' },
  invalid_token: { type: 'authentication_error', status: 401, message: 'Access token is unknown or was deleted' },
  token_revoked: { type: 'authentication_error', status: 401, message: 'Access token has been revoked' },
  token_used: { type: 'authentication_error', status: 401, message: 'Single-use access token has already been used' },
  token_expired: { type: 'authentication_error', status: 401, message: 'Access token has expired' },
  invalid_signature: { type: 'authentication_error', status: 401, message: 'Webhook signature verification failed' },

  // 403
  insufficient_scope: { type: 'permission_error', status: 403, message: 'This access token lacks the "{scope}" scope' },
  access_token_only: {
    type: 'permission_error',
    status: 403,
    message: 'Only an access token may read its own budget',
  },
  a2a_method_not_allowed: {
    type: 'permission_error',
    status: 403,
    message: 'This access token may not call this A2A method',
  },
  a2a_skill_required: {
    type: 'permission_error',
    status: 403,
    message: 'This access token is limited to some skills: name one in message.metadata.skill_id',
  },
  a2a_skill_not_allowed: {
    type: 'permission_error',
    status: 403,
    message: 'This access token may not use this skill',
  },
  invalid_login_code: {
    type: 'authentication_error',
    status: 401,
    message: 'The login code is unknown, used or expired',
  },
  credential_not_in_header: {
    type: 'invalid_request_error',
    status: 400,
    message: 'A login code stands for the credential of the request: send it in Authorization or X-API-Key',
  },
  ui_not_built: {
    type: 'unavailable_error',
    status: 503,
    message: 'The dashboard is not built: run `npm run build:ui`',
  },
  operator_only: {
    type: 'permission_error',
    status: 403,
    message: 'Access tokens cannot use this route; it needs a JWT or an API key',
  },
  wrong_agent: {
    type: 'permission_error',
    status: 403,
    message: 'This access token is bound to agent "{agent_name}"',
  },
  cookie_request_not_json: {
    type: 'permission_error',
    status: 403,
    message: 'A cookie-authenticated write must send application/json',
  },
  cookie_request_without_origin: {
    type: 'permission_error',
    status: 403,
    message: 'A cookie-authenticated write must send an Origin header',
  },
  cross_origin_request: {
    type: 'permission_error',
    status: 403,
    message: 'A cookie-authenticated write must come from an allowed origin',
  },

  // 404
  route_not_found: { type: 'not_found_error', status: 404, message: 'No route {method} {path}' },
  agent_not_found: { type: 'not_found_error', status: 404, message: 'No agent named "{name}"' },
  run_not_found: { type: 'not_found_error', status: 404, message: 'No run with id "{run_id}"' },
  session_not_found: { type: 'not_found_error', status: 404, message: 'No session "{session_id}"' },
  response_not_found: { type: 'not_found_error', status: 404, message: 'No stored response "{response_id}" of yours' },
  previous_response_not_found: {
    type: 'not_found_error',
    status: 404,
    message: 'previous_response_id: no stored response "{response_id}" of yours',
  },
  token_not_found: { type: 'not_found_error', status: 404, message: 'No access token with id "{token_id}"' },
  tool_not_found: { type: 'not_found_error', status: 404, message: 'No tool named "{name}"' },
  webhook_not_found: { type: 'not_found_error', status: 404, message: 'No webhook named "{name}"' },
  delivery_not_found: { type: 'not_found_error', status: 404, message: 'No delivery or trigger event "{id}"' },
  mission_not_found: { type: 'not_found_error', status: 404, message: 'No mission "{mission_id}"' },
  blueprint_not_found: { type: 'not_found_error', status: 404, message: 'No local blueprint "{id}"' },
  dataset_not_found: { type: 'not_found_error', status: 404, message: 'No dataset named "{name}"' },
  recommendation_not_found: {
    type: 'not_found_error',
    status: 404,
    message: 'No healing recommendation "{id}" for this mission',
  },
  no_picker: {
    type: 'not_found_error',
    status: 404,
    message: 'Project "{project_id}" has not been shown a picker yet',
  },

  // 409: a state move that is not allowed
  invalid_run_state: { type: 'conflict_error', status: 409, message: 'Run {run_id} is {status}' },
  invalid_mission_state: { type: 'conflict_error', status: 409, message: 'Mission {mission_id} is {status}' },
  session_agent_mismatch: {
    type: 'conflict_error',
    status: 409,
    message: 'Session "{session_id}" belongs to another agent',
  },
  previous_response_agent_mismatch: {
    type: 'conflict_error',
    status: 409,
    message: 'previous_response_id: response "{response_id}" belongs to agent "{agent_name}"',
  },
  delivery_not_dead: { type: 'conflict_error', status: 409, message: 'Only dead deliveries can be replayed' },
  autopilot_disabled: {
    type: 'conflict_error',
    status: 409,
    message: 'Autopilot is disabled: enable it with a tier first',
  },
  goal_not_picker: { type: 'conflict_error', status: 409, message: 'The goal was routed as {kind}, not to a picker' },
  not_applicable: { type: 'conflict_error', status: 409, message: 'This healing action does not apply to the mission' },
  no_fine_tuned_model: {
    type: 'conflict_error',
    status: 409,
    message: 'Dataset "{name}" has no active fine-tuned model to roll back',
  },
  run_in_progress: {
    type: 'conflict_error',
    status: 409,
    message: 'A run is already under way on this socket; wait for its end or send {"type":"cancel"}',
  },
  no_active_run: { type: 'conflict_error', status: 409, message: 'No run is under way on this socket' },

  // A cancelled run: its own type, 409 like a conflict (docs/decisions/0011-cancelled-run.md)
  cancelled: { type: 'cancelled_error', status: 409, message: 'The run was cancelled' },
  client_closed: {
    type: 'cancelled_error',
    status: 409,
    message: 'The client closed the stream before the run finished',
  },
  shutdown: { type: 'cancelled_error', status: 409, message: 'The server shut down before the run finished' },
  client_stalled: {
    type: 'cancelled_error',
    status: 409,
    message: 'The client stopped reading the stream for longer than the stall timeout',
  },

  // 402, 413, 429
  budget_exceeded: {
    type: 'payment_required_error',
    status: 402,
    message: 'The {budget} is used up, or this model call does not fit (estimate $x, left $y)',
  },
  payload_too_large: { type: 'payload_too_large_error', status: 413, message: 'Request body is too large' },
  session_history_too_large: {
    type: 'payload_too_large_error',
    status: 413,
    message:
      'Session "{session_id}" would hold {bytes} bytes of history, over sessions.max_history_bytes ({limit}); start another session, or send the history you want kept without one',
  },
  rate_limited: { type: 'rate_limit_error', status: 429, message: 'Too many requests; retry after {seconds} s' },
  unknown_a2a_method: { type: 'invalid_request_error', status: 400, message: 'Not an A2A method' },
  token_rate_limited: {
    type: 'rate_limit_error',
    status: 429,
    message: 'Too many model tokens this minute; retry after {seconds} s',
  },
  upstream_rate_limited: { type: 'rate_limit_error', status: 429, message: '{call}: upstream answered HTTP 429' },
  too_many_connections: {
    type: 'rate_limit_error',
    status: 429,
    message: 'This credential has {limit} WebSockets open already; close one first',
  },

  // 5xx
  internal_error: { type: 'server_error', status: 500, message: 'Internal server error' },
  max_iterations_exceeded: {
    type: 'server_error',
    status: 500,
    message: 'The agent made {max_iterations} model calls (max_iterations) without reaching a final answer',
  },
  upstream_error: { type: 'upstream_error', status: 502, message: '{call}: {reason}' },
  synthesis_failed: {
    type: 'upstream_error',
    status: 502,
    message: 'autopilot.model ({model}) did not produce a valid blueprint',
  },
  shutting_down: {
    type: 'unavailable_error',
    status: 503,
    message: 'The server is shutting down; retry the request',
  },
  run_handed_over: {
    type: 'unavailable_error',
    status: 503,
    message:
      'This server is shutting down and handed the run on: it goes on elsewhere. Attach again to follow it to its end (GET /agui/ws?run_id=<run id> with Last-Event-ID), or read it at GET /api/v1/admin/runs/<run id>',
  },
  bus_closed: { type: 'unavailable_error', status: 503, message: 'The run event bus is closed' },
  database_unavailable: {
    type: 'unavailable_error',
    status: 503,
    message: 'The database is out of reach; retry the request',
  },
  subscriber_lagging: {
    type: 'unavailable_error',
    status: 503,
    message: 'The reader of run {run_id} fell more than {limit} events behind',
  },
  redis_too_old: { type: 'unavailable_error', status: 503, message: 'Redis is too old for run streams' },
  synthesis_unavailable: {
    type: 'unavailable_error',
    status: 503,
    message: 'No blueprint could be synthesized and autopilot.model is not configured',
  },
  interrupted: {
    type: 'unavailable_error',
    status: 503,
    message: 'The server running this run stopped before it finished',
  },
  stream_interrupted: {
    type: 'unavailable_error',
    status: 503,
    message: 'The run event stream ended before the run did',
  },
  replay_window_passed: {
    type: 'unavailable_error',
    status: 503,
    message:
      'Run {run_id} no longer holds the events after {after_seq} while it runs (the oldest kept is {first_seq}); attach again once it ended to read its whole log',
  },
  events_lost: {
    type: 'unavailable_error',
    status: 503,
    message:
      'The event stream of run {run_id} lost events (the run event bus failed) and cannot give the whole answer; it is at GET /api/v1/admin/runs/{run_id}, or attach again once the run ended (GET /agui/ws?run_id={run_id})',
  },
  request_timeout: { type: 'timeout_error', status: 408, message: 'The request was not received in time' },
  output_too_large: {
    type: 'upstream_error',
    status: 502,
    message: "The run's output exceeded its limit of {limit} bytes (max_output_bytes)",
  },
  upstream_timeout: {
    type: 'timeout_error',
    status: 504,
    message: '{call}: no complete answer within {timeout_ms} ms',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/**
 * The codes a failed tool step records on a run (`step_details[].prompt_log.error.code` of the run detail).
 * A failing tool does not fail the run: the model reads the message as the tool's result, so no HTTP
 * status goes with them. `ToolExecutionError` (tools/) takes only these.
 */
export const TOOL_ERROR_CATALOG = {
  unknown_tool: { message: 'The model called "{name}", which is not one of the agent\'s tools' },
  invalid_arguments: { message: 'The arguments of "{name}" are not valid JSON or do not match its schema' },
  timeout: { message: 'Tool "{name}" timed out after {timeout_ms} ms' },
  failed: { message: 'Tool "{name}" failed: {reason}' },
  aborted: { message: 'Tool "{name}" was aborted (the run was cancelled or its server is shutting down)' },
  unavailable: { message: 'Tool "{name}" is unavailable: its MCP server is not connected' },
} as const satisfies Record<string, { readonly message: string }>;

export type ToolErrorCode = keyof typeof TOOL_ERROR_CATALOG;

export type ErrorCatalog = typeof ERROR_CATALOG;

export type ErrorCode = keyof ErrorCatalog;

/** The codes of one error type, e.g. `CodeOf<'not_found_error'>` for what a NotFoundError may carry. */
export type CodeOf<T extends ErrorType> = {
  [C in ErrorCode]: ErrorCatalog[C]['type'] extends T ? C : never;
}[ErrorCode];

type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? Name extends `${string}"${string}`
    ? Placeholders<Rest>
    : Name | Placeholders<Rest>
  : never;

/** The values a code's message template needs: `{ model: string }` for `model_not_found`. */
export type MessageParams<C extends ErrorCode> = Record<Placeholders<ErrorCatalog[C]['message']>, string | number>;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOG, code);
}

/** Fills a code's template: `renderMessage('run_not_found', { run_id: 'run_1' })`. */
export function renderMessage<C extends ErrorCode>(code: C, params?: MessageParams<C>): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return ERROR_CATALOG[code].message.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
