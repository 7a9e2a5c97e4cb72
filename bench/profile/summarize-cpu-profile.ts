import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  /** Where it lives: a package, `node:` internals, our `src/…` file, or (program)/(garbage collector). */
  where: string;
  selfMs: number;
  percent: number;
}

export interface ProfileSummary {
  totalMs: number;
  functions: SelfTime[];
  /**
   * Self time added up by package or folder: what to look at first. Native frames (writev, GC of a call…)
   * count for the nearest JavaScript caller's module, so socket writes show up under what made them.
   */
  modules: SelfTime[];
}

/**
 * Self time per function and per module of a V8 `.cpuprofile` (node --cpu-prof). The first `skipMs` of the
 * profile (start-up and warm-up) are left out, so the numbers describe the steady load.
 */
export function summarizeCpuProfile(file: string, options: { skipMs?: number; top?: number } = {}): ProfileSummary {
  const top = options.top ?? 15;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  // The server is an esbuild bundle (dist/chunks/…): frames are mapped back to their source files.
  const byId = new Map(profile.nodes.map((node) => [node.id, withOriginalFrame(node)]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const selfUs = new Map<number, number>();
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    elapsedUs += profile.timeDeltas[index] ?? 0;
    if (elapsedUs < (options.skipMs ?? 0) * 1000) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const totalUs = [...selfUs.values()].reduce((sum, value) => sum + value, 0);
  const functions = new Map<string, SelfTime>();
  const modules = new Map<string, SelfTime>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = `${functionName || '(anonymous)'}${url ? ` ${shortPath(url)}:${lineNumber + 1}` : ''}`;
    add(functions, name, locate(url), us);
    const caller = locate(nearestUrl(id, byId, parents));
    add(modules, caller, caller, us);
  }
  const finish = (map: Map<string, SelfTime>) =>
    [...map.values()]
      .map((entry) => ({
        ...entry,
        selfMs: Math.round(entry.selfMs / 100) / 10,
        percent: Math.round((entry.selfMs / totalUs) * 1000) / 10,
      }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top);
  return { totalMs: Math.round(totalUs / 1000), functions: finish(functions), modules: finish(modules) };
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/** The frame as it reads in the source, through the bundle's source map (`<file>.js.map`) when there is one. */
export function withOriginalFrame(node: ProfileNode): ProfileNode {
  const { url, lineNumber, columnNumber } = node.callFrame;
  // CommonJS frames (the bundle is CommonJS) carry the plain path, ES modules a file: URL.
  if (!(url.startsWith('file://') || url.startsWith('/')) || !url.includes('/dist/')) return node;
  if (!sourceMaps.has(url)) {
    const file = `${url.startsWith('/') ? url : fileURLToPath(url)}.map`;
    sourceMaps.set(
      url,
      existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as SourceMapPayload) : undefined,
    );
  }
  const entry = sourceMaps.get(url)?.findEntry(lineNumber, columnNumber);
  if (!entry || !('originalSource' in entry) || !entry.originalSource) return node;
  const original = entry.originalSource.replace(/^(\.\.\/)+/, '/');
  return { ...node, callFrame: { ...node.callFrame, url: original, lineNumber: entry.originalLine } };
}

function nearestUrl(id: number, byId: Map<number, ProfileNode>, parents: Map<number, number>): string {
  for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
    const url = byId.get(current)?.callFrame.url;
    if (url) return url;
  }
  return '';
}

function add(map: Map<string, SelfTime>, key: string, where: string, us: number): void {
  const entry = map.get(key) ?? { name: key, where, selfMs: 0, percent: 0 };
  entry.selfMs += us;
  map.set(key, entry);
}

/** `node_modules/<package>`, `node:<internal>`, `dist/<folder>` or the V8 pseudo-frames. */
function locate(url: string): string {
  if (!url) return 'V8 / native';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[1] ?? url.slice(5)}`;
  const ours = /\/(dist|src)\/([^/]+)/.exec(url);
  if (ours) return `${ours[1]}/${ours[2].replace(/\.(js|ts)$/, '')}`;
  return url;
}

export function shortPath(url: string): string {
  return url.replace(/^file:\/\/.*?\/(node_modules|dist|src)\//, '$1/').replace(/^node:internal\//, 'node:');
}
