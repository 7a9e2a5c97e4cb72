import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const jsonSchemaObject = z.looseObject({ type: z.literal('object') });

/**
 * Loopback, private, link-local and other non-public addresses an HTTP tool may still reach, as CIDR
 * ranges or single addresses: `["10.0.0.0/8", "127.0.0.1/32", "::1"]`. Empty (the default): none.
 */
export const allowPrivate = z
  .array(
    z
      .string()
      .refine(
        (entry) => (entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry)),
        'must be an IP address or a CIDR range such as 10.0.0.0/8',
      ),
  )
  .default([]);

/** A tool that calls an HTTP endpoint; `{{arg}}` in the url is replaced by the argument's value. */
export const httpToolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -'),
  description: z.string().default(''),
  parameters: jsonSchemaObject.default({ type: 'object', properties: {} }),
  url: z.string().min(1),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
  headers: z.record(z.string(), z.string()).default({}),
  timeout_ms: z.number().int().positive().default(30_000),
  allow_private: allowPrivate,
  /** Safe to run again with the same arguments: a run taken over after a crash repeats a call that had no stored result (else the model gets a tool error). */
  idempotent: z.boolean().default(false),
});

/** An MCP server whose tools join the registry as `<prefix>__<tool>`. */
export const mcpToolSchema = z.strictObject({
  mcp: z.union([
    z.strictObject({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
    }),
    z.strictObject({ url: z.url(), headers: z.record(z.string(), z.string()).default({}) }),
  ]),
  prefix: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  timeout_ms: z.number().int().positive().default(30_000),
  /** Every tool of the server: see the HTTP tool's `idempotent`. */
  idempotent: z.boolean().default(false),
});

/** Settings of a built-in tool, e.g. the hosts `http_request` may reach. */
export const builtinToolSchema = z.strictObject({
  builtin: z.enum(['get_current_time', 'http_request']),
  allowed_hosts: z.array(z.string()).default([]),
  timeout_ms: z.number().int().positive().default(30_000),
  /** http_request only: see allowPrivate. */
  allow_private: allowPrivate,
  /** Default: true for get_current_time (it only reads the clock), false for http_request. */
  idempotent: z.boolean().optional(),
});

/** `delegate_to_agent` exists only when `a2a.remotes` is configured (see a2a.schema.ts). */
export const BUILTIN_TOOL_NAMES = ['get_current_time', 'http_request', 'delegate_to_agent'] as const;

/** Every tool needs a unique name: built-ins, HTTP tools and `<prefix>__*` of MCP servers share one namespace. */
export const toolsSchema = z
  .array(z.union([httpToolSchema, mcpToolSchema, builtinToolSchema]))
  .default([])
  .superRefine((tools, ctx) => {
    const prefixes = tools.flatMap((tool) => ('mcp' in tool ? [tool.prefix] : []));
    const seen = new Set<string>();
    tools.forEach((tool, index) => {
      const [key, field] =
        'name' in tool
          ? [tool.name, 'name']
          : 'mcp' in tool
            ? [`${tool.prefix}__`, 'prefix']
            : [`builtin:${tool.builtin}`, 'builtin'];
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: [index, field],
          message: `duplicate tool ${field} "${key.replace(/^builtin:|__$/g, '')}"`,
        });
      seen.add(key);
      if (!('name' in tool)) return;
      if ((BUILTIN_TOOL_NAMES as readonly string[]).includes(tool.name)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `"${tool.name}" is a built-in tool; configure it with "builtin: ${tool.name}"`,
        });
      }
      const clash = prefixes.find((prefix) => tool.name.startsWith(`${prefix}__`));
      if (clash)
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `"${tool.name}" collides with the tools of MCP server prefix "${clash}"`,
        });
    });
  });

export type HttpToolConfig = z.infer<typeof httpToolSchema>;
export type McpToolConfig = z.infer<typeof mcpToolSchema>;
export type BuiltinToolConfig = z.infer<typeof builtinToolSchema>;
export type ToolsConfig = z.infer<typeof toolsSchema>;
