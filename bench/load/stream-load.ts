import { Agent, request } from 'node:http';
import { nowMs, parseStamps } from '../upstream/chunk-text.js';
import type { StreamLoadJob, StreamLoadResult } from './load-jobs.js';

/**
 * Streamed completions from `concurrency` closed-loop clients. autocannon only sees whole responses, so this
 * client timestamps each chunk as it arrives: time to first token, gaps between chunks, and delivery lag
 * against the stamp the upstream wrote into each chunk.
 */
export async function runStreamLoad(job: StreamLoadJob): Promise<StreamLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const result: StreamLoadResult = { requests: 0, errors: 0, ttftMs: [], gapMs: [], lagMs: [], chunks: 0 };
  const deadline = nowMs() + job.seconds * 1000;
  const client = async () => {
    while (nowMs() < deadline) {
      try {
        await streamOnce(job, agent, result);
        result.requests += 1;
      } catch {
        result.errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, client));
  agent.destroy();
  return result;
}

function streamOnce(job: StreamLoadJob, agent: Agent, result: StreamLoadResult): Promise<void> {
  return new Promise((resolve, reject) => {
    const sentAt = nowMs();
    let previous: number | undefined;
    let pending = '';
    const req = request(job.url, { method: 'POST', headers: job.headers, agent, timeout: 30_000 }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`status ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const receivedAt = nowMs();
        // Only whole SSE events are read, so a stamp split across two reads is never half-parsed.
        pending += text;
        const end = pending.lastIndexOf('\n\n');
        if (end < 0) return;
        const stamps = parseStamps(pending.slice(0, end));
        pending = pending.slice(end + 2);
        for (const stamp of stamps) {
          if (previous === undefined) result.ttftMs.push(receivedAt - sentAt);
          else result.gapMs.push(receivedAt - previous);
          previous = receivedAt;
          result.lagMs.push(receivedAt - stamp);
          result.chunks += 1;
        }
      });
      res.on('end', () => (previous === undefined ? reject(new Error('no content chunk')) : resolve()));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(job.body);
  });
}
