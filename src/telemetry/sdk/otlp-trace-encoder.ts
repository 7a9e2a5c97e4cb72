/**
 * OTLP trace export request (ExportTraceServiceRequest) in the protobuf wire format, written in one pass.
 *
 * Why it exists: OTel's `ProtobufTraceSerializer` was the largest share of the SDK's cost per chat completion
 * (22–26 µs, creating the three spans about 12; bench/experiments/telemetry-serializer.ts: ours 7–8 µs): it runs the whole request twice (a size-estimating pass, then the write),
 * copies every string a char at a time in both, and allocates a Uint8Array per trace and span id. This writes
 * the same bytes once: lengths reserved and back-patched (shifted only when a length needs more bytes than
 * reserved), ASCII strings copied while being checked (Buffer's UTF-8 write for the rest), attribute keys,
 * the resource and the instrumentation scopes encoded once and copied. The output is byte-for-byte OTel's
 * (test/telemetry/otlp-trace-encoder.test.ts compares both on real SDK spans); OTel's exporter still sends it
 * (telemetry-sdk.ts). Field numbers: opentelemetry/proto/trace/v1/trace.proto and common/v1/common.proto.
 */
import type { Attributes, AttributeValue, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-node';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];

// A tag byte is (field number << 3) | wire type; wire types: 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32.
const TAG_RESOURCE_SPANS = 0x0a; // ExportTraceServiceRequest.resource_spans = 1
const TAG_RESOURCE = 0x0a; // ResourceSpans.resource = 1
const TAG_SCOPE_SPANS = 0x12; // ResourceSpans.scope_spans = 2
const TAG_SCHEMA_URL = 0x1a; // ResourceSpans.schema_url = 3, ScopeSpans.schema_url = 3
const TAG_SCOPE = 0x0a; // ScopeSpans.scope = 1
const TAG_SPAN = 0x12; // ScopeSpans.spans = 2
const KEY_VALUE_IN_SPAN = 0x4a; // Span.attributes = 9
const KEY_VALUE_IN_EVENT = 0x1a; // Span.Event.attributes = 3
const KEY_VALUE_IN_LINK = 0x22; // Span.Link.attributes = 4
const KEY_VALUE_IN_SCOPE = 0x1a; // InstrumentationScope.attributes = 3
const KEY_VALUE_IN_RESOURCE = 0x0a; // Resource.attributes = 1

const SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE = 0x100;
const SPAN_FLAGS_CONTEXT_IS_REMOTE = 0x200;
const MIN_INT64 = -(2 ** 63);
const MAX_INT64_EXCLUSIVE = 2 ** 63;
/** Distinct attribute keys whose encoding is kept; past it keys are encoded each time (keys made from data). */
const MAX_CACHED_KEYS = 2048;

// eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call, as OTel's serializer does
const hasOwn = Object.prototype.hasOwnProperty;

export class OtlpTraceEncoder {
  /** Scratch space, reused: it grows to the largest request (a batch of 512 spans: about 256 KiB) and stays. */
  private buf: Buffer;
  private pos = 0;
  private readonly keys = new Map<string, Uint8Array>();
  private readonly resources = new WeakMap<Resource, Uint8Array>();
  private readonly scopes = new WeakMap<Scope, Uint8Array>();

  constructor(initialSize = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(initialSize, 16));
  }

  /** The request's bytes; a copy the exporter may keep (its retries send it again) while the next is written. */
  encode(spans: ReadableSpan[]): Uint8Array {
    this.pos = 0;
    for (const [resource, scopes] of groupByResourceAndScope(spans)) this.writeResourceSpans(resource, scopes.values());
    const out = new Uint8Array(this.pos);
    out.set(this.buf.subarray(0, this.pos));
    return out;
  }

  private writeResourceSpans(resource: Resource, scopes: Iterable<ReadableSpan[]>): void {
    this.ensure(8);
    this.buf[this.pos++] = TAG_RESOURCE_SPANS;
    // A batch's ResourceSpans and ScopeSpans are mostly 16 KiB to 2 MiB long: a three-byte length.
    const start = this.reserve(3);
    this.writeCached(this.resources, resource, resource.asyncAttributesPending !== true, () => {
      this.buf[this.pos++] = TAG_RESOURCE;
      const resourceStart = this.reserve(1);
      if (resource.attributes) this.writeAttributes(resource.attributes, KEY_VALUE_IN_RESOURCE);
      this.ensure(2);
      this.buf[this.pos++] = 0x10; // dropped_attributes_count = 2: OTel writes 0
      this.buf[this.pos++] = 0;
      this.finish(resourceStart, 1);
    });
    for (const spans of scopes) this.writeScopeSpans(spans[0].instrumentationScope, spans);
    if (resource.schemaUrl) this.writeStringField(TAG_SCHEMA_URL, resource.schemaUrl);
    this.finish(start, 3);
  }

  private writeScopeSpans(scope: Scope, spans: ReadableSpan[]): void {
    this.ensure(8);
    this.buf[this.pos++] = TAG_SCOPE_SPANS;
    const start = this.reserve(3);
    this.writeCached(this.scopes, scope, true, () => this.writeScope(scope));
    for (let i = 0; i < spans.length; i++) this.writeSpan(spans[i]);
    if (scope.schemaUrl) this.writeStringField(TAG_SCHEMA_URL, scope.schemaUrl);
    this.finish(start, 3);
  }

  private writeScope(scope: Scope): void {
    this.ensure(8);
    this.buf[this.pos++] = TAG_SCOPE;
    const start = this.reserve(1);
    this.writeStringField(0x0a, scope.name); // name = 1
    if (scope.version) this.writeStringField(0x12, scope.version); // version = 2
    // The SDK's scope type has no attributes yet; OTel's serializer writes them when present.
    const { attributes, droppedAttributesCount } = scope as Scope & {
      attributes?: Attributes;
      droppedAttributesCount?: number;
    };
    if (attributes) this.writeAttributes(attributes, KEY_VALUE_IN_SCOPE);
    if (droppedAttributesCount) this.writeVarintField(0x20, droppedAttributesCount); // dropped_attributes_count = 4
    this.finish(start, 1);
  }

  private writeSpan(span: ReadableSpan): void {
    const ctx = span.spanContext();
    const parent = span.parentSpanContext;
    this.ensure(80);
    this.buf[this.pos++] = TAG_SPAN;
    // Spans are mostly 128 B to 16 KiB long: a two-byte length.
    const start = this.reserve(2);
    this.writeIdField(0x0a, ctx.traceId); // trace_id = 1
    this.writeIdField(0x12, ctx.spanId); // span_id = 2
    const traceState = ctx.traceState?.serialize();
    if (traceState) this.writeStringField(0x1a, traceState); // trace_state = 3
    if (parent?.spanId) this.writeIdField(0x22, parent.spanId); // parent_span_id = 4
    this.writeStringField(0x2a, span.name); // name = 5
    // The API's kinds start at INTERNAL = 0, the proto's at UNSPECIFIED = 0.
    const kind = span.kind == null ? 0 : span.kind + 1;
    this.ensure(40);
    if (kind !== 0) this.writeVarintField(0x30, kind); // kind = 6
    this.writeTimeField(0x39, span.startTime); // start_time_unix_nano = 7
    this.writeTimeField(0x41, span.endTime); // end_time_unix_nano = 8
    if (span.attributes) this.writeAttributes(span.attributes, KEY_VALUE_IN_SPAN);
    this.writeVarintField(0x50, span.droppedAttributesCount); // dropped_attributes_count = 10
    for (const event of span.events) this.writeEvent(event); // events = 11
    this.writeVarintField(0x60, span.droppedEventsCount); // dropped_events_count = 12
    for (const link of span.links) this.writeLink(link); // links = 13
    this.writeVarintField(0x70, span.droppedLinksCount); // dropped_links_count = 14
    this.writeStatus(span.status); // status = 15
    this.ensure(6);
    this.buf[this.pos++] = 0x85; // flags = 16, fixed32: a two-byte tag
    this.buf[this.pos++] = 0x01;
    this.writeFixed32(spanFlags(ctx.traceFlags, parent?.isRemote));
    this.finish(start, 2);
  }

  private writeEvent(event: TimedEvent): void {
    this.ensure(24);
    this.buf[this.pos++] = 0x5a;
    const start = this.reserve(1);
    this.writeTimeField(0x09, event.time); // time_unix_nano = 1
    this.writeStringField(0x12, event.name); // name = 2
    if (event.attributes) this.writeAttributes(event.attributes, KEY_VALUE_IN_EVENT);
    this.writeVarintField(0x20, event.droppedAttributesCount || 0); // dropped_attributes_count = 4
    this.finish(start, 1);
  }

  private writeLink(link: Link): void {
    const context: SpanContext = link.context;
    this.ensure(48);
    this.buf[this.pos++] = 0x6a;
    const start = this.reserve(1);
    this.writeIdField(0x0a, context.traceId); // trace_id = 1
    this.writeIdField(0x12, context.spanId); // span_id = 2
    const traceState = context.traceState?.serialize();
    if (traceState) this.writeStringField(0x1a, traceState); // trace_state = 3
    if (link.attributes) this.writeAttributes(link.attributes, KEY_VALUE_IN_LINK);
    this.writeVarintField(0x28, link.droppedAttributesCount || 0); // dropped_attributes_count = 5
    this.ensure(5);
    this.buf[this.pos++] = 0x35; // flags = 6, fixed32
    this.writeFixed32(spanFlags(context.traceFlags, context.isRemote));
    this.finish(start, 1);
  }

  private writeStatus(status: ReadableSpan['status']): void {
    this.ensure(16);
    this.buf[this.pos++] = 0x7a;
    const start = this.reserve(1);
    if (status.message) this.writeStringField(0x12, status.message); // message = 2
    this.writeVarintField(0x18, status.code); // code = 3, always written
    this.finish(start, 1);
  }

  private writeAttributes(attributes: Attributes, tag: number): void {
    for (const key in attributes) {
      if (!hasOwn.call(attributes, key)) continue;
      const value = attributes[key];
      const encodedKey = this.encodedKey(key);
      this.ensure(encodedKey.length + 8);
      const buf = this.buf;
      buf[this.pos++] = tag;
      const keyValueStart = this.reserve(1);
      buf.set(encodedKey, this.pos);
      this.pos += encodedKey.length;
      buf[this.pos++] = 0x12; // KeyValue.value = 2
      const valueStart = this.reserve(1);
      this.writeAnyValue(value);
      this.finish(valueStart, 1);
      this.finish(keyValueStart, 1);
    }
  }

  /** KeyValue.key = 1 with its length, as bytes: the same few keys are on every span. */
  private encodedKey(key: string): Uint8Array {
    const cached = this.keys.get(key);
    if (cached) return cached;
    const length = Buffer.byteLength(key, 'utf8');
    const encoded = Buffer.allocUnsafeSlow(1 + varintSize(length) + length);
    encoded[0] = 0x0a;
    let at = 1;
    for (let v = length; ; v >>>= 7) {
      if (v < 0x80) {
        encoded[at++] = v;
        break;
      }
      encoded[at++] = (v & 0x7f) | 0x80;
    }
    encoded.write(key, at, 'utf8');
    if (this.keys.size < MAX_CACHED_KEYS) this.keys.set(key, encoded);
    return encoded;
  }

  /** AnyValue's one field; the order of the checks and what is written for each type are OTel's writeAnyValue. */
  private writeAnyValue(value: AttributeValue | undefined | null | object): void {
    const type = typeof value;
    if (type === 'string') {
      this.writeStringField(0x0a, value as string); // string_value = 1
    } else if (type === 'boolean') {
      this.ensure(2);
      this.buf[this.pos++] = 0x10; // bool_value = 2
      this.buf[this.pos++] = value ? 1 : 0;
    } else if (type === 'number') {
      const number = value as number;
      this.ensure(11);
      if (Number.isInteger(number) && number >= MIN_INT64 && number < MAX_INT64_EXCLUSIVE) {
        this.buf[this.pos++] = 0x18; // int_value = 3
        this.writeVarint(number);
      } else {
        this.buf[this.pos++] = 0x21; // double_value = 4
        this.pos = this.buf.writeDoubleLE(number, this.pos);
      }
    } else if (value instanceof Uint8Array) {
      this.ensure(value.length + 11);
      this.buf[this.pos++] = 0x3a; // bytes_value = 7
      this.writeVarint(value.length);
      this.buf.set(value, this.pos);
      this.pos += value.length;
    } else if (Array.isArray(value)) {
      this.ensure(2);
      this.buf[this.pos++] = 0x2a; // array_value = 5
      const arrayStart = this.reserve(1);
      for (const item of value as unknown[]) {
        this.ensure(2);
        this.buf[this.pos++] = 0x0a; // ArrayValue.values = 1
        const itemStart = this.reserve(1);
        this.writeAnyValue(item as AttributeValue);
        this.finish(itemStart, 1);
      }
      this.finish(arrayStart, 1);
    } else if (type === 'object' && value != null) {
      this.ensure(2);
      this.buf[this.pos++] = 0x32; // kvlist_value = 6
      const listStart = this.reserve(1);
      const object = value as Record<string, unknown>;
      for (const key in object) {
        if (!hasOwn.call(object, key)) continue;
        this.ensure(2);
        this.buf[this.pos++] = 0x0a; // KeyValueList.values = 1
        const keyValueStart = this.reserve(1);
        this.writeStringField(0x0a, key); // KeyValue.key = 1
        this.ensure(2);
        this.buf[this.pos++] = 0x12; // KeyValue.value = 2
        const valueStart = this.reserve(1);
        this.writeAnyValue(object[key] as AttributeValue);
        this.finish(valueStart, 1);
        this.finish(keyValueStart, 1);
      }
      this.finish(listStart, 1);
    }
    // Anything else (undefined, null, a function): an empty AnyValue, as OTel writes.
  }

  /** Tag, length and UTF-8 bytes. ASCII (nearly every string here) is copied while it is checked. */
  private writeStringField(tag: number, text: string): void {
    const length = text.length;
    if (length < 128) {
      this.ensure(length + 2);
      const buf = this.buf;
      const start = this.pos;
      buf[start] = tag;
      buf[start + 1] = length;
      let at = start + 2;
      let i = 0;
      for (; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code > 0x7f) break;
        buf[at++] = code;
      }
      if (i === length) {
        this.pos = at;
        return;
      }
    }
    const byteLength = Buffer.byteLength(text, 'utf8');
    this.ensure(byteLength + 11);
    this.buf[this.pos++] = tag;
    this.writeVarint(byteLength);
    this.pos += this.buf.write(text, this.pos, byteLength, 'utf8');
  }

  /** A trace or span id: the bytes of its hex, decoded as OTel's hexToBinary does (also for malformed ids). */
  private writeIdField(tag: number, hex: string): void {
    const byteLength = Math.floor(hex.length / 2);
    this.ensure(byteLength + 11);
    const buf = this.buf;
    buf[this.pos++] = tag;
    this.writeVarint(byteLength);
    let at = this.pos;
    for (let i = 0; i < byteLength * 2; i += 2) {
      const high = hex.charCodeAt(i);
      const low = hex.charCodeAt(i + 1);
      buf[at++] = ((high < 128 ? HEX_DIGITS[high] : high - 55) << 4) | (low < 128 ? HEX_DIGITS[low] : low - 55);
    }
    this.pos = at;
  }

  /** HrTime [seconds, nanoseconds] as fixed64 nanoseconds, exactly in doubles (OTel's writeHrTimeAsFixed64). */
  private writeTimeField(tag: number, time: HrTime): void {
    this.ensure(9);
    const seconds = time[0];
    const nanos = time[1];
    // seconds * 1e9 passes 2^53: split seconds at bit 16 so each product is exact.
    const fromLow16 = (seconds & 0xffff) * 1e9;
    const fromHigh = ((seconds / 0x10000) >>> 0) * 1e9;
    const lowWithCarry = (fromLow16 >>> 0) + (((fromHigh & 0xffff) * 0x10000) >>> 0) + nanos;
    const high =
      (Math.floor(fromLow16 / 0x100000000) + ((fromHigh / 0x10000) >>> 0) + Math.floor(lowWithCarry / 0x100000000)) >>>
      0;
    this.buf[this.pos++] = tag;
    this.writeFixed32(lowWithCarry >>> 0);
    this.writeFixed32(high);
  }

  private writeVarintField(tag: number, value: number): void {
    this.ensure(11);
    this.buf[this.pos++] = tag;
    this.writeVarint(value);
  }

  /** Callers ensure 10 bytes. Negative and 64-bit integers as OTel's ProtobufWriter.writeVarint writes them. */
  private writeVarint(value: number): void {
    const buf = this.buf;
    if (value >= 0 && value <= 0xffffffff) {
      let v = value >>> 0;
      while (v > 0x7f) {
        buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[this.pos++] = v;
      return;
    }
    let low: number;
    let high: number;
    if (value >= 0) {
      low = value >>> 0;
      high = (value / 0x100000000) >>> 0;
    } else {
      // Two's complement of the magnitude.
      const magnitude = Math.abs(value);
      low = ~(magnitude >>> 0) >>> 0;
      high = ~((magnitude / 0x100000000) >>> 0) >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 0x7f) {
      buf[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buf[this.pos++] = low & 0x7f;
  }

  /** Callers ensure 4 bytes. */
  private writeFixed32(value: number): void {
    const buf = this.buf;
    buf[this.pos++] = value & 0xff;
    buf[this.pos++] = (value >>> 8) & 0xff;
    buf[this.pos++] = (value >>> 16) & 0xff;
    buf[this.pos++] = (value >>> 24) & 0xff;
  }

  /** Space for a length written by `finish`; returns where it goes. */
  private reserve(bytes: number): number {
    this.ensure(bytes);
    const at = this.pos;
    this.pos += bytes;
    return at;
  }

  /** Writes the length of what followed the reserved bytes at `at`, moving it when the length takes more or fewer. */
  private finish(at: number, reserved: number): void {
    const contentStart = at + reserved;
    const length = this.pos - contentStart;
    const size = varintSize(length);
    if (size !== reserved) {
      if (size > reserved) this.ensure(size - reserved);
      this.buf.copyWithin(at + size, contentStart, this.pos);
      this.pos += size - reserved;
    }
    const buf = this.buf;
    let v = length;
    while (v > 0x7f) {
      buf[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[at] = v;
  }

  /** Copies the bytes `write` produced for `key` the first time; writes them again each time when not cacheable. */
  private writeCached<K extends object>(
    cache: WeakMap<K, Uint8Array>,
    key: K,
    cacheable: boolean,
    write: () => void,
  ): void {
    const cached = cacheable ? cache.get(key) : undefined;
    if (cached) {
      this.ensure(cached.length);
      this.buf.set(cached, this.pos);
      this.pos += cached.length;
      return;
    }
    const start = this.pos;
    write();
    if (cacheable) cache.set(key, Buffer.from(this.buf.subarray(start, this.pos)));
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
}

/** Spans by resource, then by instrumentation scope, in first-seen order (by identity, as OTel groups them). */
function groupByResourceAndScope(spans: ReadableSpan[]): Map<Resource, Map<Scope, ReadableSpan[]>> {
  const resources = new Map<Resource, Map<Scope, ReadableSpan[]>>();
  if (spans.length === 0) return resources;
  // Nearly always one resource and one scope: the batch as it is.
  const { resource, instrumentationScope } = spans[0];
  if (spans.every((span) => span.resource === resource && span.instrumentationScope === instrumentationScope)) {
    return resources.set(resource, new Map([[instrumentationScope, spans]]));
  }
  for (const span of spans) {
    let scopes = resources.get(span.resource);
    if (!scopes) resources.set(span.resource, (scopes = new Map<Scope, ReadableSpan[]>()));
    const group = scopes.get(span.instrumentationScope);
    if (group) group.push(span);
    else scopes.set(span.instrumentationScope, [span]);
  }
  return resources;
}

/** The low 8 bits are the W3C trace flags; bit 8 says bit 9 (the parent or link context is remote) is known. */
function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE | (isRemote ? SPAN_FLAGS_CONTEXT_IS_REMOTE : 0);
}

/** OTel's hexToBinary digit: 0-9, a-f, and anything else as if A-F. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return code - 55;
}

/** hexDigit of the char codes under 128, looked up. */
const HEX_DIGITS = Int16Array.from({ length: 128 }, (_, code) => hexDigit(code));

function varintSize(v: number): number {
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x200000) return 3;
  if (v < 0x10000000) return 4;
  return 5;
}
