import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${path}: cannot read config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const config = parseConfigText(text, path, env);
  return { config: applyEnvOverrides(config, env, options.overrides ?? {}), path, bundled };
}

function resolveConfigPath(file: string | undefined, env: NodeJS.ProcessEnv, cwd: string): { path: string; bundled: boolean } {
  const explicit = file ?? env.AGENT_GATEWAY_CONFIG;
  if (explicit) return { path: resolve(cwd, explicit), bundled: false };
  const local = resolve(cwd, 'agent-gateway.yaml');
  if (existsSync(local)) return { path: local, bundled: false };
  return { path: BUNDLED_CONFIG_PATH, bundled: true };
}

/** Parses YAML text into a validated Config; every problem is reported as `file:line: message`. */
export function parseConfigText(text: string, file: string, env: NodeJS.ProcessEnv = {}): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number | undefined) => `${file}:${offset === undefined ? 1 : lineCounter.linePos(offset).line}`;
  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((error) => `${at(error.pos[0])}: ${error.message.split('\n')[0]}`).join('\n'));
  }
  interpolateEnv(doc, env, at);
  const result = configSchema.safeParse(doc.toJS() ?? {});
  if (result.success) return Object.freeze(result.data) as Config;
  throw new ConfigError(result.error.issues.map((issue) => `${at(issueOffset(doc, issue))}: ${describeIssue(issue)}`).join('\n'));
}

/** Replaces `${NAME}` and `${NAME:-default}` in string scalars, keeping node positions for error lines. */
function interpolateEnv(doc: Document, env: NodeJS.ProcessEnv, at: (offset?: number) => string): void {
  const missing: string[] = [];
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string' || !node.value.includes('${')) return;
      node.value = node.value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
        const value = env[name];
        if (value !== undefined && value !== '') return value;
        if (fallback !== undefined) return fallback;
        missing.push(`${at(node.range?.[0])}: environment variable ${name} is not set`);
        return '';
      });
    },
  });
  if (missing.length > 0) throw new ConfigError(missing.join('\n'));
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

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${field ? ` in ${field}` : ''}`;
  return field ? `${field}: ${issue.message}` : issue.message;
}
