import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { renderUiApiTypes, UI_API_TYPES_PATH } from '../../scripts/generate-ui-api-types.js';

it("the dashboard's API types are those of /openapi.json as the routes describe it now", async () => {
  const committed = readFileSync(UI_API_TYPES_PATH, 'utf8');
  // On failure: run `npm run ui:api-types` and commit ui/src/api/schema.d.ts (then fix what `tsc -p ui` reports).
  expect(await renderUiApiTypes(), 'ui/src/api/schema.d.ts is stale: run npm run ui:api-types').toBe(committed);
}, 60_000);
