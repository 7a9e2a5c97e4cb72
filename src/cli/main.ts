#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { installCompileCache } from './compile-cache.js';
import { holdYoungGeneration } from './young-generation.js';

// Before anything else loads: the modules below are most of start-up's allocation.
holdYoungGeneration();
// After the hold: V8 accepts a code cache only under the flags it was made with (see serve's save()).
const dist = fileURLToPath(new URL('..', import.meta.url));
installCompileCache({
  scope: dist,
  cacheDir: `${dist}.compile-cache/${process.version}-${process.arch}`,
});
// No top-level await: dist/ is CommonJS (see compile-cache.ts), and runProgram reports every failure itself.
void import('./program.js').then(({ createProgram, runProgram }) => runProgram(createProgram(), process.argv));
