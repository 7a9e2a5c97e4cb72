// Run by trace-header-maps.test.ts with --allow-natives-syntax: prints whether the headers of traced upstream
// requests share one V8 map once injectTraceHeaders is optimised.
import { trace } from '@opentelemetry/api';
import { injectTraceHeaders } from '../../src/telemetry/trace-context.js';
import { telemetrySettings } from '../../src/telemetry/tracer.js';
import { countMapChanges } from '../support/v8-maps.js';

telemetrySettings.enabled = true;
const headers: object[] = [];
for (let index = 0; index < 30_000; index += 1) {
  const span = trace.wrapSpanContext({
    traceId: index.toString(16).padStart(32, '0'),
    spanId: (index + 1).toString(16).padStart(16, '0'),
    traceFlags: 1,
  });
  const sent = injectTraceHeaders({ 'content-type': 'application/json', authorization: `Bearer key-${index}` }, span);
  if (index >= 29_000) headers.push(sent);
}
console.log(JSON.stringify({ requests: headers.length, distinct: countMapChanges(headers) }));
