// Builds the server into dist/ with esbuild: the two CLIs (dist/cli/main.js, dist/cli/autopilot-main.js) and
// the chunks they share (dist/chunks/), with src/ and its npm dependencies bundled in. Start-up was mostly
// module loading: about 1,200 files (resolving, reading, compiling each) before the first request; bundled,
// it is a dozen chunks. Dynamic imports (`await import(...)`) stay separate chunks, loaded on first use.
// The output is CommonJS (dist/package.json says so): esbuild splits only ES modules, so each file is
// converted after the build. Node 20 compiles ES modules without any cache, but CommonJS through
// src/cli/compile-cache.ts with V8's code cache.
// No type checking here: `npm run typecheck` (part of `npm test`) does that.
/* global URL -- Node's global: this file is plain JavaScript, outside the TypeScript project */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

/**
 * Left to Node's resolution at run time: packages that find files next to their own code (better-sqlite3's
 * native binding, pino's and thread-stream's worker files, swagger-ui's static assets), and those our code
 * loads with createRequire (drivers loaded only when configured).
 */
const EXTERNAL = ['better-sqlite3', 'pino', 'thread-stream', '@fastify/swagger-ui', 'ioredis', 'pg'];

// Every output file sits one folder below dist/ (dist/cli/, dist/chunks/), so `../` is dist/ in each.
const BANNER =
  "const __agentGatewayDist=require('node:url').pathToFileURL(require('node:path').join(__dirname,'..')+'/');";

/**
 * `import.meta.url` as the unbundled file had it (dist/<path>.js): src/ finds package.json, config/ and dist/ui/
 * relative to its own file, and a module bundled into a chunk would otherwise see the chunk's URL.
 */
/** @type {import('esbuild').Plugin} */
const keepImportMetaUrl = {
  name: 'keep-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async ({ path }) => {
      const asBuilt = relative(join(root, 'src'), path).split('\\').join('/').replace(/\.ts$/, '.js');
      const source = await readFile(path, 'utf8');
      return {
        contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(asBuilt)}, __agentGatewayDist).href`),
        loader: 'ts',
      };
    });
  },
};

// Built in memory first: a failed build (a syntax error) leaves the previous dist/ in place.
const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts', 'src/cli/autopilot-main.ts'],
  outbase: 'src',
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  plugins: [keepImportMetaUrl],
  // Inline, for the conversion below to carry on (it writes the final, linked maps).
  sourcemap: 'inline',
  // Less source to read and parse at start (2.2 MB instead of 3.4 MB for the main chunk); names are kept, and
  // the source maps lead back to src/ and node_modules/.
  minifyWhitespace: true,
  minifySyntax: true,
  // No keepNames: esbuild would wrap every function expression in `__name(fn, "…")`, an Object.defineProperty
  // each time a closure is made (dozens per request: −12 % CPU per chat completion without it, bench/HISTORY.md,
  // 2026-11-25). Identifiers are not minified, so names stay as written except where two bundled modules
  // declare the same top-level name (the second becomes `Name2`): test/build/bundle-names.test.ts checks the
  // gateway's own error classes, whose `name` is their class name (errors.ts, new.target.name).
  keepNames: false,
  write: false,
  logLevel: 'warning',
});

// The previous build's files (tsc's one-file-per-module output included), but not the dashboard's build.
for (const entry of await readdir(dist).catch(() => []))
  if (entry !== 'ui') await rm(join(dist, entry), { recursive: true, force: true });

// V8 keeps each module's source text in memory as one string, Latin-1 (a byte a character) only when every
// character fits: a single curly quote in a regular expression made the 2 MB app chunk two bytes a character.
// esbuild escapes non-ASCII in strings but not in regular expressions; a \uXXXX escape means the same there
// (and in strings, templates and comments). Astral characters are left alone (their escape differs without /u).
// Everything above ASCII is escaped, so that compile-cache.ts can read a file as Latin-1, faster than UTF-8.
// (Escaping shifts the source map's columns after such a character on its line: a profile's attribution only.)
for (const file of result.outputFiles) {
  if (!file.path.endsWith('.js')) continue;
  const converted = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    banner: BANNER,
    // import() of a chunk (or an external package) becomes a require() on first use: still loaded lazily,
    // and through the compile cache.
    supported: { 'dynamic-import': false },
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'external',
    sourcefile: basename(file.path),
    logLevel: 'warning',
  });
  const text = converted.code.replace(
    /[\u0080-\uD7FF\uE000-\uFFFF]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(file.path, `${text}//# sourceMappingURL=${basename(file.path)}.map\n`);
  await writeFile(`${file.path}.map`, converted.map);
}
await writeFile(join(dist, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
