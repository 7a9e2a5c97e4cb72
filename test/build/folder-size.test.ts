import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/** At most this many files directly in one folder of src/ or test/ (issue #33): past it, the folder is split. */
const MAX_FILES = 20;

function crowded(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).length;
    if (files > MAX_FILES) found.push(`${dir}: ${files} files`);
    for (const entry of entries) if (entry.isDirectory()) visit(join(dir, entry.name));
  };
  visit(root);
  return found;
}

it(`keeps every folder of src/ and test/ at ${MAX_FILES} files or fewer (split a crowded one by concern; test/ mirrors src/)`, () => {
  expect([...crowded('src'), ...crowded('test')]).toEqual([]);
});
