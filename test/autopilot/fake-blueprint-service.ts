/** A loopback fake of the hosted blueprint service: enrollment, signature verification (its own code), retrieve and generate. */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServiceCandidate {
  blueprint_json: string;
  score: number;
}
export type ServiceMode = 'up' | 'down' | 'quota';
export interface ServiceRequest {
  path: string;
  body: any;
  signed: boolean;
  verified: boolean;
}

export interface FakeBlueprintService {
  url: string;
  requests: ServiceRequest[];
  /** Requests whose signature did not verify (answered 401). */
  rejected: number;
  enrollments: number;
  mode: ServiceMode;
  /** Answers retrieve for a goal; default: no candidates. */
  candidates: (goal: string, k: number) => ServiceCandidate[];
  generated: (goal: string) => { blueprint_json: string; confidence: number };
  /** Forgets every enrolled instance (the next signed call gets 401). */
  forget(): void;
  secrets(): string[];
  calls(path: string): ServiceRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The service's own reading of the scheme: hex(HMAC-SHA256(hex-decoded secret, METHOD\npath\ntimestamp\nhex(sha256(body)))). */
function verify(secrets: Map<string, string>, req: IncomingMessage, path: string, text: string): boolean {
  const instance = req.headers['x-service-instance'];
  const timestamp = req.headers['x-service-timestamp'];
  const signature = req.headers['x-service-signature'];
  if (typeof instance !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(timestamp)) return false;
  const secret = secrets.get(instance);
  if (!secret) return false;
  const digest = createHash('sha256').update(text).digest('hex');
  const expected = createHmac('sha256', Buffer.from(secret, 'hex'))
    .update([req.method, path, timestamp, digest].join('\n'))
    .digest('hex');
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

export async function startFakeBlueprintService(): Promise<FakeBlueprintService> {
  const secrets = new Map<string, string>();
  let used = 0;
  const fake: FakeBlueprintService = {
    url: '',
    requests: [],
    rejected: 0,
    enrollments: 0,
    mode: 'up',
    candidates: () => [],
    generated: () => ({ blueprint_json: '{}', confidence: 0 }),
    forget: () => secrets.clear(),
    secrets: () => [...secrets.values()],
    calls: (path) => fake.requests.filter((request) => request.path === path),
    close: async () => undefined,
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const text = await readBody(req);
    const body = text ? JSON.parse(text) : undefined;
    if (fake.mode === 'down') return void req.socket.destroy();
    const signed = typeof req.headers['x-service-signature'] === 'string';
    const request: ServiceRequest = { path, body, signed, verified: false };
    fake.requests.push(request);
    if (path === '/v1/instances/enroll') {
      fake.enrollments += 1;
      const secret = randomBytes(32).toString('hex');
      secrets.set(body.instance_id, secret);
      return send(res, 200, { instance_secret: secret });
    }
    request.verified = verify(secrets, req, path, text);
    if (!request.verified) {
      fake.rejected += 1;
      return send(res, 401, { error: { message: 'bad signature' } });
    }
    const quota = (endpoint: string) => ({
      'x-service-quota': `tier=anonymous;endpoint=${endpoint};used=${++used};limit=100;reset=2026-12-01T00:00:00Z`,
    });
    if (fake.mode === 'quota')
      return send(res, 429, { error: { message: 'quota exceeded' } }, quota(path.split('/').pop()!));
    if (path === '/v1/blueprints/retrieve')
      return send(res, 200, { candidates: fake.candidates(body.goal, body.k) }, quota('retrieve'));
    if (path === '/v1/blueprints/generate') return send(res, 200, fake.generated(body.goal), quota('generate'));
    send(res, 404, { error: { message: 'no route' } });
  };
  // A failure in a fake surfaces as an unhandled rejection, which vitest reports.
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return fake;
}
