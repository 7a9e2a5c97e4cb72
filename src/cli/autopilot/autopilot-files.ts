import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { CliError } from '../api-client.js';

/** A blueprint file's content as an object (JSON or YAML), or a CliError naming the file. */
export function readBlueprintArgument(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const parsed: unknown = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('expected an object');
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`${file}: not a blueprint (${(error as Error).message})`);
  }
}

/** `--slot k=v` pairs as an object; a JSON list or object is sent as such, an empty value as null. */
export function parseSlotFlags(pairs: string[]): Record<string, unknown> {
  const slots: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new CliError(`--slot ${pair}: expected name=value`);
    const raw = pair.slice(at + 1);
    // An empty value takes the slot back out (its default, if any, applies again).
    slots[pair.slice(0, at)] = raw === '' ? null : /^[[{]/.test(raw.trim()) ? safeJson(raw) : raw;
  }
  return slots;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
