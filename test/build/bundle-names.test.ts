import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function filesUnder(directory: string, suffix: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(directory, file));
}

/**
 * The server is bundled without esbuild's keepNames (scripts/bundle-server.mjs: it costs a defineProperty per
 * closure made). esbuild then renames a top-level declaration only when another bundled module declares the
 * same name (`NotFoundError` would become `NotFoundError2`). The gateway's errors are named after their class
 * (errors.ts: new.target.name), and that name is what logs and span `error.type` show.
 */
describe('the bundled server', () => {
  it("keeps the gateway's own error classes under their names", () => {
    const errorClasses = new Set<string>();
    for (const file of filesUnder(join(root, 'src'), '.ts'))
      for (const match of readFileSync(file, 'utf8').matchAll(/\bclass (\w+Error) extends \w+/g))
        errorClasses.add(match[1]);
    expect(errorClasses.size).toBeGreaterThan(10);

    const renamed: string[] = [];
    const bundled = new Set<string>();
    for (const file of filesUnder(join(root, 'dist'), '.js')) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\b(\w+?)(\d*)=class\b|\bclass (\w+?)(\d*)\b/g)) {
        const name = match[1] ?? match[3];
        const suffix = match[2] ?? match[4];
        if (!errorClasses.has(name)) continue;
        if (suffix) renamed.push(`${name}${suffix} in ${file}`);
        else bundled.add(name);
      }
    }
    expect(renamed).toEqual([]);
    expect(bundled).toContain('NotFoundError');
  });
});
