import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ownerOf, type Principal } from '../auth/index.js';
import type { PerMinuteLimit } from '../config/index.js';
import { RateLimitError } from '../errors.js';
import type { RateLimitCheck, RateLimitCounter, RateLimitWindow } from './rate-limit-counter.js';
import type { RouteAuth, RunScope } from './route-auth.js';

/** Who a refused request was limited as, and by which limit (for metrics). */
export interface RateLimitRejection {
  /** The route template, e.g. `/v1/chat/completions`. */
  route: string;
  /** The agent the request targeted, when the route names one. */
  agent?: string;
  subject: 'operator' | 'token' | 'agent' | 'webhook';
  limit: 'requests' | 'tokens';
}

export interface RateLimitsOptions {
  counter: RateLimitCounter;
  /** `auth.rate_limit`: each operator credential (API key, JWT subject) on its own. */
  operatorLimit?: PerMinuteLimit;
  /** An agent's `rate_limit`, by name. */
  agentLimit(agentName: string): PerMinuteLimit | undefined;
  /** Called once per refused request. */
  onReject?(rejection: RateLimitRejection): void;
  /** The counters could not be reached: the request went through uncounted. */
  onCounterError?(error: unknown): void;
}

export interface RateLimits {
  /**
   * Counts one model call's tokens on its agent's counter and on the counter of the caller whose request
   * started the run (carried with the request's async context). Never rejects.
   */
  countTokens(agentName: string, tokens: number): Promise<void>;
  /**
   * Takes one request of the limits that apply to `request` for a run its connection starts (a route's
   * `perRun`), as the hook takes one for a request; throws 429 when a limit is reached.
   */
  admitRun(request: FastifyRequest): Promise<RunScope>;
}

interface Subject {
  kind: RateLimitRejection['subject'];
  /** The counters' key stem, e.g. `token:tok_1`. */
  id: string;
  label: string;
  limit: PerMinuteLimit;
}

/**
 * Requests and model tokens per minute, per caller (operator credential or access token) and per agent, on
 * the agent-facing routes (those whose `config.auth` names a scope). A request passes when every limit that
 * applies to it has room: it then takes one request on each; the tokens of the model calls it starts are
 * counted as each call ends, so requests admitted while tokens were left may together go past the limit.
 * Registered after the auth hooks, so the principal and the target agent are known.
 */
export function registerRateLimits(app: FastifyInstance, options: RateLimitsOptions): RateLimits {
  const callerTokens = new AsyncLocalStorage<string>();

  app.addHook('preHandler', (request, reply, done) => {
    const subjects = subjectsOf(request, options);
    if (subjects.length === 0 || isPerRun(request)) return done();
    admit(request, subjects, options, (checks, windows) => setHeaders(reply, checks, windows)).then(
      (callerKey) => (callerKey ? callerTokens.run(callerKey, done) : done()),
      (error: unknown) => done(error as Error),
    );
  });

  return {
    async countTokens(agentName, tokens) {
      const keys: string[] = [];
      if (options.agentLimit(agentName)?.tokens_per_minute !== undefined) keys.push(`agent:${agentName}:tokens`);
      const caller = callerTokens.getStore();
      if (caller) keys.push(caller);
      if (keys.length === 0 || tokens <= 0) return;
      await options.counter.add(keys, tokens).catch((error: unknown) => options.onCounterError?.(error));
    },
    async admitRun(request) {
      const subjects = subjectsOf(request, options);
      const callerKey = subjects.length === 0 ? undefined : await admit(request, subjects, options);
      return (start) => (callerKey ? callerTokens.run(callerKey, start) : start());
    },
  };
}

function isPerRun(request: FastifyRequest): boolean {
  const auth: RouteAuth = request.routeOptions.config.auth ?? 'operator';
  return typeof auth === 'object' && auth.perRun?.(request) === true;
}

/** Takes the request's counts; resolves to the caller's token counter when its model tokens are limited. */
async function admit(
  request: FastifyRequest,
  subjects: Subject[],
  options: RateLimitsOptions,
  onWindows?: (checks: RateLimitCheck[], windows: RateLimitWindow[]) => void,
): Promise<string | undefined> {
  const checks: (RateLimitCheck & { subject: Subject })[] = [];
  for (const subject of subjects) {
    const { requests_per_minute: requests, tokens_per_minute: tokens } = subject.limit;
    if (requests !== undefined)
      checks.push({ key: `${subject.id}:requests`, limit: requests, kind: 'requests', subject });
    if (tokens !== undefined) checks.push({ key: `${subject.id}:tokens`, limit: tokens, kind: 'tokens', subject });
  }
  if (checks.length === 0) return undefined;
  const caller = checks.find((check) => check.kind === 'tokens' && check.subject.kind !== 'agent')?.key;
  let take;
  try {
    take = await options.counter.take(checks);
  } catch (error) {
    // Counters out of reach must not take the API down: the request goes through uncounted.
    options.onCounterError?.(error);
    return caller;
  }
  onWindows?.(checks, take.windows);
  if (take.refused === undefined) return caller;
  const refused = checks[take.refused];
  const retryAfter = Math.max(1, Math.ceil(take.windows[take.refused].resetMs / 1000));
  options.onReject?.({
    route: request.routeOptions.url ?? request.url,
    agent: agentOf(request),
    subject: refused.subject.kind,
    limit: refused.kind,
  });
  request.log.info({ limit: refused.key }, 'rate limited');
  throw new RateLimitError(
    `Rate limit of ${refused.subject.label} reached: at most ${refused.limit} ${refused.kind === 'requests' ? 'requests' : 'model tokens'} per minute; retry in ${retryAfter} s`,
    retryAfter,
    refused.kind === 'requests' ? 'rate_limited' : 'token_rate_limited',
  );
}

function subjectsOf(request: FastifyRequest, options: RateLimitsOptions): Subject[] {
  const auth: RouteAuth = request.routeOptions.config.auth ?? 'operator';
  const principal = request.principal;
  if (typeof auth !== 'object' || !principal) return [];
  const subjects: Subject[] = [];
  const caller = callerSubject(principal, options.operatorLimit);
  if (caller) subjects.push(caller);
  const agentName = agentOf(request);
  const agentLimit = agentName === undefined ? undefined : options.agentLimit(agentName);
  if (agentName !== undefined && agentLimit)
    subjects.push({ kind: 'agent', id: `agent:${agentName}`, label: `agent "${agentName}"`, limit: agentLimit });
  return subjects;
}

function agentOf(request: FastifyRequest): string | undefined {
  const auth: RouteAuth = request.routeOptions.config.auth ?? 'operator';
  return typeof auth === 'object' ? auth.agent?.(request) : undefined;
}

function callerSubject(principal: Principal, operatorLimit: PerMinuteLimit | undefined): Subject | undefined {
  if (principal.kind === 'access_token') {
    const { tokenId, rateLimit } = principal;
    return { kind: 'token', id: `token:${tokenId}`, label: `access token ${tokenId}`, limit: rateLimit };
  }
  if (!operatorLimit) return undefined;
  return { kind: 'operator', id: ownerOf(principal), label: 'this operator credential', limit: operatorLimit };
}

/**
 * `x-ratelimit-limit|remaining|reset` (requests) and `x-ratelimit-limit|remaining|reset-tokens` (model tokens),
 * each for the limit with the least left; reset is in seconds.
 */
function setHeaders(reply: FastifyReply, checks: RateLimitCheck[], windows: RateLimitWindow[]): void {
  for (const kind of ['requests', 'tokens'] as const) {
    let tightest: { limit: number; left: number; resetMs: number } | undefined;
    checks.forEach((check, index) => {
      if (check.kind !== kind) return;
      const left = Math.max(0, check.limit - windows[index].used);
      if (!tightest || left < tightest.left) tightest = { limit: check.limit, left, resetMs: windows[index].resetMs };
    });
    if (!tightest) continue;
    const suffix = kind === 'tokens' ? '-tokens' : '';
    void reply.header(`x-ratelimit-limit${suffix}`, String(tightest.limit));
    void reply.header(`x-ratelimit-remaining${suffix}`, String(tightest.left));
    void reply.header(`x-ratelimit-reset${suffix}`, String(Math.ceil(tightest.resetMs / 1000)));
  }
}
