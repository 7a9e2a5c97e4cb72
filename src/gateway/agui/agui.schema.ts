import { z } from 'zod';
import { SESSION_ID_PATTERN } from '../../agents/index.js';

const sessionId = z.string().regex(SESSION_ID_PATTERN, 'session_id is 1-128 characters of letters, digits, _ . : or -');

const format = z
  .enum(['agui', 'simple'])
  .default('agui')
  .describe('agui: the official upper-case AG-UI events (default); simple: the lower-case run_started … run_error set');

export const formatQuery = z.object({ format });

// An AG-UI client (HttpAgent) sends a RunAgentInput, which names no agent: it belongs on the standard route.
const AGENT_NAME_REQUIRED =
  'agent_name is required: POST /agui/runs takes {agent_name, message}; AG-UI clients (HttpAgent, a RunAgentInput body) post to /agui/agents/{agent_name}';

/** POST /agui/runs (spec 4.2). */
export const runsBody = z.object({
  agent_name: z.string({ error: AGENT_NAME_REQUIRED }).min(1, AGENT_NAME_REQUIRED),
  message: z.string({ error: 'message is required and must be a string' }).min(1, 'message must not be empty'),
  session_id: sessionId
    .optional()
    .describe(
      'Continues a conversation of the caller; without it a new one starts (its id comes back in X-Session-Id), an active session once continued',
    ),
});

/** GET /agui/ws: `run_id` attaches to a run over SSE; a WebSocket upgrade names its `agent_name` instead. */
export const wsQuery = z.object({
  format,
  run_id: z.string().min(1).optional().describe('SSE: the run to attach to'),
  agent_name: z
    .string()
    .min(1)
    .optional()
    .describe(
      "WebSocket (extension): the agent the socket talks to; default: an access token's own agent, else gateway.agui_default_agent, else the first agent",
    ),
  session_id: sessionId.optional().describe('WebSocket: the session to continue (a new one per socket by default)'),
  access_token: z.string().optional().describe('For browsers that cannot set headers'),
});

export const agentParams = z.object({ name: z.string().min(1) });

/** What the client sends over the WebSocket. */
export const clientFrame = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('message'),
      content: z.string().min(1, 'content must not be empty'),
      session_id: sessionId.optional(),
    }),
    z.object({ type: z.literal('cancel') }),
    z.object({ type: z.literal('ping') }),
  ],
  { error: 'type must be one of message, cancel, ping' },
);

export type ClientFrame = z.infer<typeof clientFrame>;
export type RunsBody = z.infer<typeof runsBody>;
