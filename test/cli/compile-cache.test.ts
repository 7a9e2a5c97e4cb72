import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('../../src/cli/compile-cache.ts', import.meta.url));

let dir: string;
const scope = () => join(dir, 'dist');
const cacheDir = () => join(dir, 'cache');

/**
 * Each run is a fresh process, as each start of the server is: compile-cache.ts built to CommonJS as the bundle
 * has it, a "chunk" in scope required through it, and what the chunk answered plus the cache's counts printed.
 */
function run(env: NodeJS.ProcessEnv = {}): { answer: string; hits: number; misses: number } | { off: true } {
  const out = execFileSync(process.execPath, [join(dir, 'runner.cjs')], {
    env: { ...process.env, AGENT_GATEWAY_COMPILE_CACHE: '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as { answer: string; hits: number; misses: number } | { off: true };
}

/** A chunk whose answer() has run before the cache is saved: its compiled code is in the cache. */
function writeChunk(word: string): void {
  writeFileSync(join(scope(), 'chunk.js'), `exports.answer = function answer() { return '${word}'; };\n`);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
  mkdirSync(scope());
  writeFileSync(join(scope(), 'package.json'), '{"type":"commonjs"}\n');
  buildSync({
    entryPoints: [SOURCE],
    outfile: join(dir, 'compile-cache.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
  });
  writeFileSync(
    join(dir, 'runner.cjs'),
    [
      `const { installCompileCache, saveCompileCache } = require('./compile-cache.cjs');`,
      `const cache = installCompileCache({ scope: ${JSON.stringify(scope())}, cacheDir: ${JSON.stringify(cacheDir())} });`,
      `const answer = require(${JSON.stringify(join(scope(), 'chunk.js'))}).answer();`,
      `saveCompileCache();`,
      `console.log(JSON.stringify(cache ? { answer, ...cache.stats } : { off: true }));`,
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the compile cache of the bundled server', () => {
  it('compiles on the first start and serves the next from the cache', () => {
    writeChunk('one');
    expect(run()).toEqual({ answer: 'one', hits: 0, misses: 1 });
    expect(run()).toEqual({ answer: 'one', hits: 1, misses: 0 });
  });

  it('never runs a cache made from other source, even of the same length (V8 checks only the length)', () => {
    writeChunk('one');
    run();
    writeChunk('two');
    expect(run()).toEqual({ answer: 'two', hits: 0, misses: 1 });
    expect(run()).toEqual({ answer: 'two', hits: 1, misses: 0 });
  });

  it('rejects a cache made under other V8 flags and compiles the source', () => {
    writeChunk('six');
    expect(run()).toMatchObject({ answer: 'six', misses: 1 });
    expect(run({ NODE_OPTIONS: '--max-old-space-size=100' })).toEqual({ answer: 'six', hits: 0, misses: 1 });
  });

  it('reads a file that is not ASCII as UTF-8 (the build escapes non-ASCII, a hand-edited file may not)', () => {
    writeChunk('café ☕');
    expect(run()).toMatchObject({ answer: 'café ☕' });
    expect(run()).toEqual({ answer: 'café ☕', hits: 1, misses: 0 });
  });

  it('is off with AGENT_GATEWAY_COMPILE_CACHE=0', () => {
    rmSync(cacheDir(), { recursive: true, force: true });
    writeChunk('ten');
    expect(run({ AGENT_GATEWAY_COMPILE_CACHE: '0' })).toEqual({ off: true });
    expect(() => readdirSync(cacheDir())).toThrow();
  });
});
