import { describe, expect, it } from 'vitest';
import { createArgumentsValidator } from '../../src/tools/arguments-validator.js';
import { ToolExecutionError } from '../../src/tools/index.js';

const schema = {
  type: 'object' as const,
  properties: {
    city: { type: 'string' },
    units: { type: 'string', enum: ['c', 'f'], default: 'c' },
    days: { type: 'integer', minimum: 1 },
    where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
  },
  required: ['city'],
  additionalProperties: false,
};

function failure(run: () => unknown): ToolExecutionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolExecutionError);
    return error as ToolExecutionError;
  }
  throw new Error('expected a ToolExecutionError');
}

describe('createArgumentsValidator', () => {
  const check = createArgumentsValidator().compile('weather', schema);

  it('accepts valid arguments as an object or JSON text and applies defaults', () => {
    expect(check({ city: 'Oslo' })).toEqual({ city: 'Oslo', units: 'c' });
    expect(check('{"city":"Oslo","units":"f"}')).toEqual({ city: 'Oslo', units: 'f' });
  });

  it('does not change the caller’s object', () => {
    const args = { city: 'Oslo' };
    check(args);
    expect(args).toEqual({ city: 'Oslo' });
  });

  it('names a missing required field', () => {
    const error = failure(() => check({}));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toBe('Invalid arguments for tool "weather": city: is required');
  });

  it('names each wrong field, nested ones with dots', () => {
    const error = failure(() => check({ city: 3, days: 0, units: 'k', where: { lat: 'north' }, extra: true }));
    expect(error.message).toContain('city: must be string');
    expect(error.message).toContain('days: must be >= 1');
    expect(error.message).toContain('units: must be one of "c", "f"');
    expect(error.message).toContain('where.lat: must be number');
    expect(error.message).toContain('extra: is not an allowed argument');
  });

  it('treats empty or missing arguments as an empty object', () => {
    expect(failure(() => check('')).message).toContain('city: is required');
    expect(failure(() => check(undefined)).message).toContain('city: is required');
  });

  it('reports arguments that are not JSON', () => {
    const error = failure(() => check('{city:'));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('not valid JSON');
  });

  it('compiles draft 2020-12 schemas and ignores $id clashes between tools', () => {
    const validator = createArgumentsValidator();
    const modern = {
      type: 'object' as const,
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'same',
      properties: { n: { type: 'number' } },
      required: ['n'],
    };
    const a = validator.compile('a', modern);
    const b = validator.compile('b', modern);
    expect(a({ n: 1 })).toEqual({ n: 1 });
    expect(failure(() => b({})).message).toContain('n: is required');
  });

  it('refuses an invalid schema at compile time', () => {
    expect(() =>
      createArgumentsValidator().compile('bad', { type: 'object', properties: { a: { type: 'no-such-type' } } }),
    ).toThrow();
  });
});
