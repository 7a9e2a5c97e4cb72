import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createToolRegistry, ToolExecutionError, type ToolRegistry } from '../../src/tools/index.js';
import { toolsConfig } from './support/tools-config.js';

describe('createToolRegistry', () => {
  let registry: ToolRegistry;
  beforeAll(async () => {
    registry = await createToolRegistry({
      config: toolsConfig([
        { name: 'zeta', url: 'http://127.0.0.1:9/z' },
        { name: 'alpha', url: 'http://127.0.0.1:9/a', description: 'First' },
      ]),
    });
  });
  afterAll(() => registry.close());

  it('lists built-in and configured tools sorted by name', () => {
    expect(registry.list().map((tool) => tool.name)).toEqual(['alpha', 'get_current_time', 'http_request', 'zeta']);
  });

  it('gives an agent the tools it names, ignoring names it does not have', () => {
    expect(registry.forAgent(['zeta', 'get_current_time', 'nope', 'zeta']).map((tool) => tool.name)).toEqual([
      'zeta',
      'get_current_time',
    ]);
    expect(registry.forAgent([])).toEqual([]);
  });

  it('finds one tool by name', () => {
    expect(registry.get('alpha')?.description).toBe('First');
    expect(registry.get('missing')).toBeUndefined();
  });

  it('refuses an unknown tool with a ToolExecutionError', async () => {
    const error = await registry.execute('missing', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({ code: 'unknown_tool', message: 'Unknown tool "missing"' });
  });

  it('refuses a configured tool whose parameters are not a valid JSON schema at start-up', async () => {
    const config = toolsConfig([
      {
        name: 'bad',
        url: 'http://127.0.0.1:9/',
        parameters: { type: 'object', properties: { a: { type: 'nonsense' } } },
      },
    ]);
    await expect(createToolRegistry({ config })).rejects.toBeInstanceOf(ConfigError);
  });

  it('closes more than once without trouble', async () => {
    const other = await createToolRegistry({ config: [] });
    await other.close();
    await other.close();
  });
});

describe('ToolExecutionError is the only failure', () => {
  it('reports arguments that are not JSON data as invalid', async () => {
    const registry = await createToolRegistry({ config: [] });
    await expect(registry.execute('get_current_time', { timezone: () => 'UTC' })).rejects.toMatchObject({
      name: 'ToolExecutionError',
      code: 'invalid_arguments',
    });
  });
});
