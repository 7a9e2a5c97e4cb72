import { expect } from 'vitest';
import { TEST_API_KEY } from '../../../support/app.js';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../../../support/fake-upstream.js';
import { hmacHex } from '../webhooks/signing.js';

export const PRESSURE_SECRET = 'pressure-secret';

/**
 * Webhook `pressure` whose handler runs agent `worker` on provider `upstream` with `handle {{id}}`, so the
 * upstream sees each payload id in its prompt. `upstreamUrl` may be a `${VAR}` for a per-process value.
 * A failed attempt is retried after 50 ms, so it shows as a second attempt rather than as a timeout.
 */
export function pressureYaml(
  upstreamUrl: string,
  options: { concurrency: number; extra?: string; leaseSeconds?: number },
): string {
  return `
server: { log_level: warn }
auth: { api_keys: ["${TEST_API_KEY}"] }
providers:
  upstream: { type: openai-compatible, base_url: "${upstreamUrl}", max_retries: 0 }
agents:
  - { name: worker, model: upstream/test-model }
webhook_settings: { concurrency: ${options.concurrency}, lease_seconds: ${options.leaseSeconds ?? 60}, backoff_seconds: 0.05 }
runs: { lease_seconds: ${options.leaseSeconds ?? 30} }
webhooks:
  - name: pressure
    verification: hmac-sha256
    secret: ${PRESSURE_SECRET}
    handlers: [{ event: "*", agent: worker, prompt: "handle {{id}}" }]
${options.extra ?? ''}`;
}

/**
 * A fake upstream that answers every chat call after `delayMs` and counts, per id found in the prompt
 * (`handle <id>`), how often it was called, and how many calls were open at once.
 */
export interface CountingUpstream {
  url: string;
  upstream: FakeUpstream;
  /** Calls per id, in arrival order of the first call. */
  calls: Map<string, number>;
  /** Ids whose call has arrived and not been answered yet. */
  open: Set<string>;
  peak(): number;
  total(): number;
  /** Ids called more than once. */
  duplicates(): string[];
  close(): Promise<void>;
}

export async function startCountingUpstream(
  delayMs: number,
  options: {
    /** A streamed answer to `id` sends its first piece, then waits for the promise returned here (if any). */
    gate?: (id: string) => Promise<void> | undefined;
  } = {},
): Promise<CountingUpstream> {
  const upstream = await startFakeUpstream();
  const calls = new Map<string, number>();
  const open = new Set<string>();
  let peak = 0;
  let total = 0;
  upstream.setDefault((request: RecordedRequest) => {
    const id = promptId(request);
    calls.set(id, (calls.get(id) ?? 0) + 1);
    total += 1;
    open.add(id);
    peak = Math.max(peak, open.size);
    // Scheduled before the fake upstream's own delay timer of the same length, so it fires first:
    // a call counts as open until just before its answer is written.
    setTimeout(() => open.delete(id), delayMs);
    const gate = options.gate?.(id);
    if (gate) return { kind: 'text', text: `handled ${id}`, delayMs, chunks: 2, gates: [{ at: 1, open: gate }] };
    return { kind: 'text', text: `handled ${id}`, delayMs };
  });
  return {
    url: upstream.url,
    upstream,
    calls,
    open,
    peak: () => peak,
    total: () => total,
    duplicates: () => [...calls].filter(([, count]) => count > 1).map(([id]) => id),
    close: () => upstream.close(),
  };
}

function promptId(request: RecordedRequest): string {
  const messages: { role: string; content: unknown }[] = request.body?.messages ?? [];
  const text = messages
    .filter((message) => message.role === 'user')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join(' ');
  const match = /handle (\S+)/.exec(text);
  if (!match) throw new Error(`no "handle <id>" in the prompt: ${text}`);
  return match[1];
}

/** Posts one signed delivery with payload id `id`; resolves with the 202's delivery id. */
export async function postDelivery(baseUrl: string, id: string): Promise<string> {
  const body = JSON.stringify({ type: 'job.created', id });
  const response = await fetch(`${baseUrl}/webhooks/pressure`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-signature': hmacHex(body, PRESSURE_SECRET) },
  });
  const answer = (await response.json()) as { delivery_id: string; event: string; duplicate: boolean };
  if (response.status !== 202) throw new Error(`delivery ${id} answered ${response.status}: ${JSON.stringify(answer)}`);
  expect(answer).toMatchObject({ event: 'pressure.job.created', duplicate: false });
  return answer.delivery_id;
}

/**
 * Sends `ids` in bursts of `burst` concurrent requests, each burst after the previous one was answered;
 * `target(index)` picks the server of each delivery. Resolves with payload id → delivery id.
 */
export async function sendBursts(
  ids: string[],
  burst: number,
  target: (index: number) => string,
): Promise<Map<string, string>> {
  const acknowledged = new Map<string, string>();
  for (let start = 0; start < ids.length; start += burst) {
    const slice = ids.slice(start, start + burst);
    const answers = await Promise.all(slice.map((id, offset) => postDelivery(target(start + offset), id)));
    slice.forEach((id, offset) => acknowledged.set(id, answers[offset]));
  }
  return acknowledged;
}

export function payloadIds(count: number, prefix: string): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
}

export interface ListedDelivery {
  id: string;
  kind: string;
  trigger: string;
  status: string;
  attempts: number;
  run_ids: string[];
}

/** Every stored delivery with this status and kind, read through the operators' API 500 at a time. */
export async function listDeliveries(
  baseUrl: string,
  query: { status: 'done' | 'pending'; kind: 'webhook' | 'poller' },
): Promise<ListedDelivery[]> {
  const all: ListedDelivery[] = [];
  for (let offset = 0; ; offset += 500) {
    const response = await fetch(
      `${baseUrl}/api/v1/admin/triggers/deliveries?status=${query.status}&kind=${query.kind}&limit=500&offset=${offset}`,
      { headers: { 'x-api-key': TEST_API_KEY } },
    );
    if (response.status !== 200) throw new Error(`deliveries answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as ListedDelivery[];
    all.push(...page);
    if (page.length < 500) return all;
  }
}

/** Waits until every delivery in `ids` is done; each poll reads all done deliveries of this kind through the API. */
export async function waitForDone(
  baseUrl: string,
  kind: 'webhook' | 'poller',
  ids: Set<string>,
  timeout: number,
): Promise<ListedDelivery[]> {
  const listDone = async () =>
    (await listDeliveries(baseUrl, { status: 'done', kind })).filter((delivery) => ids.has(delivery.id));
  // Distinct ids: while deliveries still finish, one that turns done between two pages shifts the next page, so a
  // listing can hold one delivery twice and miss another. Once all are done the listing is stable: read it again.
  await expect
    .poll(async () => new Set((await listDone()).map((delivery) => delivery.id)).size, { timeout, interval: 250 })
    .toBe(ids.size);
  return listDone();
}

/** Ids that appear more than once in a list. */
export function repeated(ids: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(ids.filter((id) => seen.has(id) || !seen.add(id)))];
}

export interface ListedRun {
  run_id: string;
  status: string;
  source: string;
}

/** Every run of agent `worker` in this status, read through GET /api/v1/admin/runs 500 at a time. */
export async function listRuns(baseUrl: string, status: 'running' | 'completed' | 'interrupted'): Promise<ListedRun[]> {
  const all: ListedRun[] = [];
  for (let offset = 0; ; offset += 500) {
    const response = await fetch(
      `${baseUrl}/api/v1/admin/runs?agent_name=worker&status=${status}&limit=500&offset=${offset}`,
      { headers: { 'x-api-key': TEST_API_KEY } },
    );
    if (response.status !== 200) throw new Error(`runs answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as ListedRun[];
    all.push(...page);
    if (page.length < 500) return all;
  }
}
