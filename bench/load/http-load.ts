import { createHmac, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { HttpLoadJob, HttpLoadResult } from './load-jobs.js';

/** Runs one autocannon measurement and keeps every latency at full resolution. */
export function runHttpLoad(job: HttpLoadJob): Promise<HttpLoadResult> {
  const latenciesMs: number[] = [];
  let sequence = 0;
  const setupRequest = job.sign
    ? (request: { body?: string | Buffer; headers?: Record<string, string> }) => {
        sequence += 1;
        // Unique bodies: the gateway de-duplicates deliveries by their SHA-256 when no delivery id is sent.
        const body = JSON.stringify({
          id: `evt_${sequence}_${randomUUID()}`,
          type: 'bench.event',
          data: { sequence, note: 'benchmark delivery' },
        });
        const signature = createHmac('sha256', job.sign!.secret).update(body).digest('hex');
        request.body = body;
        request.headers = { ...job.headers, [job.sign!.header]: signature };
        return request;
      }
    : undefined;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.seconds,
        timeout: 20,
        ...(job.rate ? { overallRate: job.rate } : {}),
        requests: [
          {
            method: job.method,
            headers: job.headers,
            body: job.body,
            ...(setupRequest ? { setupRequest: setupRequest as never } : {}),
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
        resolve({
          ok: latenciesMs.length,
          non2xx: result.non2xx,
          errors: result.errors,
          statusCodes,
          seconds: result.duration,
          latenciesMs,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTime);
    });
  });
}
