import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, isErrorCode, TOOL_ERROR_CATALOG } from '../../src/errors.js';

const TEST_ROOT = join(import.meta.dirname, '..');
const SELF = relative(TEST_ROOT, import.meta.filename);

/** Codes for conditions a test cannot create cheaply; each says why it stays in the catalog. */
const NOT_REACHED_BY_TESTS: Record<string, string> = {
  request_timeout: "Node's requestTimeout (300 s) for a client that never finishes its request",
  redis_too_old: 'a Redis older than 7, which the test Redis is not',
};

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.ts') && relative(TEST_ROOT, path) !== SELF ? [path] : [];
  });
}

describe('the error catalog', () => {
  it('has no code (tool step codes included) that no test under test/ asserts', () => {
    const sources = testFiles(TEST_ROOT).map((file) => readFileSync(file, 'utf8'));
    // A code counts as reached when a test names it as a quoted string, as its assertions do.
    const unreached = [...Object.keys(ERROR_CATALOG), ...Object.keys(TOOL_ERROR_CATALOG)].filter(
      (code) =>
        !(code in NOT_REACHED_BY_TESTS) &&
        !sources.some((text) => text.includes(`'${code}'`) || text.includes(`"${code}"`)),
    );
    expect(unreached, 'codes no test reaches: add a route test or remove the code').toEqual([]);
  });

  it('keeps tool step codes apart from the HTTP codes', () => {
    expect(Object.keys(TOOL_ERROR_CATALOG).filter((code) => isErrorCode(code))).toEqual([]);
  });

  it('lists only catalog codes as not reached by tests', () => {
    expect(Object.keys(NOT_REACHED_BY_TESTS).filter((code) => !isErrorCode(code))).toEqual([]);
  });

  it('gives every code a status that matches its type', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      if (entry.type === 'server_error') expect(entry.status, code).toBe(500);
      if (entry.type === 'not_found_error') expect(entry.status, code).toBe(404);
      if (entry.type === 'authentication_error') expect(entry.status, code).toBe(401);
      if (entry.type === 'permission_error') expect(entry.status, code).toBe(403);
    }
  });
});
