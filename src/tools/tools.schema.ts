import { z } from 'zod';
import { pageQuery } from '../page-query.js';

/** A tool in the function-calling shape (spec "Tool (function-calling format)"). */
export const functionTool = z
  .object({
    type: z.literal('function'),
    function: z.object({
      name: z.string(),
      description: z.string(),
      parameters: z
        .looseObject({
          type: z.literal('object'),
          properties: z.record(z.string(), z.unknown()).describe('JSON schema of each argument'),
          required: z.array(z.string()),
        })
        .describe('JSON schema of the arguments'),
    }),
  })
  .describe('A tool in OpenAI function-calling format');

export const listToolsQuery = z.strictObject({
  agent_name: z
    .string()
    .min(1)
    .optional()
    .describe("Only this agent's tools; an access token always sees only its own agent's"),
  ...pageQuery,
});

export const toolNameParams = z.object({
  name: z.string().min(1).describe('The tool name, e.g. get_current_time or <prefix>__<tool>'),
});

export type FunctionTool = z.infer<typeof functionTool>;

export const mcpServerStatus = z
  .object({
    prefix: z.string().describe("The server's tool prefix: its tools are named <prefix>__<tool>"),
    transport: z.enum(['stdio', 'http']),
    state: z
      .enum(['connecting', 'connected', 'reconnecting', 'closed'])
      .describe('reconnecting: the server is down and retried with backoff; its tools fail with a tool error'),
    tools: z.number().int().describe('Tools of the last listing'),
    connected_at: z.string().nullable().describe('When the current connection was made (ISO 8601)'),
    last_error: z.string().nullable().describe('Why the last connection ended or the last attempt failed'),
    reconnect_attempts: z.number().int().describe('Attempts since the server was last connected'),
    next_attempt_at: z.string().nullable().describe('When the next attempt is due, while reconnecting'),
  })
  .describe('An MCP server and the state of its connection');
