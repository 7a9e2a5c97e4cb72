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
