/**
 * fast-check arbitraries read from the app's own OpenAPI document: values a schema accepts (so a request
 * gets past validation and reaches the handler) and hostile ones (wrong types, huge and deep values,
 * bad unicode, odd ids and query strings), assembled into whole HTTP requests.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { JsonSchema, OpenApiOperation } from './hostile-app.js';

/** One HTTP request, ready to send: the path and query already encoded as they go on the wire. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /**
   * Set when exactly one field was made invalid against the schema (checked with ajv) and all else is
   * valid: the answer must be 400 and its message must name this field.
   */
  invalidField?: string;
  /** What was done, for the counterexample fast-check prints. */
  label: string;
}

/** Ids and names that exist in the running app, so valid-looking requests reach real records. */
export interface Seeds {
  names: string[];
  ids: string[];
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
const validators = new WeakMap<JsonSchema, (value: unknown) => boolean>();
export function schemaAccepts(schema: JsonSchema, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    const compiled = ajv.compile(schema as object);
    validate = (candidate) => compiled(candidate);
    validators.set(schema, validate);
  }
  return validate(value);
}

const LONG = 'a'.repeat(10_000);
/** Strings that are valid JSON text but hostile: lone surrogates, NUL, bidi overrides, non-characters, odd escapes. */
const BAD_UNICODE = [
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\udc00\ud800',
  '\u0000',
  'a\u0000b',
  '\u202e\u202d',
  '\ufffe\uffff',
  '\u{10ffff}',
  '👩‍👩‍👧‍👦'.repeat(50),
  'Z̷̧̛̖̪̈́a̵̡̛l̸̢g̵o̶',
  '%00',
  '%ED%A0%80',
  '\r\n\r\nX-Injected: 1',
  '${jndi:ldap://x}',
  '{{constructor}}',
  "'; DROP TABLE runs; --",
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
];
/** Values of every JSON type, for "wrong type" mutations. */
const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.000001,
  1e308,
  -1e308,
  2 ** 53 + 2,
  -(2 ** 63),
  '',
  'x',
  '0',
  'true',
  'null',
  [],
  [1],
  [null],
  {},
  { a: 1 },
  LONG,
];

function deep(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** A hostile JSON value that is not deep (the whole body's depth is refused before any field is read). */
const flatHostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...WRONG_TYPES),
  fc.constantFrom(...BAD_UNICODE),
  fc.constantFrom(
    LONG,
    Array.from({ length: 5_000 }, (_, i) => i),
  ),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A hostile JSON value: wrong type, huge, deep, bad unicode, huge or odd numbers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...WRONG_TYPES),
  fc.constantFrom(...BAD_UNICODE),
  fc.constantFrom(
    LONG,
    LONG.repeat(10),
    Array.from({ length: 5_000 }, (_, i) => i),
    Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i])),
  ),
  fc.constantFrom(deep(64, 'array'), deep(64, 'object'), deep(200, 'array'), deep(200, 'object')),
  fc.double({ noNaN: true }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function nameHint(key: string | undefined, seeds: Seeds): fc.Arbitrary<string> | undefined {
  if (!key) return undefined;
  if (/(^|_)(name|agent|model|trigger)$/.test(key) || key === 'agent_name' || key === 'model')
    return fc.constantFrom(...seeds.names);
  if (/(^|_)id$/.test(key)) return fc.constantFrom(...seeds.ids);
  return undefined;
}

function stringOf(schema: JsonSchema, key: string | undefined, seeds: Seeds): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, 40);
  const plain = fc.string({ minLength: min, maxLength: Math.max(min, max) });
  const hint = nameHint(key, seeds);
  const fitting = (value: string) =>
    value.length >= min && (schema.maxLength === undefined || value.length <= schema.maxLength);
  const odd = fc.constantFrom(...BAD_UNICODE.filter(fitting));
  const options = [hint, plain, BAD_UNICODE.some(fitting) ? odd : undefined].filter(
    (option): option is fc.Arbitrary<string> => option !== undefined,
  );
  return fc.oneof(...options).filter(fitting);
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lower = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-6) : schema.minimum;
  const upper = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 1e-6) : schema.maximum;
  if (integer) {
    const min = Math.max(lower ?? -1_000_000, Number.MIN_SAFE_INTEGER);
    const max = Math.min(upper ?? 1_000_000, Number.MAX_SAFE_INTEGER);
    return fc.oneof(fc.integer({ min, max: Math.min(max, min + 100) }), fc.integer({ min, max }), fc.constant(max));
  }
  return fc.double({ min: lower ?? -1e9, max: upper ?? 1e9, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts (most of the time; the caller checks with ajv where it matters). */
export function validValue(
  schema: JsonSchema | undefined,
  seeds: Seeds,
  key?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 2 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives)
    return fc.oneof(...alternatives.map((alternative) => validValue(alternative, seeds, key, depth + 1)));
  if (schema.allOf?.length) return validValue(schema.allOf[0], seeds, key, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : undefined;
  if (type && type.length > 1)
    return fc.oneof(...type.map((one) => validValue({ ...schema, type: one }, seeds, key, depth + 1)));
  switch (type?.[0]) {
    case 'string':
      return stringOf(schema, key, seeds);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items, seeds, key, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object':
      return objectOf(schema, seeds, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: JsonSchema, seeds: Seeds, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, validValue(property, seeds, name, depth + 1)]),
  );
  const record = fc.record(model, { requiredKeys: required.filter((name) => name in properties) });
  const extra =
    typeof schema.additionalProperties === 'object'
      ? fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }),
          validValue(schema.additionalProperties, seeds, undefined, depth + 1),
          { maxKeys: 2 },
        )
      : fc.constant({});
  return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
}

/** Encodes a path segment or query value; strings with lone surrogates go as the %-escapes of their (invalid) UTF-8. */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value
      .replace(
        /[\ud800-\udfff]/g,
        (unit) =>
          `%${(0xe0 | (unit.charCodeAt(0) >> 12)).toString(16)}%${(0x80 | ((unit.charCodeAt(0) >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit.charCodeAt(0) & 0x3f)).toString(16)}`,
      )
      .replace(/[^%\w.~-]/g, (char) => encodeURIComponent(char));
  }
}

/** Raw, already-encoded path segments that are hostile on the wire. */
const HOSTILE_SEGMENTS = [
  '%ED%A0%80',
  '%FF',
  '%C0%AF',
  '%',
  '%2',
  '%ZZ',
  '%2F',
  '..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%00',
  'a'.repeat(101),
  'a'.repeat(5_000),
  '%20',
  '+',
  'run_',
  'tok_',
  'mis_',
  '__proto__',
  'constructor',
  '%F0%9F%92%A9',
  '-1',
  '0',
  '1e309',
  'null',
  'undefined',
  '%5B%5D',
  '%7B%7D',
];

function pathSegment(seeds: Seeds): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...seeds.names, ...seeds.ids).map(encode) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map(encode) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_UNICODE.filter(Boolean)).map(encode) },
  );
}

/** Raw query fragments that are hostile on the wire, whatever the route. */
const HOSTILE_QUERY = [
  'a=%ZZ',
  '%=%',
  '&&&',
  '=',
  '==',
  'x=' + 'a'.repeat(10_000),
  '__proto__[polluted]=1',
  'constructor[prototype][x]=1',
  'x[]=1&x[]=2',
  'x[a][b][c][d][e][f]=1',
  'x=%ED%A0%80',
  'x=%00',
  ';;',
  '?',
  '#',
];

function queryValue(schema: JsonSchema | undefined, name: string, seeds: Seeds): fc.Arbitrary<string> {
  const fromSchema = validValue(schema, seeds, name).map((value) =>
    typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fromSchema.map(encode) },
    {
      weight: 2,
      arbitrary: hostileValue.map((value) => encode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '-1',
        '1e309',
        'NaN',
        'Infinity',
        '0x10',
        '9'.repeat(400),
        '%ED%A0%80',
        '%FF',
        'true',
        '',
        '1.5',
        '%2B1',
        '%201',
        '+',
      ),
    },
  );
}

/** Raw bodies that are not the JSON a route wants: broken JSON, bad UTF-8, deep nesting, odd types. */
const RAW_BODIES: (string | Uint8Array)[] = [
  '',
  '{',
  '{"a":',
  'not json',
  'null',
  '[]',
  '"string"',
  '12',
  'true',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  '['.repeat(5_000) + ']'.repeat(5_000),
  '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
  '{"x":"\\ud800"}',
  '{"x":"\\u0000"}',
  '{"x":1e999}',
  Uint8Array.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // {"x":"<bad UTF-8>"}
  Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // BOM + {}
  Uint8Array.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16LE {}
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
  'application/json;;;',
  '*/*',
];

export interface OperationShape {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

function bodySchema(operation: OpenApiOperation): JsonSchema | undefined {
  return operation.requestBody?.content?.['application/json']?.schema;
}

function pathWith(template: string, segments: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? 'x');
}

/**
 * Every request the fuzzer sends to one operation: mostly valid-looking with one hostile part, plus
 * "targeted" requests that are valid except for exactly one field (they must name that field).
 */
export function requestsFor(
  { method, path, operation }: OperationShape,
  seeds: Seeds,
  extraHeaders: Record<string, string>,
): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((parameter) => parameter.in === 'path');
  const queryParams = parameters.filter((parameter) => parameter.in === 'query');
  const headerParams = parameters.filter((parameter) => parameter.in === 'header');
  const schema = bodySchema(operation);
  const verb = method.toUpperCase();
  const json = { 'content-type': 'application/json' };

  const validPath = fc
    .record(
      Object.fromEntries(
        pathParams.map((parameter) => [parameter.name, fc.constantFrom(...seeds.names, ...seeds.ids).map(encode)]),
      ),
    )
    .map((segments) => pathWith(path, segments));
  const anyPath = fc
    .record(Object.fromEntries(pathParams.map((parameter) => [parameter.name, pathSegment(seeds)])))
    .map((segments) => pathWith(path, segments));

  const validQuery = fc
    .tuple(
      ...queryParams.map((parameter) =>
        fc.option(
          validValue(parameter.schema, seeds, parameter.name).map(
            (value) => `${parameter.name}=${encode(String(value))}`,
          ),
          { nil: undefined },
        ),
      ),
    )
    .map((parts) => parts.filter(Boolean).join('&'));
  const anyQuery = fc.oneof(
    validQuery,
    fc
      .tuple(
        ...queryParams.map((parameter) =>
          fc.option(
            queryValue(parameter.schema, parameter.name, seeds).map((value) => `${parameter.name}=${value}`),
            { nil: undefined },
          ),
        ),
      )
      .map((parts) => parts.filter(Boolean).join('&')),
    fc
      .tuple(validQuery, fc.constantFrom(...HOSTILE_QUERY))
      .map(([valid, hostile]) => [valid, hostile].filter(Boolean).join('&')),
  );

  const headerValue = fc.oneof(
    fc.string({ maxLength: 30 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
    fc.constantFrom('a'.repeat(8_000), '0', '1.0', '99', ' ', 'ses_x', 'run_x'),
  );
  const anyHeaders = fc.record(Object.fromEntries(headerParams.map((parameter) => [parameter.name, headerValue])), {
    requiredKeys: [],
  }) as fc.Arbitrary<Record<string, string>>;

  const validBody = schema
    ? validValue(schema, seeds)
        .map((value) => JSON.parse(JSON.stringify(value) ?? 'null') as unknown)
        .filter((value) => schemaAccepts(schema, value))
    : fc.constant(undefined);
  const anyBody: fc.Arbitrary<{ body?: string | Uint8Array; headers: Record<string, string>; label: string }> = schema
    ? fc.oneof(
        {
          weight: 3,
          arbitrary: validBody.map((value) => ({ body: JSON.stringify(value), headers: json, label: 'valid body' })),
        },
        {
          weight: 3,
          arbitrary: fc.tuple(validBody, hostileValue).map(([value, bad]) => ({
            body: JSON.stringify(mutateAnyField(value, bad)),
            headers: json,
            label: 'one hostile field',
          })),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom(...CONTENT_TYPES))
            .map(([body, type]) => ({ body, headers: { 'content-type': type }, label: 'raw body' })),
        },
        {
          weight: 1,
          arbitrary: fc.tuple(validBody, fc.constantFrom(...CONTENT_TYPES)).map(([value, type]) => ({
            body: JSON.stringify(value),
            headers: { 'content-type': type },
            label: 'odd content-type',
          })),
        },
        {
          weight: 1,
          arbitrary: hostileValue.map((value) => ({
            body: JSON.stringify(value),
            headers: json,
            label: 'hostile whole body',
          })),
        },
      )
    : fc.oneof(
        { weight: 4, arbitrary: fc.constant({ headers: {}, label: 'no body' }) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom(...CONTENT_TYPES))
            .map(([body, type]) => ({ body, headers: { 'content-type': type }, label: 'unexpected body' })),
        },
      );

  const general = fc
    .tuple(fc.oneof(validPath, anyPath), anyQuery, anyHeaders, anyBody)
    .map(([requestPath, query, headers, body]): FuzzRequest => ({
      method: verb,
      path: requestPath,
      query,
      headers: { ...extraHeaders, ...headers, ...body.headers },
      ...(body.body !== undefined && verb !== 'GET' ? { body: body.body } : {}),
      label: body.label,
    }));

  const targeted = targetedRequests(verb, schema, queryParams, validPath, validQuery, validBody)?.map((request) => ({
    ...request,
    headers: { ...extraHeaders, ...request.headers },
  }));
  return targeted ? fc.oneof({ weight: 3, arbitrary: general }, { weight: 1, arbitrary: targeted }) : general;
}

/** Replaces one field somewhere in the top level of an object (or the whole value) with a hostile one. */
function mutateAnyField(value: unknown, bad: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return bad;
  const keys = Object.keys(value);
  if (keys.length === 0) return { field: bad };
  const key = keys[JSON.stringify(bad)?.length % keys.length || 0];
  return { ...value, [key]: bad };
}

/**
 * Requests valid except for one body field or one query parameter, made invalid (wrong type, hostile
 * value, missing when required, or unknown when the object is closed), kept only when ajv agrees the
 * result breaks the schema.
 */
function targetedRequests(
  verb: string,
  schema: JsonSchema | undefined,
  queryParams: NonNullable<OpenApiOperation['parameters']>,
  validPath: fc.Arbitrary<string>,
  validQuery: fc.Arbitrary<string>,
  validBody: fc.Arbitrary<unknown>,
): fc.Arbitrary<FuzzRequest> | undefined {
  const options: fc.Arbitrary<FuzzRequest>[] = [];
  const json = { 'content-type': 'application/json' };
  if (schema?.type === 'object' && schema.properties) {
    const properties = Object.keys(schema.properties);
    const closed = schema.additionalProperties === false;
    const mutation = fc.oneof(
      fc
        .tuple(fc.constantFrom(...properties), flatHostileValue)
        .map(([field, bad]) => ({ field, bad, kind: 'wrong' as const })),
      ...(schema.required?.length
        ? [fc.constantFrom(...schema.required).map((field) => ({ field, bad: undefined, kind: 'missing' as const }))]
        : []),
      ...(closed
        ? [
            fc
              .constantFrom('unknown_field', 'agentName', 'ADMIN', 'x-y', '__proto__x')
              .map((field) => ({ field, bad: 1, kind: 'extra' as const })),
          ]
        : []),
    );
    options.push(
      fc
        .tuple(validPath, validQuery, validBody, mutation)
        .map(([path, query, body, { field, bad, kind }]) => {
          const mutated: Record<string, unknown> = { ...(body as Record<string, unknown>) };
          if (kind === 'missing') delete mutated[field];
          else mutated[field] = bad;
          return { path, query, mutated, field, kind };
        })
        // Checked as it goes on the wire (JSON turns Infinity into null). A mutation the schema still accepts (a field typed "anything") goes out as an ordinary case.
        .map(({ path, query, mutated, field, kind }) => ({
          method: verb,
          path,
          query,
          headers: json,
          body: JSON.stringify(mutated),
          ...(schemaAccepts(schema, JSON.parse(JSON.stringify(mutated))) ? {} : { invalidField: field }),
          label: `body.${field} ${kind}`,
        })),
    );
  }
  // Query values that break a parameter's schema, worked out before generation (a filter that never passes would spin).
  const RAW_QUERY_VALUES = ['-1', '0', 'abc', '1.5', '1e309', '99999999999', 'NaN', '9'.repeat(30), 'x'.repeat(300)];
  const invalidQueries = queryParams.flatMap((parameter) =>
    RAW_QUERY_VALUES.filter((raw) => {
      if (!parameter.schema) return false;
      const value = parameter.schema.type === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      return !schemaAccepts(parameter.schema, value);
    }).map((raw) => ({ name: parameter.name, raw })),
  );
  if (invalidQueries.length > 0) {
    const bodyText = schema ? validBody.map((value) => JSON.stringify(value)) : fc.constant(undefined);
    options.push(
      fc.tuple(validPath, fc.constantFrom(...invalidQueries), bodyText).map(([path, { name, raw }, body]) => ({
        method: verb,
        path,
        query: `${name}=${raw}`,
        headers: body === undefined ? {} : json,
        ...(body === undefined ? {} : { body }),
        invalidField: name,
        label: `query.${name}=${raw}`,
      })),
    );
  }
  return options.length ? fc.oneof(...options) : undefined;
}
