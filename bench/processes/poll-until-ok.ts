import { request } from 'node:http';

const POLL_INTERVAL_MS = 5;

/** GETs `url` until it answers 200 or `timeoutMs` passes; connection refusals while starting are expected. */
export async function pollUntilOk(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if ((await getStatus(url)) === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  return false;
}

function getStatus(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(undefined));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
