// Generated from /openapi.json by `npm run ui:api-types` (scripts/generate-ui-api-types.ts); do not edit.
export interface paths {
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics (text exposition format); operator credentials */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'ok';
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness: the database is reachable */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'ready';
            };
          };
        };
        /** @description Default Response */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'not_ready';
              reasons: string[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The presented access token's own budget (and its agent's daily budget) and rate limits */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              token_id: string;
              agent_name: string;
              scopes: string[];
              expires_at: string;
              rate_limit: {
                requests_per_minute?: number;
                tokens_per_minute?: number;
              } | null;
              /** @description This token, counted across every replica */
              budget: {
                /** @description The cap set at creation; null: no cap */
                max_cost_usd: number | null;
                /** @description Spent by finished model calls of runs made with this token */
                spent_usd: number;
                /** @description Reserved by its runs in flight, not yet charged */
                held_usd: number;
                /** @description max_cost_usd - spent - held; null without a cap */
                remaining_usd: number | null;
              };
              /** @description The agent's daily_budget_usd today (UTC), shared with every caller of the agent; null: none */
              agent_daily_budget: {
                limit_usd: number;
                spent_usd: number;
                held_usd: number;
                remaining_usd: number;
              } | null;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List access tokens (never their secrets) */
    get: {
      parameters: {
        query?: {
          agent_name?: string;
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              token_id: string;
              agent_name: string;
              scopes: string[];
              single_use: boolean;
              /** @enum {string} */
              status: 'active' | 'revoked' | 'used' | 'expired';
              created_at: string;
              expires_at: string;
              last_used_at: string | null;
              use_count: number;
              token_suffix: string;
              max_cost_usd: number | null;
              rate_limit: {
                requests_per_minute?: number;
                tokens_per_minute?: number;
              } | null;
              /** @description Allowed skills and A2A methods (1.0 names); null: no restriction */
              a2a: {
                skills: string[] | null;
                methods: string[] | null;
              } | null;
            }[];
          };
        };
      };
    };
    put?: never;
    /** Issue an access token for an external agent */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description The agent this token may reach */
            agent_name: string;
            /** @description Defaults to ["chat"]; chat, a2a, tools and mcp grant access, shared_sessions shares sessions, dream is stored only; others are refused */
            scopes?: ('chat' | 'a2a' | 'tools' | 'mcp' | 'shared_sessions' | 'dream')[];
            /** @description Lifetime in seconds; default 86400, at most auth.tokens.max_expires_in_seconds */
            expires_in_seconds?: number;
            /** @description When true the token is accepted exactly once */
            single_use?: boolean;
            /** @description Spending limit across all runs made with this token */
            max_cost_usd?: number;
            /** @description Requests and model tokens per minute for this token; 429 beyond */
            rate_limit?: {
              requests_per_minute?: number;
              tokens_per_minute?: number;
            };
            /** @description Restricts what the token may do over A2A (with the a2a scope) */
            a2a?: {
              /** @description Skill ids of the agent's card this token may use; absent: all */
              skills?: string[];
              /** @description A2A methods this token may call, by their 1.0 or v0.3 name (SendMessage or message/send); absent: all */
              methods?: string[];
            };
          };
        };
      };
      responses: {
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              token_id: string;
              agent_name: string;
              scopes: string[];
              single_use: boolean;
              /** @enum {string} */
              status: 'active' | 'revoked' | 'used' | 'expired';
              created_at: string;
              expires_at: string;
              last_used_at: string | null;
              use_count: number;
              token_suffix: string;
              max_cost_usd: number | null;
              rate_limit: {
                requests_per_minute?: number;
                tokens_per_minute?: number;
              } | null;
              /** @description Allowed skills and A2A methods (1.0 names); null: no restriction */
              a2a: {
                skills: string[] | null;
                methods: string[] | null;
              } | null;
              /** @description The plaintext (sat-…), shown only in this response */
              token: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/tokens/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one access token */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              token_id: string;
              agent_name: string;
              scopes: string[];
              single_use: boolean;
              /** @enum {string} */
              status: 'active' | 'revoked' | 'used' | 'expired';
              created_at: string;
              expires_at: string;
              last_used_at: string | null;
              use_count: number;
              token_suffix: string;
              max_cost_usd: number | null;
              rate_limit: {
                requests_per_minute?: number;
                tokens_per_minute?: number;
              } | null;
              /** @description Allowed skills and A2A methods (1.0 names); null: no restriction */
              a2a: {
                skills: string[] | null;
                methods: string[] | null;
              } | null;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    /** Delete a token permanently */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              token_id: string;
              /** @enum {boolean} */
              deleted: true;
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/tokens/{id}/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Revoke a token; the record is kept */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              token_id: string;
              agent_name: string;
              scopes: string[];
              single_use: boolean;
              /** @enum {string} */
              status: 'active' | 'revoked' | 'used' | 'expired';
              created_at: string;
              expires_at: string;
              last_used_at: string | null;
              use_count: number;
              token_suffix: string;
              max_cost_usd: number | null;
              rate_limit: {
                requests_per_minute?: number;
                tokens_per_minute?: number;
              } | null;
              /** @description Allowed skills and A2A methods (1.0 names); null: no restriction */
              a2a: {
                skills: string[] | null;
                methods: string[] | null;
              } | null;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tools': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List tools in function-calling format */
    get: {
      parameters: {
        query?: {
          /** @description Only this agent's tools; an access token always sees only its own agent's */
          agent_name?: string;
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              type: 'function';
              function: {
                name: string;
                description: string;
                /** @description JSON schema of the arguments */
                parameters: {
                  /** @enum {string} */
                  type: 'object';
                  /** @description JSON schema of each argument */
                  properties: {
                    [key: string]: unknown;
                  };
                  required: string[];
                } & {
                  [key: string]: unknown;
                };
              };
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tools/mcp/servers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show each MCP server and the state of its connection */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description The server's tool prefix: its tools are named <prefix>__<tool> */
              prefix: string;
              /** @enum {string} */
              transport: 'stdio' | 'http';
              /**
               * @description reconnecting: the server is down and retried with backoff; its tools fail with a tool error
               * @enum {string}
               */
              state: 'connecting' | 'connected' | 'reconnecting' | 'closed';
              /** @description Tools of the last listing */
              tools: number;
              /** @description When the current connection was made (ISO 8601) */
              connected_at: string | null;
              /** @description Why the last connection ended or the last attempt failed */
              last_error: string | null;
              /** @description Attempts since the server was last connected */
              reconnect_attempts: number;
              /** @description When the next attempt is due, while reconnecting */
              next_attempt_at: string | null;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tools/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one tool in function-calling format */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description The tool name, e.g. get_current_time or <prefix>__<tool> */
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A tool in OpenAI function-calling format */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              type: 'function';
              function: {
                name: string;
                description: string;
                /** @description JSON schema of the arguments */
                parameters: {
                  /** @enum {string} */
                  type: 'object';
                  /** @description JSON schema of each argument */
                  properties: {
                    [key: string]: unknown;
                  };
                  required: string[];
                } & {
                  [key: string]: unknown;
                };
              };
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List agents with their status and run count */
    get: {
      parameters: {
        query?: {
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              name: string;
              /** @description <provider>/<model id> */
              model: string;
              /**
               * @description running while the agent has a run that has not ended (in any replica)
               * @enum {string}
               */
              status: 'idle' | 'running';
              total_runs: number;
              /** @description When this deployment first served the agent */
              registered_at: string;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/agents/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one agent with its prompt, tools and settings */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              name: string;
              /** @description <provider>/<model id> */
              model: string;
              /**
               * @description running while the agent has a run that has not ended (in any replica)
               * @enum {string}
               */
              status: 'idle' | 'running';
              total_runs: number;
              /** @description When this deployment first served the agent */
              registered_at: string;
              system_prompt: string;
              /** @description Tool names */
              tools: string[];
              config: {
                temperature: number;
                max_iterations: number;
                max_tokens: number | null;
              };
              description: string;
              capabilities: string[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List runs, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Only runs of this agent */
          agent_name?: string;
          /** @description Only runs in this state */
          status?: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
          /** @description Only runs started this way */
          source?: 'chat' | 'agui' | 'webhook' | 'poller' | 'listener' | 'a2a' | 'autopilot' | 'mcp';
          /** @description Only runs whose caller named this end user (Chat Completions `user`) */
          end_user?: string;
          /** @description Runs started at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset */
          since?: string;
          /** @description Runs started before this time (exclusive), in the same format as since */
          until?: string;
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              run_id: string;
              agent_name: string;
              /** @enum {string} */
              status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
              started_at: string;
              finished_at: string | null;
              total_tokens: number;
              cost_usd: number;
              /** @description How many model and tool calls the run made */
              steps: number;
              /** @description What started the run: chat, agui, webhook, poller, listener, a2a, autopilot */
              source: string;
              session_id: string | null;
              model: string;
              /** @description The end user the caller named (Chat Completions `user`); null if none */
              end_user: string | null;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/runs/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Stream of run changes (SSE) on every replica: `event: ready`, then `run-created` / `run-status-changed` with the run as in GET /runs
     * @description Server-sent events. First `event: ready` once the stream follows the runs (a list read after it misses nothing); then `event: run-created` and `event: run-status-changed`, each with `data:` the run as in GET /runs. Changes are read from the shared store about once a second; `: ping` comments keep it open.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description One SSE event of GET /runs/events: `event: run-created` or `event: run-status-changed`, `data:` the run (list item) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/event-stream': {
              /** @enum {string} */
              type: 'run-created' | 'run-status-changed';
              run: {
                run_id: string;
                agent_name: string;
                /** @enum {string} */
                status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
                started_at: string;
                finished_at: string | null;
                total_tokens: number;
                cost_usd: number;
                /** @description How many model and tool calls the run made */
                steps: number;
                /** @description What started the run: chat, agui, webhook, poller, listener, a2a, autopilot */
                source: string;
                session_id: string | null;
                model: string;
                /** @description The end user the caller named (Chat Completions `user`); null if none */
                end_user: string | null;
              };
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/runs/timeseries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Runs, failed runs and cost per hour (or day) over a window: the last 24 hours by default */
    get: {
      parameters: {
        query?: {
          /** @description Bucket size (UTC hours or days); default hour */
          bucket?: 'hour' | 'day';
          /** @description Runs started at or after this time (rounded down to its bucket); default 24 hours (hour) or 30 days (day) before until */
          since?: string;
          /** @description Runs started before this time (exclusive); default now */
          until?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              bucket: 'hour' | 'day';
              /** @description The first bucket’s start */
              since: string;
              until: string;
              /** @description Every bucket of the window in order, empty ones as zeros (at most 744) */
              points: {
                /** @description The bucket’s start (UTC) */
                start: string;
                /** @description Runs started in the bucket (requests) */
                runs: number;
                /** @description Of them, runs that failed (errors) */
                failed: number;
                /** @description What they cost, US dollars */
                cost_usd: number;
              }[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/runs/{run_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one run with every step and its prompt log */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          run_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              run_id: string;
              agent_name: string;
              /** @enum {string} */
              status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
              started_at: string;
              finished_at: string | null;
              total_tokens: number;
              cost_usd: number;
              /** @description How many model and tool calls the run made */
              steps: number;
              /** @description What started the run: chat, agui, webhook, poller, listener, a2a, autopilot */
              source: string;
              session_id: string | null;
              model: string;
              /** @description The end user the caller named (Chat Completions `user`); null if none */
              end_user: string | null;
              input_tokens: number;
              output_tokens: number;
              /** @description Everything the agent said, in full */
              output: string | null;
              error: {
                code: string;
                message: string;
              } | null;
              /** @description The access token that started the run */
              token_id: string | null;
              /** @description The OpenTelemetry trace of the run (search it in Jaeger, Tempo, ...); null when telemetry is off */
              trace_id: string | null;
              /** @description 1, plus one per takeover: a replica (or a restart) continued the run after its process died */
              attempts: number;
              /** @description How many steps the run had stored when it was last taken over; null if never */
              resumed_from_step: number | null;
              /** @description The trigger event that started the run; null unless a webhook, poller or listener did */
              triggered_by: {
                /** @description The inbox item (GET /api/v1/admin/triggers/deliveries lists it) */
                item_id: string;
                /** @description <kind>:<name> of the webhook, poller or listener */
                source: string;
                event: string;
              } | null;
              /** @description Every model and tool call in order, with its prompt log */
              step_details: {
                step_id: string;
                step_index: number;
                /** @enum {string} */
                kind: 'model' | 'tool';
                /** @description The model or the tool */
                name: string;
                /** @enum {string} */
                status: 'completed' | 'failed';
                started_at: string;
                finished_at: string;
                latency_ms: number;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
                /** @description What was sent and what came back */
                prompt_log: {
                  [key: string]: unknown;
                };
              }[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/runs/{run_id}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pause a running run at its next checkpoint; its events are held until resume
     * @description 404 for an unknown run; 409 (with the current status) when the run is not in a state that allows it
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          run_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              run_id: string;
              /** @enum {string} */
              status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/runs/{run_id}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume a paused run from its checkpoint
     * @description 404 for an unknown run; 409 (with the current status) when the run is not in a state that allows it
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          run_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              run_id: string;
              /** @enum {string} */
              status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/runs/{run_id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a running or paused run at once
     * @description 404 for an unknown run; 409 (with the current status) when the run is not in a state that allows it
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          run_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              run_id: string;
              /** @enum {string} */
              status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted' | 'input_required';
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List sessions active within admin.session_window_minutes that their caller named or continued, most recent first */
    get: {
      parameters: {
        query?: {
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              session_id: string;
              agent_name: string;
              /** @description Who created it: token:<token_id>, agent:<name> (tokens with shared_sessions), operator:jwt:<sub> or operator:api_key:key_<fingerprint>; null before ownership existed */
              owner: string | null;
              message_count: number;
              created_at: string;
              last_active: string;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/sessions/{session_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one session with its stored conversation, whoever owns it */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          session_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              session_id: string;
              agent_name: string;
              /** @description Who created it: token:<token_id>, agent:<name> (tokens with shared_sessions), operator:jwt:<sub> or operator:api_key:key_<fingerprint>; null before ownership existed */
              owner: string | null;
              message_count: number;
              created_at: string;
              last_active: string;
              /** @description The stored turns, oldest first */
              messages: ({
                role: string;
                content: string;
              } & {
                [key: string]: unknown;
              })[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/budgets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every agent's daily budget for today and every access token cap spent from, with what is left, across all replicas */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description `daily:<agent>:<day>` or `token:<token_id>` */
              account: string;
              /** @enum {string} */
              kind: 'agent_daily' | 'token';
              /** @description The agent's name or the token's id */
              subject: string;
              limit_usd: number;
              /** @description What finished model calls charged, across every replica */
              spent_usd: number;
              /** @description Reserved by runs in flight and not yet charged */
              reserved_usd: number;
              /** @description limit_usd less spent and reserved, never below 0 */
              remaining_usd: number;
              runs_holding: number;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Health of the service: healthy, or degraded with reasons when the store or the bus is unreachable */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'healthy' | 'degraded';
              /** @description Why the status is degraded; empty when healthy */
              reasons: string[];
              agents: number;
              /** @description Runs running or paused, in every replica */
              active_runs: number;
              /** @description Sessions active within admin.session_window_minutes that their caller named or continued (a one-off call's session is not one) */
              active_sessions: number;
              uptime_seconds: number;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/costs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Cost by model and by agent */
    get: {
      parameters: {
        query?: {
          /** @description Only this agent’s records (a mission step’s model calls are counted under `@autopilot`) */
          agent_name?: string;
          /** @description Only the records (model calls, guardrail hits) of this mission’s steps */
          mission_id?: string;
          /** @description Only the records of this mission step (blueprint node id); use with mission_id */
          mission_step?: string;
          /** @description Only the records of runs whose caller named this end user (Chat Completions `user`) */
          end_user?: string;
          /** @description Records created at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset */
          since?: string;
          /** @description Records created before this time (exclusive), in the same format as since */
          until?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Cost of the model calls in the window */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description US dollars, to 1e-9 */
              total_cost_usd: number;
              /** @description Model (`<provider>/<model>`) to cost */
              by_model: {
                [key: string]: number;
              };
              /** @description Agent name to cost */
              by_agent: {
                [key: string]: number;
              };
              /** @description Model calls counted */
              record_count: number;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Tokens by model and by agent */
    get: {
      parameters: {
        query?: {
          /** @description Only this agent’s records (a mission step’s model calls are counted under `@autopilot`) */
          agent_name?: string;
          /** @description Only the records (model calls, guardrail hits) of this mission’s steps */
          mission_id?: string;
          /** @description Only the records of this mission step (blueprint node id); use with mission_id */
          mission_step?: string;
          /** @description Only the records of runs whose caller named this end user (Chat Completions `user`) */
          end_user?: string;
          /** @description Records created at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset */
          since?: string;
          /** @description Records created before this time (exclusive), in the same format as since */
          until?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Tokens (input + output) of the model calls in the window */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              total_tokens: number;
              /** @description Model (`<provider>/<model>`) to tokens */
              by_model: {
                [key: string]: number;
              };
              /** @description Agent name to tokens */
              by_agent: {
                [key: string]: number;
              };
              /** @description Model calls counted */
              record_count: number;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/risks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Guardrail events by type */
    get: {
      parameters: {
        query?: {
          /** @description Only this agent’s records (a mission step’s model calls are counted under `@autopilot`) */
          agent_name?: string;
          /** @description Only the records (model calls, guardrail hits) of this mission’s steps */
          mission_id?: string;
          /** @description Only the records of this mission step (blueprint node id); use with mission_id */
          mission_step?: string;
          /** @description Only the records of runs whose caller named this end user (Chat Completions `user`) */
          end_user?: string;
          /** @description Records created at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset */
          since?: string;
          /** @description Records created before this time (exclusive), in the same format as since */
          until?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Guardrail hits in the window */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              pii_events: number;
              hallucination_flags: number;
              content_filter_events: number;
              total_events: number;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/models': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Compare models by cost and tokens */
    get: {
      parameters: {
        query?: {
          /** @description Only this agent’s records (a mission step’s model calls are counted under `@autopilot`) */
          agent_name?: string;
          /** @description Only the records (model calls, guardrail hits) of this mission’s steps */
          mission_id?: string;
          /** @description Only the records of this mission step (blueprint node id); use with mission_id */
          mission_step?: string;
          /** @description Only the records of runs whose caller named this end user (Chat Completions `user`) */
          end_user?: string;
          /** @description Records created at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset */
          since?: string;
          /** @description Records created before this time (exclusive), in the same format as since */
          until?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              model: string;
              /** @description US dollars, to 1e-9 */
              total_cost_usd: number;
              total_tokens: number;
              request_count: number;
              /** @description US dollars, to 1e-9 */
              cost_per_1k_tokens: number;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Cost, tokens and models per agent */
    get: {
      parameters: {
        query?: {
          /** @description Only this agent’s records (a mission step’s model calls are counted under `@autopilot`) */
          agent_name?: string;
          /** @description Only the records (model calls, guardrail hits) of this mission’s steps */
          mission_id?: string;
          /** @description Only the records of this mission step (blueprint node id); use with mission_id */
          mission_step?: string;
          /** @description Only the records of runs whose caller named this end user (Chat Completions `user`) */
          end_user?: string;
          /** @description Records created at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset */
          since?: string;
          /** @description Records created before this time (exclusive), in the same format as since */
          until?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              agent_name: string;
              /** @description US dollars, to 1e-9 */
              total_cost_usd: number;
              total_tokens: number;
              request_count: number;
              models_used: string[];
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/chat/completions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Chat with an agent (OpenAI-compatible); stream: true answers with chat.completion.chunk events */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description Keeps the conversation on the server: send only the new message next time. Without it a new session starts (its id comes back in X-Session-Id), an active session once sent back */
          'x-session-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description The agent name */
            model: string;
            messages: (
              | {
                  /** @enum {string} */
                  role: 'system';
                  content:
                    | string
                    | {
                        /** @enum {string} */
                        type: 'text';
                        text: string;
                      }[];
                  name?: string;
                }
              | {
                  /** @enum {string} */
                  role: 'developer';
                  content:
                    | string
                    | {
                        /** @enum {string} */
                        type: 'text';
                        text: string;
                      }[];
                  name?: string;
                }
              | {
                  /** @enum {string} */
                  role: 'user';
                  content:
                    | string
                    | {
                        /** @enum {string} */
                        type: 'text';
                        text: string;
                      }[];
                  name?: string;
                }
              | {
                  /** @enum {string} */
                  role: 'assistant';
                  content?:
                    | (
                        | string
                        | {
                            /** @enum {string} */
                            type: 'text';
                            text: string;
                          }[]
                      )
                    | null;
                  tool_calls?: {
                    id: string;
                    /** @enum {string} */
                    type?: 'function';
                    function: {
                      name: string;
                      arguments: string;
                    };
                  }[];
                  name?: string;
                }
              | {
                  /** @enum {string} */
                  role: 'tool';
                  content:
                    | string
                    | {
                        /** @enum {string} */
                        type: 'text';
                        text: string;
                      }[];
                  tool_call_id: string;
                }
            )[];
            stream?: boolean | null;
            stream_options?: {
              include_usage?: boolean;
            } | null;
            /** @description Overrides the agent's temperature */
            temperature?: number | null;
            /** @description Overrides the agent's max_tokens */
            max_tokens?: number | null;
            /** @description Same as max_tokens (newer clients) */
            max_completion_tokens?: number | null;
            /** @description The end user: kept on the run record and its analytics records, filterable by `end_user` */
            user?: string;
            /** @description Read as `user` when `user` is not sent */
            safety_identifier?: string | null;
            /** @description Nucleus sampling, for every model call of the run */
            top_p?: number | null;
            /** @description Up to 4 sequences where the model stops */
            stop?: (string | string[]) | null;
            /** @description Best-effort deterministic sampling (OpenAI-wire providers) */
            seed?: number | null;
            /** @description OpenAI-wire providers */
            presence_penalty?: number | null;
            /** @description OpenAI-wire providers */
            frequency_penalty?: number | null;
            /** @description Token id → bias from -100 to 100 (OpenAI-wire providers) */
            logit_bias?: {
              [key: string]: number;
            } | null;
            /** @description Reasoning models (OpenAI-wire providers) */
            reasoning_effort?: ('none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max') | null;
            /** @description OpenAI-wire providers */
            verbosity?: ('low' | 'medium' | 'high') | null;
            /** @description Structured output: json_object, or json_schema (with strict) for the answer */
            response_format?:
              | {
                  /** @enum {string} */
                  type: 'text';
                }
              | {
                  /** @enum {string} */
                  type: 'json_object';
                }
              | {
                  /** @enum {string} */
                  type: 'json_schema';
                  json_schema: {
                    name: string;
                    description?: string;
                    schema?: {
                      [key: string]: unknown;
                    };
                    strict?: boolean | null;
                  };
                };
            /** @description Only 1: an agent run gives one answer (docs/decisions/0074-one-choice-per-run.md) */
            n?: number | null;
            /** @description Refused unless null (400): audio output; the gateway answers with text */
            audio?: null;
            /** @description Accepted only as a no-op (only ["text"]; the gateway answers with text) */
            modalities?: 'text'[] | null;
            /** @description Refused unless null (400): predicted outputs */
            prediction?: null;
            /** @description Refused unless null (400): built-in web search; give the agent a tool instead */
            web_search_options?: null;
            /** @description Refused unless null (400): legacy `functions`; use `tools` */
            functions?: null;
            /** @description Refused unless null (400): legacy `function_call`; use `tool_choice` */
            function_call?: null;
            /** @description Accepted only as a no-op (only false; the gateway keeps its own run records, not OpenAI stored completions) */
            store?: false | null;
            /** @description Refused unless null (400): metadata goes with stored completions (`store`), which the gateway does not offer */
            metadata?: null;
            /** @description Accepted only as a no-op (only auto or default; the provider configuration decides) */
            service_tier?: ('auto' | 'default') | null;
            /** @description Refused unless null (400): prompt cache keys */
            prompt_cache_key?: null;
            /** @description Refused unless null (400): prompt cache retention */
            prompt_cache_retention?: null;
            /** @description Refused unless null (400): prompt cache options */
            prompt_cache_options?: null;
            /** @description Refused unless null (400): OpenAI moderation settings; configure the agent's guardrails instead */
            moderation?: null;
            /** @description Accepted only as a no-op (log probabilities are not returned yet) */
            logprobs?: false | null;
            /** @description Refused unless null (400): log probabilities are not returned yet */
            top_logprobs?: null;
            /** @description The caller's own function tools, offered with the agent's: a call to one ends the answer with finish_reason tool_calls, and the caller's next request carries its result */
            tools?:
              | {
                  /** @enum {string} */
                  type: 'function';
                  function: {
                    name: string;
                    description?: string | null;
                    /** @description A JSON schema of type "object"; none: no arguments */
                    parameters?:
                      | ({
                          /** @enum {string} */
                          type?: 'object';
                        } & {
                          [key: string]: unknown;
                        })
                      | null;
                    strict?: boolean | null;
                  };
                }[]
              | null;
            /** @description For the run's first model call (later ones choose freely, so a forced call cannot repeat forever) */
            tool_choice?:
              | (
                  | ('none' | 'auto' | 'required')
                  | {
                      /** @enum {string} */
                      type: 'function';
                      function: {
                        name: string;
                      };
                    }
                )
              | null;
            /** @description False: at most one tool call per model answer */
            parallel_tool_calls?: boolean | null;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              /** @enum {string} */
              object: 'chat.completion';
              created: number;
              model: string;
              choices: {
                index: number;
                message: {
                  /** @enum {string} */
                  role: 'assistant';
                  content: string | null;
                  refusal: null;
                  /** @description Calls of the caller's own tools (finish_reason tool_calls): the caller answers them */
                  tool_calls?: {
                    id: string;
                    /** @enum {string} */
                    type: 'function';
                    function: {
                      name: string;
                      arguments: string;
                    };
                  }[];
                };
                logprobs: null;
                finish_reason: string;
              }[];
              usage: {
                prompt_tokens: number;
                completion_tokens: number;
                total_tokens: number;
              };
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/responses': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a response from an agent (OpenAI Responses API); stream: true answers with response.* events */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description The agent name */
            model: string;
            /** @description A user message, or input items: messages with input_text parts */
            input:
              | string
              | {
                  /** @enum {string} */
                  type?: 'message';
                  id?: string;
                  status?: string;
                  /** @enum {string} */
                  role: 'user' | 'assistant' | 'system' | 'developer';
                  content:
                    | string
                    | (
                        | {
                            /** @enum {string} */
                            type: 'input_text';
                            text: string;
                          }
                        | {
                            /** @enum {string} */
                            type: 'output_text';
                            text: string;
                          }
                        | {
                            /** @enum {string} */
                            type: 'refusal';
                            refusal: string;
                          }
                      )[];
                }[];
            /** @description Added to the agent's system prompt for this response only */
            instructions?: string | null;
            /** @description Continues the conversation of an earlier response of yours (stored: store was not false) */
            previous_response_id?: string | null;
            /** @description Default true; false: the response is neither retrievable nor continued */
            store?: boolean | null;
            /** @description Up to 16 string pairs, stored and returned with the response */
            metadata?: {
              [key: string]: string;
            } | null;
            /** @description Answers with response.* server-sent events, response.created to response.completed */
            stream?: boolean | null;
            /** @description include_obfuscation: delta events carry an `obfuscation` padding field (default true) */
            stream_options?: {
              include_obfuscation?: boolean;
            } | null;
            /** @description Overrides the agent's temperature */
            temperature?: number | null;
            /** @description Overrides the agent's max_tokens */
            max_output_tokens?: number | null;
            /** @description format: text, json_object, or json_schema (with strict) for the answer; verbosity (OpenAI-wire providers) */
            text?: {
              format?:
                | {
                    /** @enum {string} */
                    type: 'text';
                  }
                | {
                    /** @enum {string} */
                    type: 'json_object';
                  }
                | {
                    /** @enum {string} */
                    type: 'json_schema';
                    name: string;
                    description?: string;
                    schema: {
                      [key: string]: unknown;
                    };
                    strict?: boolean | null;
                  };
              verbosity?: ('low' | 'medium' | 'high') | null;
            } | null;
            /** @description Must be empty */
            tools?: unknown[] | null;
            /** @description none or auto: the agent uses its own tools either way */
            tool_choice?: ('none' | 'auto') | null;
            /** @description Accepted: no caller tools are offered */
            parallel_tool_calls?: boolean | null;
            /** @description disabled only: the conversation is never cut */
            truncation?: 'disabled' | null;
            /** @description false only: a response is answered on its request */
            background?: false | null;
            /** @description auto or default: agents have one tier */
            service_tier?: ('auto' | 'default') | null;
            /** @description Accepted as on chat completions */
            user?: string;
            /** @description Nucleus sampling, for every model call of the run */
            top_p?: number | null;
            /** @description Refused unless null: conversations: continue with previous_response_id */
            conversation?: null;
            /** @description Refused unless null: context management */
            context_management?: null;
            /** @description Must be empty */
            include?: unknown[] | null;
            /** @description Refused unless null: limit tool calls in the agent configuration (max_iterations) */
            max_tool_calls?: null;
            /** @description Refused unless null: moderation: configure the agent guardrails */
            moderation?: null;
            /** @description Refused unless null: prompt templates */
            prompt?: null;
            /** @description Refused unless null: prompt caching keys */
            prompt_cache_key?: null;
            /** @description Refused unless null: prompt caching options */
            prompt_cache_options?: null;
            /** @description Refused unless null: prompt caching retention */
            prompt_cache_retention?: null;
            /** @description Refused unless null: reasoning settings of OpenAI reasoning models */
            reasoning?: null;
            /** @description Refused unless null: safety identifiers */
            safety_identifier?: null;
            /** @description Refused unless null: log probabilities */
            top_logprobs?: null;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              /** @enum {string} */
              object: 'response';
              created_at: number;
              /** @enum {string} */
              status: 'completed' | 'incomplete' | 'failed' | 'cancelled' | 'in_progress';
              completed_at: number | null;
              error: {
                code: string;
                message: string;
              } | null;
              incomplete_details: {
                /** @enum {string} */
                reason: 'max_output_tokens' | 'content_filter';
              } | null;
              instructions: string | null;
              max_output_tokens: number | null;
              metadata: {
                [key: string]: string;
              };
              /** @description The agent name */
              model: string;
              output: {
                /** @enum {string} */
                type: 'message';
                id: string;
                /** @enum {string} */
                status: 'in_progress' | 'completed' | 'incomplete';
                /** @enum {string} */
                role: 'assistant';
                content: {
                  /** @enum {string} */
                  type: 'output_text';
                  text: string;
                  annotations: unknown[];
                  logprobs: unknown[];
                }[];
              }[];
              parallel_tool_calls: boolean;
              previous_response_id: string | null;
              store: boolean;
              temperature: number | null;
              top_p: number | null;
              text: {
                format:
                  | {
                      /** @enum {string} */
                      type: 'text';
                    }
                  | {
                      /** @enum {string} */
                      type: 'json_object';
                    }
                  | {
                      /** @enum {string} */
                      type: 'json_schema';
                      name: string;
                      description?: string;
                      schema: {
                        [key: string]: unknown;
                      };
                      strict?: boolean | null;
                    };
                /** @enum {string} */
                verbosity?: 'low' | 'medium' | 'high';
              };
              tool_choice: string;
              tools: unknown[];
              /** @enum {string} */
              truncation: 'disabled';
              /** @enum {boolean} */
              background: false;
              /** @enum {string} */
              service_tier: 'default';
              usage: {
                input_tokens: number;
                input_tokens_details: {
                  cached_tokens: number;
                };
                output_tokens: number;
                output_tokens_details: {
                  reasoning_tokens: number;
                };
                total_tokens: number;
              } | null;
              user: string | null;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/responses/{response_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A stored response of yours (OpenAI Responses API); another caller’s reads as unknown (404) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          response_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              /** @enum {string} */
              object: 'response';
              created_at: number;
              /** @enum {string} */
              status: 'completed' | 'incomplete' | 'failed' | 'cancelled' | 'in_progress';
              completed_at: number | null;
              error: {
                code: string;
                message: string;
              } | null;
              incomplete_details: {
                /** @enum {string} */
                reason: 'max_output_tokens' | 'content_filter';
              } | null;
              instructions: string | null;
              max_output_tokens: number | null;
              metadata: {
                [key: string]: string;
              };
              /** @description The agent name */
              model: string;
              output: {
                /** @enum {string} */
                type: 'message';
                id: string;
                /** @enum {string} */
                status: 'in_progress' | 'completed' | 'incomplete';
                /** @enum {string} */
                role: 'assistant';
                content: {
                  /** @enum {string} */
                  type: 'output_text';
                  text: string;
                  annotations: unknown[];
                  logprobs: unknown[];
                }[];
              }[];
              parallel_tool_calls: boolean;
              previous_response_id: string | null;
              store: boolean;
              temperature: number | null;
              top_p: number | null;
              text: {
                format:
                  | {
                      /** @enum {string} */
                      type: 'text';
                    }
                  | {
                      /** @enum {string} */
                      type: 'json_object';
                    }
                  | {
                      /** @enum {string} */
                      type: 'json_schema';
                      name: string;
                      description?: string;
                      schema: {
                        [key: string]: unknown;
                      };
                      strict?: boolean | null;
                    };
                /** @enum {string} */
                verbosity?: 'low' | 'medium' | 'high';
              };
              tool_choice: string;
              tools: unknown[];
              /** @enum {string} */
              truncation: 'disabled';
              /** @enum {boolean} */
              background: false;
              /** @enum {string} */
              service_tier: 'default';
              usage: {
                input_tokens: number;
                input_tokens_details: {
                  cached_tokens: number;
                };
                output_tokens: number;
                output_tokens_details: {
                  reasoning_tokens: number;
                };
                total_tokens: number;
              } | null;
              user: string | null;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    /** Deletes a stored response of yours: it can no longer be retrieved or continued */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          response_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              /** @enum {string} */
              object: 'response.deleted';
              /** @enum {boolean} */
              deleted: true;
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/models': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List agents as models (OpenAI-compatible) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              object: 'list';
              data: {
                /** @description The agent name */
                id: string;
                /** @enum {string} */
                object: 'model';
                /** @description When the agent was first registered, in Unix seconds */
                created: number;
                /** @enum {string} */
                owned_by: 'agent-gateway';
              }[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/models/{model}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One agent as a model (OpenAI-compatible) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          model: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description The agent name */
              id: string;
              /** @enum {string} */
              object: 'model';
              /** @description When the agent was first registered, in Unix seconds */
              created: number;
              /** @enum {string} */
              owned_by: 'agent-gateway';
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/agui/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Run an agent and stream its events over SSE (AG-UI; ?format=simple for the lower-case set) */
    post: {
      parameters: {
        query?: {
          /** @description agui: the official upper-case AG-UI events (default); simple: the lower-case run_started … run_error set */
          format?: 'agui' | 'simple';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            agent_name: string;
            message: string;
            /** @description Continues a conversation of the caller; without it a new one starts (its id comes back in X-Session-Id), an active session once continued */
            session_id?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/agui/agents/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Run an agent from an AG-UI RunAgentInput and stream its AG-UI events over SSE */
    post: {
      parameters: {
        query?: {
          /** @description agui: the official upper-case AG-UI events (default); simple: the lower-case run_started … run_error set */
          format?: 'agui' | 'simple';
        };
        header?: never;
        path: {
          name: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            threadId: string;
            runId: string;
            protocolVersion?: string;
            parentRunId?: string;
            state?: unknown | null;
            messages: (
              | ({
                  subagentRunId?: string;
                  id: string;
                  /** @enum {string} */
                  role: 'developer';
                  name?: string;
                  encryptedValue?: string;
                  metadata?: unknown;
                  content: string;
                } & {
                  [key: string]: unknown;
                })
              | ({
                  subagentRunId?: string;
                  id: string;
                  /** @enum {string} */
                  role: 'system';
                  name?: string;
                  encryptedValue?: string;
                  metadata?: unknown;
                  content: string;
                } & {
                  [key: string]: unknown;
                })
              | ({
                  subagentRunId?: string;
                  id: string;
                  /** @enum {string} */
                  role: 'assistant';
                  name?: string;
                  encryptedValue?: string;
                  metadata?: unknown;
                  content?: string;
                  toolCalls?: ({
                    id: string;
                    /** @enum {string} */
                    type: 'function';
                    function: {
                      name: string;
                      arguments: string;
                    } & {
                      [key: string]: unknown;
                    };
                    encryptedValue?: string;
                    metadata?: unknown;
                  } & {
                    [key: string]: unknown;
                  })[];
                } & {
                  [key: string]: unknown;
                })
              | ({
                  subagentRunId?: string;
                  id: string;
                  /** @enum {string} */
                  role: 'user';
                  name?: string;
                  encryptedValue?: string;
                  metadata?: unknown;
                  content:
                    | string
                    | (
                        | ({
                            /** @enum {string} */
                            type: 'text';
                            id?: string;
                            text: string;
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'image';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'audio';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'video';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'document';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                      )[];
                } & {
                  [key: string]: unknown;
                })
              | ({
                  subagentRunId?: string;
                  id: string;
                  /** @enum {string} */
                  role: 'tool';
                  content:
                    | string
                    | (
                        | ({
                            /** @enum {string} */
                            type: 'text';
                            id?: string;
                            text: string;
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'image';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'audio';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'video';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                        | ({
                            /** @enum {string} */
                            type: 'document';
                            id?: string;
                            source:
                              | ({
                                  /** @enum {string} */
                                  type: 'data';
                                  value: string;
                                  mimeType: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'url';
                                  value: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                })
                              | ({
                                  /** @enum {string} */
                                  type: 'file';
                                  value: string;
                                  provider?: string;
                                  mimeType?: string;
                                } & {
                                  [key: string]: unknown;
                                });
                            metadata?: unknown;
                          } & {
                            [key: string]: unknown;
                          })
                      )[];
                  toolCallId: string;
                  error?: string;
                  encryptedValue?: string;
                  metadata?: unknown;
                } & {
                  [key: string]: unknown;
                })
              | ({
                  subagentRunId?: string;
                  id: string;
                  /** @enum {string} */
                  role: 'activity';
                  activityType: string;
                  content: unknown;
                  metadata?: unknown;
                } & {
                  [key: string]: unknown;
                })
              | ({
                  subagentRunId?: string;
                  id: string;
                  /** @enum {string} */
                  role: 'reasoning';
                  content: string;
                  encryptedValue?: string;
                  metadata?: unknown;
                } & {
                  [key: string]: unknown;
                })
            )[];
            /** @default [] */
            tools?: ({
              name: string;
              description: string;
              parameters?: unknown;
              metadata?: unknown;
            } & {
              [key: string]: unknown;
            })[];
            /** @default [] */
            context?: ({
              description: string;
              value: string;
            } & {
              [key: string]: unknown;
            })[];
            forwardedProps?: unknown;
            resume?: ({
              interruptId: string;
              /** @enum {string} */
              status: 'resolved' | 'cancelled';
              payload?: unknown;
              metadata?: unknown;
            } & {
              [key: string]: unknown;
            })[];
          } & {
            [key: string]: unknown;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/agui/ws': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SSE: attach to a run (?run_id=, honours Last-Event-ID). WebSocket: talk to an agent (?agent_name=)
     * @description WebSocket: each `{"type":"message"}` frame starts a run, admitted as a new request would be: the credential is checked again (revoked, deleted, expired or a spent single-use token: an error frame `{"type":"error","error":{type,code,message}}`, then close 1008 with the code as reason), an access token's use is taken, then the rate limits (a refused run gets an error frame `rate_limited` or `token_rate_limited`; the socket stays open). One more socket than server.ws_max_connections_per_principal for a credential gets an error frame `too_many_connections` and close 1008; a socket idle for server.ws_idle_timeout_seconds (no run, no frame) is closed with 1000 `idle_timeout`. A socket whose credential lapses while it is open (a JWT's exp, an access token's expires_at, or revoked or deleted, seen within auth.stream_recheck_seconds) gets the same error frame and close 1008 then; a run under way goes on to its end.
     */
    get: {
      parameters: {
        query?: {
          /** @description agui: the official upper-case AG-UI events (default); simple: the lower-case run_started … run_error set */
          format?: 'agui' | 'simple';
          /** @description SSE: the run to attach to */
          run_id?: string;
          /** @description WebSocket (extension): the agent the socket talks to; default: an access token's own agent, else gateway.agui_default_agent, else the first agent */
          agent_name?: string;
          /** @description WebSocket: the session to continue (a new one per socket by default) */
          session_id?: string;
          /** @description For browsers that cannot set headers */
          access_token?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/agent-card.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The host's standard A2A card: the agent named by a2a.default_agent, else the only agent published over A2A (404 when several are published and none is named: their cards are listed at /.well-known/agent-cards.json). Versioned as an agent's own card */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description A2A protocol version of the caller: absent or 0.3 gets the v0.3 (hybrid) card, 1.0 the A2A 1.0 card */
          'a2a-version'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/agent-cards.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Cards of every agent published over A2A (the interface spec's card shape), each with the endpoint its standard card is under */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              name: string;
              description: string;
              capabilities: string[];
              /** @description The agent's A2A endpoint, ending with '/' (what an A2A SDK starts from: its standard card is at <endpoint>.well-known/agent-card.json); JSON-RPC answers there with or without the '/' */
              endpoint: string;
              model: string;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/a2a/{name}/.well-known/agent-card.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An agent's standard A2A card: the A2A 1.0 card for A2A-Version 1.0, else the v0.3 card with the 1.0 interfaces embedded */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description A2A protocol version of the caller: absent or 0.3 gets the v0.3 (hybrid) card, 1.0 the A2A 1.0 card */
          'a2a-version'?: string;
        };
        path: {
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/a2a/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A2A JSON-RPC endpoint of an agent (A2A 1.0, and v0.3 when no A2A-Version header is sent); streaming methods answer with SSE (v0.3 message/stream and tasks/resubscribe even an error before their first event: an `error` event carrying the JSON-RPC error) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description A2A protocol version of the caller: absent or 0.3 gets the v0.3 (hybrid) card, 1.0 the A2A 1.0 card */
          'a2a-version'?: string;
        };
        path: {
          name: string;
        };
        cookie?: never;
      };
      /** @description A JSON-RPC 2.0 request */
      requestBody: {
        content: {
          'application/json': unknown;
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/mcp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** MCP over Streamable HTTP (stateless): each agent the caller may reach is a tool */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      /** @description A JSON-RPC 2.0 message of MCP (initialize, tools/list, tools/call, ...) */
      requestBody: {
        content: {
          'application/json': unknown;
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ui/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Who the dashboard is signed in as (401 when signed out) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /**
               * @description How the operator signed in
               * @enum {string}
               */
              method: 'api_key' | 'jwt';
              /** @description The JWT subject, or key_<fingerprint> for an API key */
              subject: string;
            };
          };
        };
      };
    };
    put?: never;
    /** Sign in to the dashboard with an operator API key, JWT or login code: sets the service_auth cookie */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description An operator API key or JWT (not an access token) */
            credential?: string;
            /** @description A one-time login code from `agent-gateway ui` */
            code?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /**
               * @description How the operator signed in
               * @enum {string}
               */
              method: 'api_key' | 'jwt';
              /** @description The JWT subject, or key_<fingerprint> for an API key */
              subject: string;
            };
          };
        };
      };
    };
    /** Sign out of the dashboard: clears the service_auth cookie */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              signed_in: false;
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ui/login-codes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Issue a one-time dashboard login link for the credential of this request (what `agent-gateway ui` prints) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description Exchanged once for the service_auth cookie */
              code: string;
              /** @description Open it in a browser to sign in to the dashboard */
              login_url: string;
              expires_at: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Receive a signed webhook delivery; it is stored before the 202 and handled by the inbox worker */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description The configured webhook name */
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              challenge: string;
            };
          };
        };
        /** @description Default Response */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description The stored delivery (`del_…`); for a duplicate, the original one */
              delivery_id: string;
              /** @description `<webhook>.<event type>` */
              event: string;
              /** @description True when this delivery was received before and will not run again */
              duplicate: boolean;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/triggers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List webhooks, pollers and listeners with their state, counts and inbox (pending, running, done, dead, oldest pending age) */
    get: {
      parameters: {
        query?: {
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              kind: 'webhook' | 'poller' | 'listener';
              name: string;
              /** @description A webhook's verification mode, "http" for a poller, or the listener's source (redis, redis-stream, amqp, nats, mqtt, sse) */
              source: string;
              /**
               * @description Webhooks are always connected; "error" means the source gave up on a failure retrying cannot fix; "standby" means another replica reads the source (an SSE listener's lease)
               * @enum {string}
               */
              state: 'connecting' | 'connected' | 'backing_off' | 'standby' | 'error' | 'stopped';
              last_error: string | null;
              /** @description When the next connection attempt or poll is due */
              next_attempt_at: string | null;
              counts: {
                /** @description Events received by this process since it started, duplicates included */
                received: number;
                duplicates: number;
                /** @description Webhook requests failing verification; listener messages or poller items that were unusable */
                rejected: number;
                /** @description Agent runs started by this process since it started, retries included */
                runs_started: number;
              };
              /** @description Items of this source stored now, across every replica */
              inbox: {
                pending: number;
                running: number;
                done: number;
                /** @description Dead letters: replay them with POST /deliveries/{id}/replay */
                dead: number;
                ignored: number;
                /** @description Age of the oldest pending item; 0 when none is pending */
                oldest_pending_age_seconds: number;
              };
              last_event_at: string | null;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/triggers/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List stored webhook deliveries and trigger events, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Only items in this state, e.g. dead */
          status?: 'pending' | 'running' | 'done' | 'dead' | 'ignored';
          /** @description Only webhook deliveries, poller events or listener events */
          kind?: 'webhook' | 'poller' | 'listener';
          /** @description Only items of the webhook, poller or listener with this name */
          trigger?: string;
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description `del_…` for a webhook delivery, `evt_…` for a poller or listener event */
              id: string;
              /** @enum {string} */
              kind: 'webhook' | 'poller' | 'listener';
              /** @description The webhook, poller or listener name */
              trigger: string;
              event: string;
              /**
               * @description running: claimed by a worker; dead: every attempt failed (replay it); ignored: no handler matched
               * @enum {string}
               */
              status: 'pending' | 'running' | 'done' | 'dead' | 'ignored';
              attempts: number;
              last_error: string | null;
              received_at: string;
              finished_at: string | null;
              run_ids: string[];
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/triggers/deliveries/{id}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay a dead delivery or trigger event: it is queued again with fresh attempts
     * @description 404 for an unknown id; 409 when it is not dead
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description `del_…` for a webhook delivery, `evt_…` for a poller or listener event */
              id: string;
              /** @enum {string} */
              kind: 'webhook' | 'poller' | 'listener';
              /** @description The webhook, poller or listener name */
              trigger: string;
              event: string;
              /**
               * @description running: claimed by a worker; dead: every attempt failed (replay it); ignored: no handler matched
               * @enum {string}
               */
              status: 'pending' | 'running' | 'done' | 'dead' | 'ignored';
              attempts: number;
              last_error: string | null;
              received_at: string;
              finished_at: string | null;
              run_ids: string[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/admin/triggers/deliveries/{id}/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Same as /replay (deprecated name)
     * @deprecated
     * @description 404 for an unknown id; 409 when it is not dead
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description `del_…` for a webhook delivery, `evt_…` for a poller or listener event */
              id: string;
              /** @enum {string} */
              kind: 'webhook' | 'poller' | 'listener';
              /** @description The webhook, poller or listener name */
              trigger: string;
              event: string;
              /**
               * @description running: claimed by a worker; dead: every attempt failed (replay it); ignored: no handler matched
               * @enum {string}
               */
              status: 'pending' | 'running' | 'done' | 'dead' | 'ignored';
              attempts: number;
              last_error: string | null;
              received_at: string;
              finished_at: string | null;
              run_ids: string[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/curator': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Curated datasets with sample counts, the fine-tune threshold, jobs and the active model per dataset */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              threshold: number;
              backend: ('provider' | 'command') | null;
              /** @enum {string} */
              scope: 'blueprint' | 'all';
              datasets: {
                name: string;
                format: string;
                blueprint_id: string;
                threshold: number;
                sample_count: number;
                triggered_count: number;
                samples_until_fine_tune: number;
                active_model: string | null;
                model_history: {
                  activation_id: string;
                  dataset: string;
                  seq: number;
                  model: string;
                  job_id: string | null;
                  activated_at: string;
                  rolled_back_at: string | null;
                }[];
                created_at: string;
                updated_at: string;
              }[];
              jobs: {
                job_id: string;
                dataset: string;
                /** @enum {string} */
                backend: 'provider' | 'command';
                provider: string | null;
                base_model: string;
                status: string;
                sample_count: number;
                held_out_count: number;
                training_file_id: string | null;
                external_job_id: string | null;
                model: string | null;
                served_base_url: string | null;
                evaluation: {
                  held_out_samples: number;
                  min_overlap: number;
                  passed?: boolean;
                  overlap?: number;
                  empty_answers?: number;
                } | null;
                error_message: string | null;
                poll_count: number;
                created_at: string;
                updated_at: string;
                finished_at: string | null;
              }[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/curator/datasets/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Download a dataset as JSONL */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/models/rollback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Return a dataset's missions to the model active before its current one (history is kept) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            dataset: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              dataset: string;
              rolled_back: string;
              active_model: string | null;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/blueprints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The local blueprint library: bundled blueprints and autopilot.blueprints_dir */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              version: string;
              title: string;
              description: string;
              category: string;
              mode: string;
              /**
               * @description bundled: shipped in config/blueprints; local: autopilot.blueprints_dir; request: the body of a validate call
               * @enum {string}
               */
              source: 'bundled' | 'local' | 'request';
              example_goals: string[];
              slots: {
                name: string;
                type: string;
                required: boolean;
                description: string | null;
                default?: unknown;
                validator: string | null;
              }[];
              /** @description In the order they run */
              nodes: {
                id: string;
                kind: string;
                role: string;
                tools: string[];
              }[];
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/blueprints/{blueprint_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One local blueprint as written, with its slots, nodes and normalisation notes */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          blueprint_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              version: string;
              title: string;
              description: string;
              category: string;
              mode: string;
              /**
               * @description bundled: shipped in config/blueprints; local: autopilot.blueprints_dir; request: the body of a validate call
               * @enum {string}
               */
              source: 'bundled' | 'local' | 'request';
              example_goals: string[];
              slots: {
                name: string;
                type: string;
                required: boolean;
                description: string | null;
                default?: unknown;
                validator: string | null;
              }[];
              /** @description In the order they run */
              nodes: {
                id: string;
                kind: string;
                role: string;
                tools: string[];
              }[];
              /** @description The blueprint as written */
              blueprint: {
                [key: string]: unknown;
              };
              unknown_fields: string[];
              notes: string[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/blueprints/validate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Validate a blueprint (ours or the hosted catalogue's vocabulary); 400 invalid_blueprint names each bad field */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description A blueprint in our vocabulary or the hosted catalogue's, as JSON text or an object */
            blueprint_json:
              | string
              | {
                  [key: string]: unknown;
                };
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              version: string;
              title: string;
              description: string;
              category: string;
              mode: string;
              /**
               * @description bundled: shipped in config/blueprints; local: autopilot.blueprints_dir; request: the body of a validate call
               * @enum {string}
               */
              source: 'bundled' | 'local' | 'request';
              example_goals: string[];
              slots: {
                name: string;
                type: string;
                required: boolean;
                description: string | null;
                default?: unknown;
                validator: string | null;
              }[];
              /** @description In the order they run */
              nodes: {
                id: string;
                kind: string;
                role: string;
                tools: string[];
              }[];
              /** @description The blueprint as written */
              blueprint: {
                [key: string]: unknown;
              };
              unknown_fields: string[];
              notes: string[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Whether autopilot is enabled, its tier, instance id and hosted-service quota */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              enabled: boolean;
              /** @enum {string} */
              tier: 'anonymous' | 'free' | 'skip';
              instance_id: string;
              quota: {
                [key: string]: string | number;
              } | null;
              /** @description The hosted blueprint service, or null when none is configured */
              service_url: string | null;
              enrolled: boolean;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/enable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Enable autopilot with a tier */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /**
             * @description anonymous, free, or skip (no hosted service: synthesis only)
             * @enum {string}
             */
            tier: 'anonymous' | 'free' | 'skip';
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              ok: true;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/disable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Disable autopilot: new goals are refused, missions carry on */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              ok: true;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/goal': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Route a plain-English goal to a blueprint */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            goal: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json':
              | {
                  /** @enum {string} */
                  kind: 'auto_routed';
                  mission_id: string;
                  blueprint_id: string;
                  preview: string;
                  slots: {
                    [key: string]: unknown;
                  };
                  score: number;
                  missing_slots: string[];
                  /** @description Candidates this installation cannot execute (no graph, a cycle, an unknown tool…); routing went on without them */
                  skipped: {
                    blueprint_id: string | null;
                    score: number;
                    /** @description The first field that stops execution */
                    field: string;
                    message: string;
                  }[];
                }
              | {
                  /** @enum {string} */
                  kind: 'picker_needed';
                  candidates: {
                    /** @description A JSON blueprint, as text */
                    blueprint_json: string;
                    score: number;
                    /**
                     * @description The hosted catalogue or the local blueprint library
                     * @enum {string}
                     */
                    source?: 'service' | 'local';
                  }[];
                  /** @description Candidates this installation cannot execute (no graph, a cycle, an unknown tool…); routing went on without them */
                  skipped: {
                    blueprint_id: string | null;
                    score: number;
                    /** @description The first field that stops execution */
                    field: string;
                    message: string;
                  }[];
                }
              | {
                  /** @enum {string} */
                  kind: 'synthesis_needed';
                  goal: string;
                  /** @description Why no blueprint was routed */
                  reason: string;
                  /** @description Candidates this installation cannot execute (no graph, a cycle, an unknown tool…); routing went on without them */
                  skipped: {
                    blueprint_id: string | null;
                    score: number;
                    /** @description The first field that stops execution */
                    field: string;
                    message: string;
                  }[];
                };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/pick': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a draft mission from the n-th candidate of the project's last picker (or of a goal's picker) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description 1-based position in the picker */
            n: number;
            /** @description Route this goal first and pick from its picker; unset: the project's last picker */
            goal?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/synthesize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Write a new blueprint for a goal and create a draft mission from it */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            goal: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
              /**
               * @description The hosted service wrote the blueprint, a local library blueprint fitted the goal, or autopilot.model wrote one
               * @enum {string}
               */
              source: 'service' | 'local' | 'model';
              /** @description The service's confidence or the local blueprint's routing score */
              confidence: number | null;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/missions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the project's missions, newest first */
    get: {
      parameters: {
        query?: {
          /** @description At most this many items (1-500, default 50) */
          limit?: number;
          /** @description Skip this many items (0-1000000, default 0) */
          offset?: number;
        };
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
            }[];
          };
        };
      };
    };
    put?: never;
    /** Create a draft mission from a blueprint (a picker choice or your own) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description A blueprint (a picker candidate or your own), as JSON text or an object */
            blueprint_json:
              | string
              | {
                  [key: string]: unknown;
                };
            /** @description Slot values; they win over key=value pairs in the goal and over defaults */
            slots?: {
              [key: string]: unknown;
            };
            /** @description The goal the mission serves; key=value pairs in it fill slots too */
            goal?: string;
            schedule_policy?: {
              /** @description IANA zone the cron is read in (e.g. Europe/Paris); null: UTC */
              timezone?: string | null;
              /**
               * @description A tick while the previous execution runs: skip (default, recorded), buffer_one (runs once right after) or allow (runs alongside)
               * @enum {string}
               */
              overlap?: 'skip' | 'buffer_one' | 'allow';
              /** @description After downtime the newest missed tick runs once if at most this old, else missed ticks are skipped and recorded; null: always catch up */
              catchup_window_seconds?: number | null;
              /** @description A recurring mission pauses itself (state paused) after this many failed executions in a row; null: the first failure fails it */
              pause_after_failures?: number | null;
              /** @description Delay each tick by a stable 0..N seconds */
              jitter_seconds?: number;
            };
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/missions/{mission_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A mission with its slots, preview, schedule, run history, latest steps and healing */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    /** Cancel a mission (no effect on a completed or failed one) */
    delete: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              cancelled: boolean;
              mission_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    /** Edit a draft's slots (re-validated, schedule and preview rebuilt; 409 once approved) and the schedule policy */
    patch: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Slot values to set on the draft; null removes a value (its default, if any, applies again) */
            slots?: {
              [key: string]: unknown;
            };
            /** @description Policy fields to change (draft, scheduled or paused missions) */
            schedule_policy?: {
              /** @description IANA zone the cron is read in (e.g. Europe/Paris); null: UTC */
              timezone?: string | null;
              /**
               * @description A tick while the previous execution runs: skip (default, recorded), buffer_one (runs once right after) or allow (runs alongside)
               * @enum {string}
               */
              overlap?: 'skip' | 'buffer_one' | 'allow';
              /** @description After downtime the newest missed tick runs once if at most this old, else missed ticks are skipped and recorded; null: always catch up */
              catchup_window_seconds?: number | null;
              /** @description A recurring mission pauses itself (state paused) after this many failed executions in a row; null: the first failure fails it */
              pause_after_failures?: number | null;
              /** @description Delay each tick by a stable 0..N seconds */
              jitter_seconds?: number;
            };
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    trace?: never;
  };
  '/api/v1/autopilot/missions/{mission_id}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Pause a scheduled mission: no tick fires until it is resumed (409 from any other state) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/missions/{mission_id}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Resume a paused mission at its next tick, its failure count reset (409 from any other state) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/missions/{mission_id}/healing': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Recommended actions for a mission, each with the action that applies it (or null: advice only) */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description `<reason>.<action>`: the recommendation_id to apply */
              id: string;
              action: string;
              reason: string;
              /** @enum {string} */
              severity: 'info' | 'warning' | 'critical';
              detail: string;
              /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
              apply: {
                /** @enum {string} */
                action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                /** @description null values must be given when applying */
                params: {
                  [key: string]: unknown;
                };
                /** @description autopilot.auto_heal applies only safe actions */
                safe: boolean;
              } | null;
            }[];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/missions/{mission_id}/healing/{recommendation_id}/apply': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Apply a healing recommendation and re-run the failed or paused mission from its failed step, keeping earlier step results */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
          recommendation_id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Values for (or over) the action's params */
            params?: {
              [key: string]: unknown;
            };
          };
        };
      };
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/missions/{mission_id}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Approve a draft: it becomes scheduled (409 from any other state) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/autopilot/missions/{mission_id}/run': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Run a scheduled mission now (409 from any other state) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description X-Project-ID: the project missions, pickers and goals belong to (1-128 letters, digits, _, . or -); default "default" */
          'x-project-id'?: string;
        };
        path: {
          mission_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              mission_id: string;
              blueprint_id: string;
              /** @enum {string} */
              status: 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
              project_id: string;
              created_at: string;
              updated_at: string;
              title: string;
              schedule: string | null;
              next_run_at: string | null;
              goal: string | null;
              slots: {
                [key: string]: unknown;
              };
              missing_slots: string[];
              preview: string;
              budget_usd: number | null;
              approved_at: string | null;
              schedule_policy: {
                timezone: string | null;
                /** @enum {string} */
                overlap: 'skip' | 'buffer_one' | 'allow';
                catchup_window_seconds: number | null;
                pause_after_failures: number | null;
                jitter_seconds: number;
              };
              /** @description Failed executions since the last completed one */
              consecutive_failures: number;
              /** @description The blueprint as received, every field kept */
              blueprint: {
                [key: string]: unknown;
              };
              /** @description Top-level blueprint fields neither our vocabulary nor the hosted catalogue's knows (kept, unused) */
              blueprint_unknown_fields: string[];
              /** @description What normalising the blueprint changed or ignored */
              blueprint_notes: string[];
              /** @description Executions, newest first (at most 20) */
              runs: {
                execution_id: string;
                /** @description 1 for the first execution, then 2, 3, … */
                attempt: number;
                trigger: string;
                status: string;
                scheduled_for: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                cost_usd: number;
                error: {
                  code: string;
                  message: string;
                  class: string | null;
                } | null;
              }[];
              /** @description The step results of the latest execution */
              steps: {
                step_index: number;
                node_id: string;
                run_id: string | null;
                status: string;
                output: string;
                output_preview: string;
                messages: {
                  role: string;
                  content: string;
                }[];
                telemetry: {
                  cost_usd: number;
                  input_tokens: number;
                  output_tokens: number;
                  model_used: string;
                  latency_ms: number;
                };
                error: {
                  code: string;
                  message: string;
                } | null;
                started_at: string;
                finished_at: string;
              }[];
              healing: {
                /** @description `<reason>.<action>`: the recommendation_id to apply */
                id: string;
                action: string;
                reason: string;
                /** @enum {string} */
                severity: 'info' | 'warning' | 'critical';
                detail: string;
                /** @description What POST /missions/{id}/healing/{recommendation_id}/apply does; null: advice only */
                apply: {
                  /** @enum {string} */
                  action: 'retry_step' | 'retry_with_model' | 'raise_budget' | 'edit_slot' | 'disable_tool';
                  /** @description null values must be given when applying */
                  params: {
                    [key: string]: unknown;
                  };
                  /** @description autopilot.auto_heal applies only safe actions */
                  safe: boolean;
                } | null;
              }[];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
