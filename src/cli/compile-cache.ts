import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';

/**
 * A V8 code cache for the bundled server (dist/ is CommonJS for this: Node 20 has no compile cache for ES
 * modules, `module.enableCompileCache` came in Node 22). Compiling the chunks' source was about a fifth of
 * start-up's CPU; with the bytecode that the previous start compiled (the functions start-up ran included),
 * V8 deserializes instead of parsing and compiling.
 *
 * Never stale: each cache file is named after the SHA-256 of the exact source it was made from, and V8
 * itself rejects data made by another V8 version or under other V8 flags (`cachedDataRejected`): then the
 * source is compiled as usual and the data made again. Lives in the build's own folder (same trust as the
 * code it caches; deleted by every build; not in the npm package), written by the first start after a build.
 */
export interface CompileCache {
  /** Writes the cache of each script that had none (or a rejected one). Call while V8's flags are as at load. */
  save(): void;
  /** Scripts compiled so far: from the cache, and without one. */
  readonly stats: { hits: number; misses: number };
  /** Puts Node's own loader back (tests). */
  uninstall(): void;
}

interface NodeModule {
  exports: unknown;
  require(id: string): unknown;
}

interface ModuleInternals {
  wrap(source: string): string;
  _resolveFilename(request: string, parent: NodeModule, isMain: boolean, options?: unknown): string;
  _cache: unknown;
  _extensions: Record<string, (module: NodeModule, filename: string) => unknown>;
}

/**
 * Serves every CommonJS file under `scope` (`.js`) from the cache in `cacheDir`. Returns undefined when off:
 * AGENT_GATEWAY_COMPILE_CACHE=0, or source maps on (Node maps stack traces only for what it compiled itself).
 */
export function installCompileCache(options: { scope: string; cacheDir: string }): CompileCache | undefined {
  const setting = process.env.AGENT_GATEWAY_COMPILE_CACHE;
  if (setting === '0' || setting === 'false' || setting === 'off') return undefined;
  if ((process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled) return undefined;
  const internals = Module as unknown as ModuleInternals;
  const scope = options.scope.endsWith(sep) ? options.scope : options.scope + sep;
  const original = internals._extensions['.js'];
  const pending: { script: Script; file: string }[] = [];
  const stats = { hits: 0, misses: 0 };

  internals._extensions['.js'] = (module, filename) => {
    if (!filename.startsWith(scope)) return original(module, filename);
    // Both reads land in buffers reused from file to file: each is used up before the module runs (and
    // requires the next), and start-up does not leave megabytes of dead buffers to the next collection.
    const bytes = readInto(filename, 0);
    if (!bytes) return original(module, filename);
    const key = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    const file = join(options.cacheDir, `${basename(filename)}.${key}`);
    const cachedData = readInto(file, 1);
    // The build escapes every non-ASCII character: read as Latin-1, the source is the same string, made in
    // half the time of UTF-8 decoding (a file that is not ASCII is decoded as UTF-8).
    const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    const script = new Script(internals.wrap(source), { filename, cachedData });
    if (cachedData && !script.cachedDataRejected) stats.hits += 1;
    else {
      stats.misses += 1;
      pending.push({ script, file });
    }
    const require = Object.assign((id: string) => module.require(id), {
      resolve: (request: string, resolveOptions?: unknown) =>
        internals._resolveFilename(request, module, false, resolveOptions),
      main: mainModule(),
      cache: internals._cache,
      extensions: internals._extensions,
    });
    const run = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return run.call(module.exports, module.exports, require, module, filename, dirname(filename));
  };

  active = {
    stats,
    save() {
      scratch.fill(EMPTY);
      for (const { script, file } of pending.splice(0)) {
        try {
          mkdirSync(options.cacheDir, { recursive: true });
          // Renamed into place: another process starting from the same build never reads half a file.
          const partial = `${file}.${process.pid}.tmp`;
          writeFileSync(partial, script.createCachedData());
          renameSync(partial, file);
        } catch {
          // A read-only install: it starts without the cache, as before.
        }
      }
    },
    uninstall() {
      internals._extensions['.js'] = original;
      active = undefined;
    },
  };
  return active;
}

let active: CompileCache | undefined;

/** The installed cache's save() (serve calls it once started, before it listens); nothing when off. */
export function saveCompileCache(): void {
  active?.save();
}

const EMPTY = Buffer.alloc(0);
const scratch = [EMPTY, EMPTY];

/** The file's bytes in scratch buffer `slot` (valid until the next read into it), or undefined if unreadable. */
function readInto(file: string, slot: 0 | 1): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (scratch[slot].length < size) scratch[slot] = Buffer.allocUnsafeSlow(size);
    const buffer = scratch[slot];
    let read = 0;
    for (let got = 1; read < size && got > 0; read += got) got = readSync(fd, buffer, read, size - read, read);
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function mainModule(): unknown {
  return (process as { mainModule?: unknown }).mainModule;
}
