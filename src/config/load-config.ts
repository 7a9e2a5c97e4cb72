import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, LineCounter, parse, parseDocument, visit, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { configSchema, type Config } from './config.schema.js';
import { applyEnvOverrides, type ConfigOverrides } from './env.js';

export const BUNDLED_CONFIG_PATH = fileURLToPath(new URL('../../config/agent-gateway.example.yaml', import.meta.url));

export interface LoadedConfig {
  config: Config;
  /** The file that was read, or undefined when the config came from a literal object. */
  path?: string;
  /** True when no config file was found and the bundled example is in use. */
  bundled: boolean;
}

export interface LoadConfigOptions {
  /** --config flag; wins over AGENT_GATEWAY_CONFIG and ./agent-gateway.yaml. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Command-line flags; they win over the environment. */
  overrides?: ConfigOverrides;
}

/** Finds, reads, interpolates and validates the config file, then applies env and flag overrides. */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const { path, bundled } = resolveConfigPath(options.file, env, options.cwd ?? process.cwd());
  const config = parseConfigText(readConfigFile(path), path, env);
  return { config: applyEnvOverrides(config, env, options.overrides ?? {}), path, bundled };
}

export function readConfigFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${path}: cannot read config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

/** The file the server reads: --config, else AGENT_GATEWAY_CONFIG, else ./agent-gateway.yaml, else the bundled example. */
export function resolveConfigPath(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { path: string; bundled: boolean } {
  const explicit = file ?? env.AGENT_GATEWAY_CONFIG;
  if (explicit) return { path: resolve(cwd, explicit), bundled: false };
  const local = resolve(cwd, 'agent-gateway.yaml');
  if (existsSync(local)) return { path: local, bundled: false };
  return { path: BUNDLED_CONFIG_PATH, bundled: true };
}

/** Parses YAML text into a validated Config; every problem is reported as `file:line: message`. */
export function parseConfigText(text: string, file: string, env: NodeJS.ProcessEnv = {}): Config {
  const { doc, at } = parseYaml(text, file);
  interpolateEnv(doc, env, at);
  const result = configSchema.safeParse(doc.toJS() ?? {});
  if (result.success) return Object.freeze(result.data);
  throw new ConfigError(
    flattenIssues(result.error.issues)
      .map((issue) => `${at(issueOffset(doc, issue))}: ${describeIssue(doc, issue)}`)
      .join('\n'),
  );
}

/** The YAML document, and `at(offset)` naming a position as `file:line`; a syntax error throws a ConfigError. */
export function parseYaml(text: string, file: string): { doc: Document; at: (offset?: number) => string } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number | undefined) => `${file}:${offset === undefined ? 1 : lineCounter.linePos(offset).line}`;
  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((error) => `${at(error.pos[0])}: ${error.message.split('\n')[0]}`).join('\n'));
  }
  return { doc, at };
}

/**
 * Replaces `${NAME}` and `${NAME:-default}` in string scalars, keeping node positions for error lines.
 * An unquoted value is then read as if its result had been typed in place (`port: ${PORT:-8000}` is a
 * number); quote it to keep a string.
 */
export function interpolateEnv(doc: Document | Node, env: NodeJS.ProcessEnv, at: (offset?: number) => string): void {
  const missing: string[] = [];
  visit(doc, {
    Scalar(key, node) {
      if (typeof node.value !== 'string' || !node.value.includes('${')) return;
      const replaced = node.value.replace(
        /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
        (_match, name: string, fallback?: string) => {
          const value = env[name];
          if (value !== undefined && value !== '') return value;
          if (fallback !== undefined) return fallback;
          missing.push(`${at(node.range?.[0])}: environment variable ${name} is not set`);
          return '';
        },
      );
      node.value = key !== 'key' && node.type === 'PLAIN' ? retypePlainScalar(replaced) : replaced;
    },
  });
  if (missing.length > 0) throw new ConfigError(missing.join('\n'));
}

/** Numbers and booleans as YAML would read them; anything else (null and collections too) stays a string. */
function retypePlainScalar(text: string): string | number | boolean {
  try {
    const value: unknown = parse(text);
    return typeof value === 'number' || typeof value === 'boolean' ? value : text;
  } catch {
    return text;
  }
}

/**
 * One issue per line of the file: zod reports a failed union as one vague issue (we report the issues of
 * the branch the entry most resembles instead) and several unknown keys as one issue (we split them).
 */
function flattenIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const best = [...issue.errors].sort((a, b) => compareBranches(score(a), score(b)))[0];
      return flattenIssues(best, path);
    }
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ ...issue, path, keys: [key] }));
    return [{ ...issue, path }];
  });
}

/** Fewer unknown keys first (the entry's own keys match that branch), then fewer issues. */
function score(branch: z.core.$ZodIssue[]): [number, number] {
  const unknownKeys = branch.reduce(
    (sum, issue) => sum + (issue.code === 'unrecognized_keys' ? issue.keys.length : 0),
    0,
  );
  return [unknownKeys, branch.length];
}

function compareBranches(a: [number, number], b: [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

function issueOffset(doc: Document, issue: z.core.$ZodIssue): number | undefined {
  const path = issue.path as (string | number)[];
  // Walk up to the deepest node that exists: a missing field is reported at its parent.
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as Node | undefined;
    if (!node) continue;
    if (issue.code === 'unrecognized_keys' && depth === path.length && isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && issue.keys.includes(String(item.key.value)));
      if (pair && isScalar(pair.key)) return pair.key.range?.[0];
    }
    return node.range?.[0];
  }
  return undefined;
}

function describeIssue(doc: Document, issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') return `unknown key "${issue.keys[0]}"${field ? ` in ${field}` : ''}`;
  if (issue.code === 'invalid_type' && field && !doc.hasIn(issue.path as (string | number)[]))
    return `${field}: is required (expected ${issue.expected})`;
  return field ? `${field}: ${issue.message}` : issue.message;
}
