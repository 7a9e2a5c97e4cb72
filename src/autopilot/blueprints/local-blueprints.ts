import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { AppError, ConfigError } from '../../errors.js';
import type { Blueprint } from './blueprint.schema.js';
import { validateBlueprint, type BlueprintCheckOptions } from './validate-blueprint.js';
import type { Logger } from '../../logger.js';

/** The blueprint library shipped with the package. */
export const BUNDLED_BLUEPRINTS_DIR = fileURLToPath(new URL('../../../config/blueprints/', import.meta.url));

/** A blueprint from the bundled library or the operator's `autopilot.blueprints_dir`. */
export interface LocalBlueprint {
  blueprint: Blueprint;
  /** The file's blueprint as JSON text, as a mission keeps it. */
  json: string;
  source: 'bundled' | 'local';
  file: string;
}

export interface LocalBlueprintOptions {
  bundledDir?: string;
  operatorDir?: string;
  checks: BlueprintCheckOptions;
  log?: Pick<Logger, 'warn'>;
}

/**
 * Reads and validates the local library at start-up. A bad file in the operator's directory stops the
 * start with its file and field named; a bundled one this installation cannot run (no autopilot.model,
 * say) is left out with a warning. An operator blueprint with a bundled id replaces it.
 */
export function loadLocalBlueprints(options: LocalBlueprintOptions): LocalBlueprint[] {
  const byId = new Map<string, LocalBlueprint>();
  if (options.bundledDir) {
    for (const file of listBlueprintFiles(options.bundledDir)) {
      try {
        const entry = readBlueprintFile(file, 'bundled', options.checks);
        byId.set(entry.blueprint.id, entry);
      } catch (error) {
        options.log?.warn({ file, reason: (error as Error).message }, 'bundled blueprint left out');
      }
    }
  }
  if (options.operatorDir) {
    const dir = resolve(options.operatorDir);
    let files: string[];
    try {
      files = listBlueprintFiles(dir);
    } catch (error) {
      throw new ConfigError(
        `autopilot.blueprints_dir: cannot read ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    for (const file of files) {
      try {
        const entry = readBlueprintFile(file, 'local', options.checks);
        byId.set(entry.blueprint.id, entry);
      } catch (error) {
        throw new ConfigError(`${file}: ${(error as Error).message}`);
      }
    }
  }
  return [...byId.values()];
}

function listBlueprintFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /\.(json|ya?ml)$/i.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/** Reads one blueprint file (JSON or YAML) and validates it; throws invalid_blueprint naming the field. */
export function readBlueprintFile(
  file: string,
  source: LocalBlueprint['source'],
  checks: BlueprintCheckOptions,
): LocalBlueprint {
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new AppError({
      code: 'invalid_blueprint',
      message: `not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'} (${(error as Error).message})`,
    });
  }
  return { blueprint: validateBlueprint(parsed, checks, 'blueprint'), json: JSON.stringify(parsed), source, file };
}
