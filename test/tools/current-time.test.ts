import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, ToolExecutionError, type ToolRegistry } from '../../src/tools/index.js';

describe('get_current_time', () => {
  let registry: ToolRegistry;
  beforeAll(async () => {
    registry = await createToolRegistry({ config: [] });
  });
  afterAll(() => registry.close());

  const call = async (args: unknown) =>
    JSON.parse(await registry.execute('get_current_time', args)) as Record<string, string>;

  it('defaults to UTC', async () => {
    const result = await call({});
    expect(result.timezone).toBe('UTC');
    expect(result.utc_offset).toBe('+00:00');
    expect(result.utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(result.local)).toBe(Math.floor(Date.parse(result.utc) / 1000) * 1000);
  });

  it('gives the local time of an IANA zone, naming the same instant', async () => {
    const result = await call('{"timezone":"Asia/Kolkata"}');
    expect(result.timezone).toBe('Asia/Kolkata');
    expect(result.utc_offset).toBe('+05:30');
    expect(result.local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
    expect(Date.parse(result.local)).toBe(Math.floor(Date.parse(result.utc) / 1000) * 1000);
    expect(result.weekday).toMatch(/day$/);
  });

  it('refuses an unknown zone as invalid arguments', async () => {
    const error = await registry
      .execute('get_current_time', { timezone: 'Mars/Olympus_Mons' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('timezone: "Mars/Olympus_Mons"'),
    });
  });

  it('refuses unexpected arguments, naming them', async () => {
    await expect(registry.execute('get_current_time', { zone: 'UTC' })).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('zone: is not an allowed argument'),
    });
  });
});
