import { BudgetExceededError } from '../../errors.js';
import type { ChatMessage, ToolDefinition } from '../../llm/index.js';
import type { RegisteredAgent } from '../registry/agent-registry.js';
import { toNanos, type BudgetAccount, type BudgetHold, type BudgetLedger } from './budget-ledger.js';
import type { RunPricing } from '../records/run-recorder.js';
import type { BudgetAccountRow, BudgetQueries } from './budget.store.js';
import { createMaxCallCost } from './max-call-cost.js';
import type { RunSpendQueries } from './run-spend.store.js';

export interface RunBudgetsOptions {
  ledger: BudgetLedger;
  spend: RunSpendQueries & Pick<BudgetQueries, 'listBudgetAccounts'>;
  pricing?: RunPricing;
  /** An access token's max_cost_usd, for entry points that did not pass it with the request. */
  tokenLimit?(tokenId: string): Promise<number | null>;
  now?: () => Date;
}

export interface RunBudgetRequest {
  runId: string;
  agent: RegisteredAgent;
  /** The run's first model call: its messages (the system prompt included) and the tools every call offers. */
  messages: ChatMessage[];
  tools: ToolDefinition[];
  /**
   * Output tokens per model call at most; unset: a call reserves the agent's stored average output per call of its
   * model (its last AVERAGED_CALLS), or UNCAPPED_CALL_OUTPUT_TOKENS before it has one.
   */
  maxTokens?: number;
  tokenId?: string;
  /** The token's max_cost_usd as the route knows it; undefined: look it up. */
  tokenMaxCostUsd?: number | null;
}

/**
 * One run's budgets: before each model call, what the call can cost at most is reserved (the first call's at
 * admission); when it ends, its cost is spent and the reservation freed; the end frees what is left.
 */
export interface RunBudget {
  /**
   * Reserves what a call with these messages can cost at most; throws BudgetExceededError (402) when a budget
   * cannot take it, or when the run's cost reached max_cost_per_run_usd (after its first call).
   */
  beforeModelCall(runCostUsd: number, messages: ChatMessage[]): Promise<void>;
  /** The call ended: what it cost (0 when not billed) is spent, its reservation freed. */
  settle(usd: number): Promise<void>;
  release(): Promise<void>;
}

/** One budget as operators see it: an agent's day or an access token's cap. */
export interface BudgetState {
  account: string;
  kind: 'agent_daily' | 'token';
  /** The agent's name or the token's id. */
  subject: string;
  limit_usd: number;
  spent_usd: number;
  /** Reserved by runs in flight, not yet charged. */
  reserved_usd: number;
  remaining_usd: number;
  runs_holding: number;
}

/** What an access token may still spend: its own cap and its agent's day, as the token's holder sees them. */
export interface TokenBudget {
  /** The token's own spend across all replicas; `max_cost_usd` and `remaining_usd` are null when it has no cap. */
  token: {
    max_cost_usd: number | null;
    spent_usd: number;
    /** Reserved by its runs in flight, not yet charged. */
    held_usd: number;
    remaining_usd: number | null;
  };
  /** The agent's daily budget today; null when the agent has none. */
  agent_daily: BudgetState | null;
}

export interface RunBudgets {
  /** Reserves the run's first call at its most; throws BudgetExceededError when a budget cannot take it. Undefined when none applies. */
  admit(request: RunBudgetRequest): Promise<RunBudget | undefined>;
  /** Every agent's budget for today and every token cap that has been spent from, across all replicas. */
  list(agents: readonly RegisteredAgent[]): Promise<BudgetState[]>;
  /** One access token's cap and its agent's day, across all replicas. */
  ofToken(tokenId: string, maxCostUsd: number | null, agent: RegisteredAgent | undefined): Promise<TokenBudget>;
}

/** The answered calls an uncapped call's output estimate averages over. */
export const AVERAGED_CALLS = 100;
/** How long one replica reuses an agent's average before it reads it again. */
const AVERAGE_TTL_MS = 30_000;

export function createRunBudgets(options: RunBudgetsOptions): RunBudgets {
  // Read from the usage records, so a restarted process (its runs resumed) estimates as the one before it did.
  const averages = new Map<string, { tokens: number; until: number }>();
  async function uncappedOutputTokens(agent: RegisteredAgent): Promise<number | undefined> {
    const key = `${agent.name}\u0000${agent.model}`;
    const now = Date.now();
    const cached = averages.get(key);
    if (cached && cached.until > now) return cached.tokens;
    const average = await options.spend.averageOutputTokens(agent.name, agent.model, AVERAGED_CALLS);
    // None yet is not kept: the next admission reads again, so the first answered call counts at once.
    if (average === undefined) return undefined;
    const tokens = Math.max(1, Math.ceil(average));
    averages.set(key, { tokens, until: now + AVERAGE_TTL_MS });
    return tokens;
  }

  /** The agent's account today; before its first run today opened it, what stored runs spent. */
  async function dailyState(agent: RegisteredAgent, limitUsd: number, rows: Map<string, BudgetAccountRow>) {
    const day = today(options.now);
    const key = `daily:${agent.name}:${day}`;
    const row = rows.get(key) ?? {
      key,
      spentNanos: toNanos(await options.spend.spentByAgentSince(agent.name, `${day}T00:00:00.000Z`)),
      reservedNanos: 0,
      holds: 0,
    };
    return budgetState(row, 'agent_daily', agent.name, limitUsd);
  }

  return {
    async ofToken(tokenId, maxCostUsd, agent) {
      // The account exists once a capped token's first run was admitted; before that, stored runs say what it spent.
      const key = `token:${tokenId}`;
      const row = (await options.spend.listBudgetAccounts(key)).find((account) => account.key === key) ?? {
        key,
        spentNanos: toNanos(await options.spend.spentByToken(tokenId)),
        reservedNanos: 0,
        holds: 0,
      };
      const capped = maxCostUsd === null ? undefined : budgetState(row, 'token', tokenId, maxCostUsd);
      const token = {
        max_cost_usd: maxCostUsd,
        spent_usd: row.spentNanos / 1e9,
        held_usd: row.reservedNanos / 1e9,
        remaining_usd: capped ? capped.remaining_usd : null,
      };
      const dailyLimit = agent?.daily_budget_usd;
      const agentDaily =
        agent && dailyLimit !== undefined
          ? await dailyState(
              agent,
              dailyLimit,
              new Map((await options.spend.listBudgetAccounts(`daily:${agent.name}:`)).map((row) => [row.key, row])),
            )
          : null;
      return { token, agent_daily: agentDaily };
    },

    async list(agents) {
      const daily = new Map((await options.spend.listBudgetAccounts(`daily:`)).map((row) => [row.key, row]));
      const states: BudgetState[] = [];
      for (const agent of agents) {
        if (agent.daily_budget_usd === undefined) continue;
        states.push(await dailyState(agent, agent.daily_budget_usd, daily));
      }
      for (const row of await options.spend.listBudgetAccounts('token:')) {
        const tokenId = row.key.slice('token:'.length);
        const limit = await options.tokenLimit?.(tokenId);
        if (limit !== undefined && limit !== null) states.push(budgetState(row, 'token', tokenId, limit));
      }
      return states;
    },

    async admit(request) {
      const accounts = await accountsOf(request, options);
      const perRun = request.agent.max_cost_per_run_usd;
      if (accounts.length === 0 && perRun === undefined) return undefined;
      if (accounts.length === 0) return createRunBudget(undefined, perRun, () => 0, 0);
      const { pricing } = options;
      const maxCallCost = pricing
        ? createMaxCallCost({
            pricing,
            model: request.agent.model,
            tools: request.tools,
            maxTokens: request.maxTokens,
            uncappedOutputTokens:
              request.maxTokens === undefined ? await uncappedOutputTokens(request.agent) : undefined,
          })
        : () => 0;
      const firstCallUsd = maxCallCost(request.messages);
      const hold = await options.ledger.admit(request.runId, accounts, firstCallUsd);
      return createRunBudget(hold, perRun, maxCallCost, toNanos(firstCallUsd));
    },
  };
}

async function accountsOf(request: RunBudgetRequest, options: RunBudgetsOptions): Promise<BudgetAccount[]> {
  const { agent, tokenId } = request;
  const accounts: BudgetAccount[] = [];
  if (agent.daily_budget_usd !== undefined) {
    const day = today(options.now);
    accounts.push({
      key: `daily:${agent.name}:${day}`,
      kind: 'agent_daily',
      limitUsd: agent.daily_budget_usd,
      label: `daily budget of agent "${agent.name}"`,
      loadSpent: () => options.spend.spentByAgentSince(agent.name, `${day}T00:00:00.000Z`),
    });
  }
  if (tokenId !== undefined) {
    const limit = request.tokenMaxCostUsd === undefined ? await options.tokenLimit?.(tokenId) : request.tokenMaxCostUsd;
    if (limit !== undefined && limit !== null) {
      const loadSpent = () => options.spend.spentByToken(tokenId);
      accounts.push({
        key: `token:${tokenId}`,
        kind: 'token',
        limitUsd: limit,
        label: `max_cost_usd of access token ${tokenId}`,
        loadSpent,
      });
    }
  }
  return accounts;
}

function createRunBudget(
  hold: BudgetHold | undefined,
  perRunUsd: number | undefined,
  maxCallCost: (messages: ChatMessage[]) => number,
  reservedAtAdmission: number,
): RunBudget {
  let calls = 0;
  // What the run holds for its next call, in nano-dollars: the first call's at admission, 0 once a call settled.
  let reserved = reservedAtAdmission;
  return {
    async beforeModelCall(runCostUsd, messages) {
      calls += 1;
      if (calls > 1 && perRunUsd !== undefined && toNanos(runCostUsd) >= toNanos(perRunUsd)) {
        throw new BudgetExceededError(
          `The run reached its cost limit of $${perRunUsd} (max_cost_per_run_usd) before its next model call`,
          { budget: 'run', stage: 'model_call' },
        );
      }
      if (!hold) return;
      // The first call usually has what admission reserved; a resumed run's first call may carry tool results too.
      const missing = toNanos(maxCallCost(messages)) - reserved;
      if (missing <= 0) return;
      await hold.reserve(missing / 1e9);
      reserved += missing;
    },
    async settle(usd) {
      if (!hold || (reserved === 0 && usd <= 0)) return;
      reserved = 0;
      await hold.settle(usd);
    },
    release: async () => hold?.release(),
  };
}

function today(now?: () => Date): string {
  return (now?.() ?? new Date()).toISOString().slice(0, 10);
}

function budgetState(row: BudgetAccountRow, kind: BudgetState['kind'], subject: string, limitUsd: number): BudgetState {
  const usd = (nanos: number) => nanos / 1e9;
  const remaining = Math.max(0, toNanos(limitUsd) - row.spentNanos - row.reservedNanos);
  return {
    account: row.key,
    kind,
    subject,
    limit_usd: limitUsd,
    spent_usd: usd(row.spentNanos),
    reserved_usd: usd(row.reservedNanos),
    remaining_usd: usd(remaining),
    runs_holding: row.holds,
  };
}
