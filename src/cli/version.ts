import { readFileSync } from 'node:fs';

/**
 * The package version, read here rather than imported from app.ts so that `--help`, `--version` and the
 * client verbs start without loading the whole server.
 */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
