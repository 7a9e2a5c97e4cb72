import { request, type IncomingMessage } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { nowMs, parseStamps } from '../upstream/chunk-text.js';
import type { FanoutJob, FanoutResult } from './load-jobs.js';
import { openRawSse, stampArrivals, type RawSseStream } from './sse-raw-client.js';

/**
 * Attaches `subscribers` SSE clients to a run already under way and records when each stamped chunk reached
 * each of them. The bench spreads the subscribers over several load processes: one process reading a
 * thousand sockets spent 25 µs of CPU per delivery in Node's HTTP client, so the last of a thousand reads of
 * one chunk waited about 25 ms on the client's own event loop, which the old bench charged to the gateway.
 * The client's CPU and event-loop delay are reported beside the lag, so a saturated client shows.
 */
export async function runFanoutLoad(job: FanoutJob): Promise<FanoutResult> {
  const headers = { authorization: `Bearer ${job.apiKey}` };
  const path = `/agui/ws?run_id=${encodeURIComponent(job.runId)}`;
  const streams: RawSseStream[] = [];
  let failed = 0;
  const attachStartedAt = nowMs();
  for (let start = 0; start < job.subscribers; start += job.attachBatch) {
    const batch = Array.from({ length: Math.min(job.attachBatch, job.subscribers - start) }, () =>
      openRawSse(job.baseUrl, path, headers).then(
        (stream) => streams.push(stream),
        () => (failed += 1),
      ),
    );
    await Promise.all(batch);
  }
  const attachedAt = nowMs();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), job.timeoutMs)));
  const ends = await Promise.race([Promise.all(streams.map((stream) => stream.ended)), timeout]);
  clearTimeout(timer);
  const cpu = process.cpuUsage(cpuBefore);
  const deliveryMs = nowMs() - attachedAt;
  delay.disable();
  for (const stream of streams) stream.socket.destroy();
  // The bench counts only chunks stamped after the last subscriber of every process attached; this process's
  // own last attach is an earlier bound, so nothing it drops here could count.
  const deliveries: number[] = [];
  const counts = streams.map((stream) => {
    const arrivals = stampArrivals(stream);
    for (const [stamp, at] of arrivals) if (stamp >= attachedAt) deliveries.push(stamp, at);
    return arrivals.length;
  });
  return {
    attached: streams.length,
    failed,
    attachStartedAt,
    attachedAt,
    deliveries,
    chunksPerSubscriber: { min: counts.length ? Math.min(...counts) : 0, max: counts.length ? Math.max(...counts) : 0 },
    dropped: ends === 'timeout' ? streams.length : ends.filter((end) => !end.clean).length,
    client: {
      cpuMs: (cpu.user + cpu.system) / 1000,
      deliveryMs,
      eventLoopDelayP50Ms: delay.percentile(50) / 1e6,
      eventLoopDelayP99Ms: delay.percentile(99) / 1e6,
      eventLoopDelayMaxMs: delay.max / 1e6,
    },
  };
}

export interface OwnerStream {
  runId: string;
  /** [stamp, receivedAt] of every stamped chunk of the run's own stream. */
  arrivals: Array<[number, number]>;
  /** True for a clean end. */
  ended: Promise<boolean>;
}

/** POST /agui/runs: the run the subscribers attach to, read by its own (single) client as it streams. */
export function startOwnerStream(
  baseUrl: string,
  apiKey: string,
  agent: string,
  message: string,
): Promise<OwnerStream> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/agui/runs`,
      { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`POST /agui/runs: status ${res.statusCode}`));
        }
        const arrivals: Array<[number, number]> = [];
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          const receivedAt = nowMs();
          pending += text;
          const end = pending.lastIndexOf('\n\n');
          if (end < 0) return;
          for (const stamp of parseStamps(pending.slice(0, end))) arrivals.push([stamp, receivedAt]);
          pending = pending.slice(end + 2);
        });
        const ended = new Promise<boolean>((done) => {
          res.on('end', () => done(true));
          res.on('error', () => done(false));
          res.on('close', () => done(res.complete));
        });
        resolve({ runId: String(res.headers['x-run-id']), arrivals, ended });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ agent_name: agent, message }));
  });
}
