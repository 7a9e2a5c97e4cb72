/**
 * Writes ui/src/api/schema.d.ts, the dashboard's types of every route, from the OpenAPI document the route
 * schemas produce (the one served at /openapi.json), so the dashboard never mirrors the API by hand.
 * Run: npm run ui:api-types. test/dashboard/api-types.test.ts fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { startDocumentedApp } from './documented-app.js';

export const UI_API_TYPES_PATH = fileURLToPath(new URL('../ui/src/api/schema.d.ts', import.meta.url));

const HEADER = `// Generated from /openapi.json by \`npm run ui:api-types\` (scripts/generate-ui-api-types.ts); do not edit.\n`;

/** The text of ui/src/api/schema.d.ts for the routes as they are now, formatted as Prettier would. */
export async function renderUiApiTypes(): Promise<string> {
  const { app, close } = await startDocumentedApp();
  let document: OpenAPI3;
  try {
    document = app.server.swagger() as unknown as OpenAPI3;
  } finally {
    await close();
  }
  const text = HEADER + astToString(await openapiTS(document));
  return format(text, { ...(await resolveConfig(UI_API_TYPES_PATH)), filepath: UI_API_TYPES_PATH });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(UI_API_TYPES_PATH, await renderUiApiTypes());
  console.log(`wrote ${UI_API_TYPES_PATH}`);
}
