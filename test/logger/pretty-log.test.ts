import { describe, expect, it } from 'vitest';
import { spawnServer } from '../admin/spawn-server.js';
import { createPrettyLogStream, formatLogLine } from '../../src/logger.js';

describe('the readable log format', () => {
  it('writes a pino line as time, level, message and fields; a request as method, path, status and time', () => {
    const warning = {
      level: 40,
      time: '2026-11-29T03:46:19.942Z',
      pid: 1,
      hostname: 'vm',
      config: '/etc/agent-gateway.yaml',
      msg: 'using the bundled example config',
    };
    expect(formatLogLine(JSON.stringify(warning))).toBe(
      '03:46:19.942  WARN   using the bundled example config  config=/etc/agent-gateway.yaml',
    );
    const request = {
      level: 30,
      time: '2026-11-29T03:46:20.406Z',
      reqId: 'req_1',
      req: { method: 'GET', url: '/v1/models', request_id: 'req_1' },
      res: { statusCode: 401 },
      responseTime: 26.21,
      msg: 'request completed',
    };
    expect(formatLogLine(JSON.stringify(request))).toBe(
      '03:46:20.406  INFO   request completed  GET /v1/models 401 26.2ms  reqId=req_1',
    );
    const failure = {
      level: 50,
      time: '2026-11-29T03:46:21.000Z',
      err: { stack: 'Error: boom\n  at x' },
      msg: 'failed',
    };
    expect(formatLogLine(JSON.stringify(failure))).toBe('03:46:21.000  ERROR  failed\n    Error: boom\n      at x');
    expect(formatLogLine('not json')).toBe('not json');
  });

  it('reassembles lines split across writes', () => {
    let out = '';
    const stream = createPrettyLogStream({ write: (text: string) => (out += text) });
    const line = JSON.stringify({ level: 30, time: '2026-11-29T00:00:00.000Z', msg: 'hello', n: 1 });
    stream.write(line.slice(0, 10));
    stream.write(`${line.slice(10)}\n`);
    expect(out).toBe('00:00:00.000  INFO   hello  n=1\n');
  });

  it('is what serve writes with LOG_FORMAT=pretty; without it, output that is not a terminal stays JSON', async () => {
    const pretty = await spawnServer([], { LOG_FORMAT: 'pretty' });
    await pretty.kill();
    expect(pretty.output()).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} {2}WARN {3}no config file found .*: using the bundled example config {2}config=\S+$/m,
    );
    expect(pretty.output()).not.toMatch(/^\{"level"/m);
    const json = await spawnServer([], {});
    await json.kill();
    expect(json.output()).toMatch(/^\{"level":40,.*"msg":"provider \\"dev\\" is the offline development model/m);
  });
});
