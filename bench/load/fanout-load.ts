import { Agent, request, type IncomingMessage } from 'node:http';
import { nowMs, parseStamps } from '../upstream/chunk-text.js';
import type { FanoutJob, FanoutResult } from './load-jobs.js';

interface Stream {
  chunks: number;
  ended: Promise<boolean>;
}

/**
 * Starts one AG-UI run, attaches `subscribers` SSE clients to it, and records how late each stamped chunk
 * reaches each of them. Only chunks the upstream sent after the last subscriber was attached count: earlier
 * ones are replayed from the run log, which measures the replay, not the fan-out.
 */
export async function runFanoutLoad(job: FanoutJob): Promise<FanoutResult> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const headers = { authorization: `Bearer ${job.apiKey}` };
  let attachedAt = Number.POSITIVE_INFINITY;
  const lagMs: number[] = [];
  const ownerLagMs: number[] = [];
  const owner = await open(
    `${job.baseUrl}/agui/runs`,
    'POST',
    { ...headers, 'content-type': 'application/json' },
    JSON.stringify({ agent_name: job.agent, message: job.message }),
    agent,
  );
  const runId = String(owner.headers['x-run-id']);
  const ownerStream = consume(owner, (stamp, at) => stamp >= attachedAt && ownerLagMs.push(at - stamp));
  const streams: Stream[] = [];
  let failed = 0;
  const attachStarted = nowMs();
  for (let start = 0; start < job.subscribers; start += job.attachBatch) {
    const batch = Array.from({ length: Math.min(job.attachBatch, job.subscribers - start) }, () =>
      open(`${job.baseUrl}/agui/ws?run_id=${encodeURIComponent(runId)}`, 'GET', headers, undefined, agent).then(
        (res) => streams.push(consume(res, (stamp, at) => stamp >= attachedAt && lagMs.push(at - stamp))),
        () => (failed += 1),
      ),
    );
    await Promise.all(batch);
  }
  attachedAt = nowMs();
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), job.timeoutMs).unref());
  const ends = await Promise.race([
    Promise.all([ownerStream.ended, ...streams.map((stream) => stream.ended)]),
    timeout,
  ]);
  agent.destroy();
  const counts = streams.map((stream) => stream.chunks);
  return {
    runId,
    attached: streams.length,
    failed,
    attachMs: attachedAt - attachStarted,
    lagMs,
    ownerLagMs,
    chunksPerSubscriber: { min: counts.length ? Math.min(...counts) : 0, max: counts.length ? Math.max(...counts) : 0 },
    dropped: ends === 'timeout' ? streams.length : ends.slice(1).filter((clean) => !clean).length,
  };
}

function open(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  agent: Agent,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      if (res.statusCode === 200) return resolve(res);
      res.resume();
      reject(new Error(`${method} ${url}: status ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Reads whole SSE events and calls `onStamp` for each stamp in them; `ended` is true for a clean end. */
function consume(res: IncomingMessage, onStamp: (stamp: number, receivedAt: number) => unknown): Stream {
  const stream: Stream = { chunks: 0, ended: Promise.resolve(true) };
  let pending = '';
  res.setEncoding('utf8');
  res.on('data', (text: string) => {
    const receivedAt = nowMs();
    pending += text;
    const end = pending.lastIndexOf('\n\n');
    if (end < 0) return;
    for (const stamp of parseStamps(pending.slice(0, end))) {
      stream.chunks += 1;
      onStamp(stamp, receivedAt);
    }
    pending = pending.slice(end + 2);
  });
  stream.ended = new Promise((resolve) => {
    res.on('end', () => resolve(true));
    res.on('error', () => resolve(false));
    res.on('close', () => resolve(res.complete));
  });
  return stream;
}
