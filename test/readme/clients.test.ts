import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../admin/spawn-server.js';
import { REPO_ROOT } from '../cli/run-cli.js';
import { tempDataDir } from '../support/databases.js';

// Every `js` block of the README is a whole program a user runs with `node` in the repository folder while
// `npm start` serves the bundled config. Here each runs as written, against `serve` with that config, in a
// folder holding the generated admin key (data/admin-api-key) and a link to our node_modules; only the
// address differs (the test server takes a free port instead of 8000).
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const blocks = [...README.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
const run = promisify(execFile);

let temp: { dataDir: string; remove(): void };
let server: ServerProcess;
beforeAll(async () => {
  temp = tempDataDir();
  server = await spawnServer([], {});
  const key = /admin API key was generated:\n\n {2}(agk-\S+)\n/.exec(server.output())?.[1];
  if (!key) throw new Error(`no admin key in the server's output:\n${server.output()}`);
  mkdirSync(join(temp.dataDir, 'data'));
  writeFileSync(join(temp.dataDir, 'data', 'admin-api-key'), `${key}\n`);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(temp.dataDir, 'node_modules'));
}, 60_000);
afterAll(async () => {
  await server?.kill();
  temp?.remove();
});

const runExample = async (source: string, index: number) => {
  const file = join(temp.dataDir, `example-${index}.mjs`);
  writeFileSync(file, source.replaceAll('http://127.0.0.1:8000', server.url));
  const { stdout, stderr } = await run(process.execPath, [file], { cwd: temp.dataDir, timeout: 30_000 });
  return { stdout, stderr };
};

describe('the README', () => {
  it('shows each official client: openai, the AI SDK, LangChain, AG-UI HttpAgent, A2A and MCP', () => {
    const imports = blocks.map((block) => /from '([^']+)';\n/.exec(block)?.[1]);
    expect(imports).toEqual([
      'openai',
      '@ai-sdk/openai',
      '@langchain/openai',
      '@ag-ui/client',
      '@a2a-js/sdk',
      '@modelcontextprotocol/sdk/client/index.js',
    ]);
  });

  it('has the A2A client reach the agent from the host alone (the host root card), picking nothing from a list', () => {
    const a2a = blocks.find((block) => block.includes("from '@a2a-js/sdk'"))!;
    expect(a2a).toContain("new ClientFactory().createFromUrl('http://127.0.0.1:8000')");
    expect(a2a).not.toMatch(/agent-cards?\.json|\/a2a\//);
  });

  it.each(blocks.map((block, index) => [/from '([^']+)'/.exec(block)![1], block, index] as const))(
    "runs the %s example as written: it prints the agent's answer",
    async (_client, block, index) => {
      const { stdout, stderr } = await runExample(block, index);
      // The bundled config's helper is the offline development model, which echoes the user's message.
      expect(stdout.trim(), stderr).toBe('You said: Hello');
      expect(stderr).toBe('');
    },
    60_000,
  );
});
