import { z } from 'zod';

const jsonSchemaObject = z.looseObject({ type: z.literal('object') });

/** A tool that calls an HTTP endpoint; `{{arg}}` in the url is replaced by the argument's value. */
export const httpToolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -'),
  description: z.string().default(''),
  parameters: jsonSchemaObject.default({ type: 'object', properties: {} }),
  url: z.string().min(1),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
  headers: z.record(z.string(), z.string()).default({}),
  timeout_ms: z.number().int().positive().default(30_000),
});

/** An MCP server whose tools join the registry as `<prefix>__<tool>`. */
export const mcpToolSchema = z.strictObject({
  mcp: z.union([
    z.strictObject({ command: z.string().min(1), args: z.array(z.string()).default([]), env: z.record(z.string(), z.string()).default({}) }),
    z.strictObject({ url: z.url(), headers: z.record(z.string(), z.string()).default({}) }),
  ]),
  prefix: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  timeout_ms: z.number().int().positive().default(30_000),
});

/** Settings of a built-in tool, e.g. the hosts `http_request` may reach. */
export const builtinToolSchema = z.strictObject({
  builtin: z.enum(['get_current_time', 'http_request']),
  allowed_hosts: z.array(z.string()).default([]),
  timeout_ms: z.number().int().positive().default(30_000),
});

export const toolsSchema = z.array(z.union([httpToolSchema, mcpToolSchema, builtinToolSchema])).default([]);

export const BUILTIN_TOOL_NAMES = ['get_current_time', 'http_request'] as const;

export type HttpToolConfig = z.infer<typeof httpToolSchema>;
export type McpToolConfig = z.infer<typeof mcpToolSchema>;
export type BuiltinToolConfig = z.infer<typeof builtinToolSchema>;
export type ToolsConfig = z.infer<typeof toolsSchema>;
