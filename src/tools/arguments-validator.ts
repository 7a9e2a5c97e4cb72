import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchemaObject } from '../llm/index.js';
import { ToolExecutionError } from './types.js';

/** Parses and checks a tool call's arguments; returns a validated copy (defaults applied) or throws ToolExecutionError. */
export type ArgumentsCheck = (args: unknown) => Record<string, unknown>;

export interface ArgumentsValidator {
  /** Compiles once per tool. Throws a plain Error when the schema itself is invalid. */
  compile(toolName: string, schema: JsonSchemaObject): ArgumentsCheck;
  /** Accepts any JSON object: for a server-side schema we could not compile (the server still validates). */
  objectOnly(toolName: string): ArgumentsCheck;
}

const MAX_REPORTED_ERRORS = 5;

// ajv-formats is CommonJS with `exports.default`; NodeNext types see the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

export function createArgumentsValidator(): ArgumentsValidator {
  const options = { allErrors: true, strict: false, useDefaults: true } as const;
  // Built when the first schema of their dialect compiles, not at start-up.
  let draft07: Ajv | undefined;
  let draft2020: Ajv2020 | undefined;
  const withFormats = <T extends Ajv | Ajv2020>(ajv: T): T => {
    addFormats(ajv);
    return ajv;
  };

  return {
    compile(toolName, schema) {
      // $schema picks the dialect; $id is dropped so two tools may share one without clashing in the cache.
      const { $schema, $id: _id, ...rest } = schema;
      const ajv =
        typeof $schema === 'string' && /2019-09|2020-12/.test($schema)
          ? (draft2020 ??= withFormats(new Ajv2020(options)))
          : (draft07 ??= withFormats(new Ajv(options)));
      const validate = ajv.compile(rest);
      return (args) => {
        const value = parseArguments(toolName, args);
        if (!validate(value)) throw invalidArguments(toolName, validate);
        return value;
      };
    },
    objectOnly(toolName) {
      return (args) => {
        const value = parseArguments(toolName, args);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw new ToolExecutionError(
            `Invalid arguments for tool "${toolName}": arguments: must be an object`,
            'invalid_arguments',
          );
        }
        return value as Record<string, unknown>;
      };
    },
  };
}

/** Models send arguments as JSON text; callers may also pass an object. Either way we work on a copy. */
function parseArguments(toolName: string, args: unknown): unknown {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'string') {
    try {
      return structuredClone(args);
    } catch {
      throw new ToolExecutionError(
        `Invalid arguments for tool "${toolName}": arguments must be JSON data`,
        'invalid_arguments',
      );
    }
  }
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args) as unknown;
  } catch (error) {
    throw new ToolExecutionError(
      `Invalid arguments for tool "${toolName}": not valid JSON (${(error as Error).message})`,
      'invalid_arguments',
    );
  }
}

function invalidArguments(toolName: string, validate: ValidateFunction): ToolExecutionError {
  const problems = [...new Set((validate.errors ?? []).map(describeError))];
  const shown = problems.slice(0, MAX_REPORTED_ERRORS).join('; ');
  const more = problems.length > MAX_REPORTED_ERRORS ? ` (and ${problems.length - MAX_REPORTED_ERRORS} more)` : '';
  return new ToolExecutionError(`Invalid arguments for tool "${toolName}": ${shown}${more}`, 'invalid_arguments');
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath.slice(1).split('/').filter(Boolean).map(unescapePointer).join('.');
  const field = (child: unknown) => (path ? `${path}.${String(child)}` : String(child));
  switch (error.keyword) {
    case 'required':
      return `${field(error.params.missingProperty)}: is required`;
    case 'additionalProperties':
      return `${field(error.params.additionalProperty)}: is not an allowed argument`;
    case 'enum':
      return `${path || 'arguments'}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${path || 'arguments'}: ${error.message ?? 'is invalid'}`;
  }
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
