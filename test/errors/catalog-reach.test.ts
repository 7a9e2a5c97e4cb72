import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, isErrorCode } from '../../src/errors.js';

const TEST_ROOT = join(import.meta.dirname, '..');
const SELF = relative(TEST_ROOT, import.meta.filename);

/** Codes for conditions a test cannot create cheaply; each says why it stays in the catalog. */
const NOT_REACHED_BY_TESTS: Record<string, string> = {
  request_timeout: "Node's requestTimeout (300 s) for a client that never finishes its request",
  redis_too_old: 'a Redis older than 7, which the test Redis is not',
  // Reached, but asserted only by message so far (the SDK client surfaces the message, not the data code);
  // a raw JSON-RPC assertion of the code is owed (issue #19 note, session 4).
  a2a_method_not_allowed: 'test/gateway/a2a/restrictions.test.ts asserts "may not call CancelTask"',
  a2a_skill_required: 'test/gateway/a2a/restrictions.test.ts covers the skill refusal by its sibling code',
  // The dashboard's sign-in and static routes: reached by hand, not yet by a test (owed, #17 note).
  credential_not_in_header: 'login codes issued from a cookie session; not yet tested',
  ui_not_built: 'a gateway started without dist/ui; the test setup always builds it',
};

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.ts') && relative(TEST_ROOT, path) !== SELF ? [path] : [];
  });
}

describe('the error catalog', () => {
  it('has no code that no test under test/ asserts', () => {
    const sources = testFiles(TEST_ROOT).map((file) => readFileSync(file, 'utf8'));
    // A code counts as reached when a test names it as a quoted string, as its assertions do.
    const unreached = Object.keys(ERROR_CATALOG).filter(
      (code) =>
        !(code in NOT_REACHED_BY_TESTS) &&
        !sources.some((text) => text.includes(`'${code}'`) || text.includes(`"${code}"`)),
    );
    expect(unreached, 'codes no test reaches: add a route test or remove the code').toEqual([]);
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
