import { z } from 'zod';
import { allowPrivate } from './tools.schema.js';

/** The built-in tool that hands a task to a remote A2A agent; it exists only when remotes are configured. */
export const DELEGATE_TOOL_NAME = 'delegate_to_agent';

/** A remote A2A agent this gateway may delegate to; `token` is the scoped, revocable credential its operator issued. */
export const a2aRemoteSchema = z.strictObject({
  name: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
      'remote names are 1-64 letters, digits, _, . or -, starting with a letter or digit',
    ),
  /** The remote agent's A2A base URL (its card is at `<url>/.well-known/agent-card.json`), or the card URL itself. */
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
  token: z.string().min(1).optional(),
  /** Shown to the calling model in the tool description, so it knows when to pick this agent. */
  description: z.string().default(''),
});

/** How task updates are POSTed to the URLs A2A callers set (tasks/pushNotificationConfig/set). */
export const a2aPushSchema = z.strictObject({
  /** Non-public addresses (CIDR ranges or single addresses) push URLs may reach; everything else private is refused. */
  allow_private: allowPrivate,
  /** POSTs per update, counting the first; then the update is kept as dead. */
  max_attempts: z.number().int().positive().default(8),
  /** Delay before the first retry; it doubles on each further attempt up to max_backoff_seconds. */
  backoff_seconds: z.number().positive().default(2),
  max_backoff_seconds: z.number().positive().default(600),
  /** How long one POST may take. */
  timeout_ms: z.number().int().positive().default(10_000),
  /** How long a claimed update stays with the process that claimed it; a stopped process's claims lapse. */
  lease_seconds: z.number().positive().default(30),
  /** How often due updates stored by other replicas (or due retries) are looked for. */
  poll_interval_ms: z.number().int().positive().default(1_000),
});

export const a2aSchema = z
  .strictObject({
    remotes: z.array(a2aRemoteSchema).default([]),
    /** The agent whose standard card the host root serves (`/.well-known/agent-card.json`); default: the only published one. */
    default_agent: z.string().min(1).optional(),
    push_notifications: a2aPushSchema.default(a2aPushSchema.parse({})),
    /** How long a delegated task may take before the tool gives up (and cancels it remotely). */
    timeout_ms: z.number().int().positive().default(120_000),
    /** How long a fetched remote agent card is reused. */
    card_ttl_ms: z.number().int().nonnegative().default(300_000),
  })
  .superRefine((a2a, ctx) => {
    const seen = new Set<string>();
    a2a.remotes.forEach((remote, index) => {
      if (seen.has(remote.name))
        ctx.addIssue({
          code: 'custom',
          path: ['remotes', index, 'name'],
          message: `duplicate remote name "${remote.name}"`,
        });
      seen.add(remote.name);
    });
  })
  .default({ remotes: [], push_notifications: a2aPushSchema.parse({}), timeout_ms: 120_000, card_ttl_ms: 300_000 });

export type A2aConfig = z.infer<typeof a2aSchema>;
export type A2aRemoteConfig = z.infer<typeof a2aRemoteSchema>;
export type A2aPushConfig = z.infer<typeof a2aPushSchema>;

/** a2a.default_agent names an agent published over A2A (not one with `a2a: false`). */
export function checkA2aDefaultAgent(
  config: { a2a: A2aConfig; agents: { name: string; a2a: boolean }[] },
  ctx: z.RefinementCtx,
): void {
  const name = config.a2a.default_agent;
  if (name === undefined) return;
  const agent = config.agents.find((candidate) => candidate.name === name);
  if (!agent || !agent.a2a)
    ctx.addIssue({
      code: 'custom',
      path: ['a2a', 'default_agent'],
      message: agent ? `agent "${name}" is not published over A2A (a2a: false)` : `unknown agent "${name}"`,
    });
}

/** An agent may list `delegate_to_agent` only when there is someone to delegate to. */
export function checkDelegateTool(
  config: { a2a: A2aConfig; agents: { tools: string[] }[] },
  ctx: z.RefinementCtx,
): void {
  if (config.a2a.remotes.length > 0) return;
  config.agents.forEach((agent, index) => {
    const toolIndex = agent.tools.indexOf(DELEGATE_TOOL_NAME);
    if (toolIndex >= 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['agents', index, 'tools', toolIndex],
        message: `"${DELEGATE_TOOL_NAME}" needs at least one entry in a2a.remotes`,
      });
    }
  });
}
