/**
 * Writes docs/api.md from the OpenAPI document the route schemas produce, so the reference never
 * drifts from the code. Run: npm run docs:api
 */
import { writeFileSync } from 'node:fs';
import { ERROR_CATALOG, TOOL_ERROR_CATALOG } from '../src/errors.js';
import { startDocumentedApp } from './documented-app.js';

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

const { app, config: everything, close } = await startDocumentedApp();
let document: { paths: Record<string, Record<string, Operation>> };
const access = new Map<string, string>();
try {
  document = app.server.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
  await probeAccess();
} finally {
  await close();
}

/**
 * Who may call each route, asked of the auth hook itself (the OpenAPI `security` field does not say):
 * a request without credentials tells public routes apart, and an access token holding no granting
 * scope is refused before any handler runs, naming the scope the route wants (or operator_only).
 */
async function probeAccess(): Promise<void> {
  const agent = everything.agents[0]?.name ?? 'helper';
  const probe = await app.tokens.create({ agent_name: agent, scopes: ['docs-probe'] });
  for (const [path, methods] of Object.entries(document.paths)) {
    const url = path.replace(/\{[^}]+\}/g, encodeURIComponent(agent));
    for (const method of Object.keys(methods)) {
      const verb = method.toUpperCase() as 'GET';
      const anonymous = await app.server.inject({ method: verb, url });
      // Only the auth hook's own refusal counts: a webhook's 401 invalid_signature is a public route's answer.
      if (anonymous.statusCode !== 401 || !anonymous.body.includes('missing_credentials')) {
        access.set(`${method} ${path}`, 'public');
        continue;
      }
      const withToken = await app.server.inject({
        method: verb,
        url,
        headers: { authorization: `Bearer ${probe.token}` },
      });
      if (withToken.statusCode < 400) {
        access.set(`${method} ${path}`, 'an access token (any scope), about itself; operator credentials get 403');
        continue;
      }
      // Read from the raw body: A2A answers in JSON-RPC form, the other routes with the usual error shape.
      const scope = /lacks the \\?"([^"\\]+)\\?" scope/.exec(withToken.body)?.[1];
      if (!scope) {
        access.set(`${method} ${path}`, 'operator credentials (API key or JWT); access tokens get 403');
        continue;
      }
      const viaQuery =
        method === 'get' &&
        (await app.server.inject({ method: verb, url: `${url}?access_token=${probe.token}` })).statusCode !== 401;
      access.set(
        `${method} ${path}`,
        `operator credentials, or an access token with the \`${scope}\` scope bound to the agent${viaQuery ? ' (also as `?access_token=`)' : ''}`,
      );
    }
  }
}

const lines: string[] = [
  '# API reference',
  '',
  'Generated from the route schemas by `npm run docs:api`; do not edit by hand. The same document is served',
  'as OpenAPI 3.1 at `/openapi.json` and rendered at `/docs`. Errors everywhere have the shape',
  '`{"error": {"type", "code", "message"}}` (see docs/decisions/0009-error-body-and-status-codes.md for the status codes), except on the A2A',
  'JSON-RPC endpoint and on `/mcp` once its credential passed, which answer with JSON-RPC errors. Each route\'s "Auth" line is read from the running',
  'server: operator credentials are an API key or a JWT; access tokens (`sat-…`) work only where a scope is named.',
  "Credentials go in `Authorization: Bearer …`, `X-API-Key: …`, or the `service_auth` cookie (a browser's; its",
  'state changes also need a JSON body and an allowed `Origin`). Autopilot routes take the project in `X-Project-ID`',
  '(default `default`).',
  '',
];
for (const [path, methods] of Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b))) {
  for (const [method, operation] of Object.entries(methods)) {
    lines.push(`## ${method.toUpperCase()} ${path}`, '');
    if (operation.summary) lines.push(operation.summary, '');
    lines.push(`Auth: ${access.get(`${method} ${path}`) ?? 'credentials required'}`, '');
    const params = operation.parameters ?? [];
    if (params.length > 0) {
      lines.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|');
      for (const p of params)
        lines.push(
          `| ${p.name} | ${p.in} | ${typeName(p.schema)} | ${p.required ? 'yes' : 'no'} | ${p.description ?? p.schema?.description ?? ''} |`,
        );
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
lines.push(...errorTable());
writeFileSync(new URL('../docs/api.md', import.meta.url), `${lines.join('\n').trimEnd()}\n`);
console.log(`wrote docs/api.md (${Object.keys(document.paths).length} paths)`);

function fieldTable(schema: Schema): string[] {
  const target = schema.type === 'array' && schema.items ? schema.items : schema;
  const prefix = schema.type === 'array' ? 'array of objects with:' : '';
  if (!target.properties) return [`\`${typeName(schema)}\``];
  const rows = Object.entries(target.properties).map(
    ([name, field]) =>
      `| ${name} | ${typeName(field)} | ${target.required?.includes(name) ? 'yes' : 'no'} | ${(field.description ?? '').replaceAll('|', '\\|')} |`,
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

/** Every error code the service answers with, from the one catalog (src/error-catalog.ts), by status. */
function errorTable(): string[] {
  const rows = Object.entries(ERROR_CATALOG).sort(
    ([codeA, a], [codeB, b]) => a.status - b.status || codeA.localeCompare(codeB),
  );
  return [
    '## Error codes',
    '',
    'Every `code` an error body (or a run_error event) carries, with its `type` and HTTP status, from',
    '`src/error-catalog.ts`. `{name}` stands for a value the message fills in; a route may give a more precise',
    'message. A framework-level 4xx without a code of its own keeps its status with `invalid_request`.',
    '',
    '| code | type | status | message |',
    '|---|---|---|---|',
    ...rows.map(
      ([code, entry]) => `| ${code} | ${entry.type} | ${entry.status} | ${entry.message.replaceAll('|', '\\|')} |`,
    ),
    '',
    '### Tool step errors',
    '',
    "A failing tool does not fail its run: the model reads the message as the tool's result, and the step records",
    '`{code, message}` in its prompt log (`step_details[].prompt_log.error` of `GET /api/v1/admin/runs/{run_id}`).',
    "A call cut short by the run's cancellation or a shutdown records `aborted`.",
    '',
    '| code | message |',
    '|---|---|',
    ...Object.entries(TOOL_ERROR_CATALOG).map(
      ([code, entry]) => `| ${code} | ${entry.message.replaceAll('|', '\\|')} |`,
    ),
    '',
  ];
}
