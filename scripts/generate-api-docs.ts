/**
 * Writes docs/api.md from the OpenAPI document the route schemas produce, so the reference never
 * drifts from the code. Run: npm run docs:api
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { BUNDLED_CONFIG_PATH, loadConfig } from '../src/config/index.js';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  description?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  default?: unknown;
}
interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
}

const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-docs-'));
const { config } = loadConfig({ file: BUNDLED_CONFIG_PATH, env: {}, overrides: { data_dir: dataDir } });
const app = await createApp({ config: { ...config, server: { ...config.server, log_level: 'silent' } } });
const document = app.server.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
await app.close();
rmSync(dataDir, { recursive: true, force: true });

const lines: string[] = [
  '# API reference',
  '',
  'Generated from the route schemas by `npm run docs:api`; do not edit by hand. The same document is served',
  'as OpenAPI 3.1 at `/openapi.json` and rendered at `/docs`. Errors everywhere have the shape',
  '`{"error": {"type", "code", "message"}}` (see docs/decisions.md for the status codes).',
  '',
];
for (const [path, methods] of Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b))) {
  for (const [method, operation] of Object.entries(methods)) {
    lines.push(`## ${method.toUpperCase()} ${path}`, '');
    if (operation.summary) lines.push(operation.summary, '');
    lines.push(`Auth: ${operation.security && operation.security.length === 0 ? 'public' : 'credentials required'}`, '');
    const params = operation.parameters ?? [];
    if (params.length > 0) {
      lines.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|');
      for (const p of params) lines.push(`| ${p.name} | ${p.in} | ${typeName(p.schema)} | ${p.required ? 'yes' : 'no'} | ${p.description ?? p.schema?.description ?? ''} |`);
      lines.push('');
    }
    const body = operation.requestBody?.content['application/json']?.schema;
    if (body) lines.push('Request body:', '', ...fieldTable(body), '');
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const schema = response.content?.['application/json']?.schema;
      lines.push(`Response ${status}${schema ? ':' : ''}`, '');
      if (schema) lines.push(...fieldTable(schema), '');
    }
  }
}
writeFileSync(new URL('../docs/api.md', import.meta.url), `${lines.join('\n').trimEnd()}\n`);
console.log(`wrote docs/api.md (${Object.keys(document.paths).length} paths)`);

function fieldTable(schema: Schema): string[] {
  const target = schema.type === 'array' && schema.items ? schema.items : schema;
  const prefix = schema.type === 'array' ? 'array of objects with:' : '';
  if (!target.properties) return [`\`${typeName(schema)}\``];
  const rows = Object.entries(target.properties).map(
    ([name, field]) => `| ${name} | ${typeName(field)} | ${target.required?.includes(name) ? 'yes' : 'no'} | ${(field.description ?? '').replaceAll('|', '\\|')} |`,
  );
  return [...(prefix ? [prefix, ''] : []), '| field | type | required | notes |', '|---|---|---|---|', ...rows];
}

function typeName(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' \\| ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeName).join(' \\| ');
  if (schema.type === 'array') return `array of ${typeName(schema.items)}`;
  return Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'object');
}
