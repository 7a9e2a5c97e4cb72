/**
 * The import rules of STYLE.md ("Allowed imports" and "Rules by file role"), checked in `npm test`.
 * `errors.ts`, `error-catalog.ts` (the table of error codes `errors.ts` reads), `logger.ts`, `ids.ts` and `page-query.ts`
 * (the limit/offset of every list route), `backoff.ts` and `sleep.ts` (the one backoff formula and the one abortable
 * sleep) are leaves every folder may use.
 */
const LEAVES = 'errors\\.ts|error-catalog\\.ts|logger\\.ts|ids\\.ts|page-query\\.ts|backoff\\.ts|sleep\\.ts';
const ALLOWED = {
  config: [],
  // OpenTelemetry spans, trace context and metrics: a leaf most folders may use (docs/observability.md).
  telemetry: ['config'],
  db: ['config'],
  bus: ['config'],
  llm: ['telemetry', 'config'],
  auth: ['db', 'config'],
  http: ['auth', 'telemetry', 'config'],
  tools: ['llm', 'db', 'http', 'telemetry', 'config'],
  guardrails: ['llm', 'config'],
  agents: ['llm', 'tools', 'guardrails', 'bus', 'db', 'http', 'telemetry', 'config'],
  analytics: ['bus', 'db', 'http', 'config'],
  // gateway adapters keep their own inboxes and task stores (*.store.ts) in the database.
  gateway: ['agents', 'auth', 'bus', 'db', 'http', 'telemetry', 'config'],
  admin: ['agents', 'analytics', 'tools', 'auth', 'http', 'config'],
  autopilot: ['agents', 'llm', 'bus', 'db', 'http', 'telemetry', 'config'],
  // the dashboard's static files and its sign-in routes, which verify a credential before setting the cookie.
  dashboard: ['auth', 'http', 'db', 'config'],
};

const folderRules = Object.entries(ALLOWED).map(([folder, allowed]) => ({
  name: `${folder}-imports`,
  comment: `src/${folder}/ may import only ${[...allowed, 'errors', 'ids'].join(', ')}`,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  to: { path: '^src/', pathNot: [`^src/(${[folder, ...allowed].join('|')})/`, `^src/(${LEAVES})$`] },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'leaves-import-nothing',
      comment: 'a leaf imports nothing in src/ but error-catalog.ts (which errors.ts reads)',
      severity: 'error',
      from: { path: `^src/(${LEAVES})$` },
      to: { path: '^src/', pathNot: '^src/error-catalog\\.ts$' },
    },
    ...folderRules,
    {
      name: 'gateway-siblings',
      comment: 'a gateway adapter never imports a sibling adapter',
      severity: 'error',
      from: { path: '^src/gateway/([^/]+)/' },
      to: { path: '^src/gateway/', pathNot: '^src/gateway/$1/' },
    },
    {
      name: 'only-app-crosses-into-cli',
      severity: 'error',
      from: { pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'folders-through-index',
      comment: 'another folder is imported only through its index.ts',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/([^/]+)/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/gateway/[^/]+/index\\.ts$'] },
    },
    {
      name: 'sql-only-in-stores',
      comment: 'only db/ and *.store.ts import kysely, better-sqlite3 or pg',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/db/', '\\.store\\.ts$'] },
      to: { dependencyTypesNot: ['type-only'], path: 'node_modules/(kysely|better-sqlite3|pg)/' },
    },
    {
      name: 'fastify-only-in-http-and-routes',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/http/', '\\.routes\\.ts$', '^src/app\\.ts$'] },
      to: {
        dependencyTypesNot: ['type-only'],
        path: 'node_modules/(fastify|@fastify/[^/]+|fastify-type-provider-zod)/',
      },
    },
    {
      name: 'ai-sdk-only-in-llm',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/llm/' },
      to: { path: 'node_modules/(ai|@ai-sdk/[^/]+)/' },
    },
    {
      name: 'otel-sdk-loaded-lazily',
      comment: 'only telemetry/sdk/ (imported with await import() when telemetry is on) loads the SDK and exporters',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/telemetry/sdk/' },
      to: { path: 'node_modules/@opentelemetry/(?!api/)' },
    },
    {
      name: 'otel-sdk-folder-imported-dynamically',
      comment: 'telemetry/sdk/ is reached only through import(), so telemetry off loads none of it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/telemetry/sdk/' },
      to: { path: '^src/telemetry/sdk/', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'otel-sdk-only-in-telemetry',
      comment: 'the OpenTelemetry SDK is loaded lazily by telemetry/ only; other folders use telemetry/index.ts',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/telemetry/' },
      to: { path: 'node_modules/@opentelemetry/' },
    },
    {
      name: 'brokers-only-in-bus-and-triggers',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/bus/', '^src/gateway/triggers/'] },
      to: { path: 'node_modules/(ioredis|amqplib|nats|mqtt)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js'],
    },
  },
};
