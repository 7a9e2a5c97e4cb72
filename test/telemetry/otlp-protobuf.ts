/**
 * Decodes an OTLP protobuf trace export (ExportTraceServiceRequest) into the shape of its OTLP JSON encoding,
 * so the test receiver reads both alike. Written from opentelemetry-proto's trace.proto and common.proto, not
 * from the gateway's encoder: it checks what a collector would read. Only the fields the tests look at.
 */

type Field = { number: number; varint?: bigint; bytes?: Buffer; fixed?: Buffer };

/** The fields of one message in order (repeated fields appear once per value). */
function fieldsOf(message: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = message[at++];
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.length) {
    const tag = Number(varint());
    const number = tag >>> 3;
    switch (tag & 7) {
      case 0:
        fields.push({ number, varint: varint() });
        break;
      case 1:
        fields.push({ number, fixed: message.subarray(at, (at += 8)) });
        break;
      case 2: {
        const length = Number(varint());
        fields.push({ number, bytes: message.subarray(at, (at += length)) });
        break;
      }
      case 5:
        fields.push({ number, fixed: message.subarray(at, (at += 4)) });
        break;
      default:
        throw new Error(`unexpected wire type ${tag & 7} at byte ${at}`);
    }
  }
  return fields;
}

const EMPTY = Buffer.alloc(0);
/** The fields of an embedded message (none when it is absent). */
const fieldsIn = (field: Field | undefined) => fieldsOf(field?.bytes ?? EMPTY);
const all = (fields: Field[], number: number) => fields.filter((field) => field.number === number);
const one = (fields: Field[], number: number) => fields.find((field) => field.number === number);
const text = (field: Field | undefined) => field?.bytes?.toString('utf8');
const hex = (field: Field | undefined) => field?.bytes?.toString('hex') ?? '';

function anyValue(message: Buffer): Record<string, unknown> {
  const [field] = fieldsOf(message);
  if (!field) return {};
  switch (field.number) {
    case 1:
      return { stringValue: text(field) };
    case 2:
      return { boolValue: field.varint === 1n };
    case 3:
      return { intValue: BigInt.asIntN(64, field.varint ?? 0n).toString() };
    case 4:
      return { doubleValue: field.fixed?.readDoubleLE(0) };
    case 5:
      return { arrayValue: { values: all(fieldsIn(field), 1).map((item) => anyValue(item.bytes ?? EMPTY)) } };
    default:
      return {};
  }
}

function keyValues(fields: Field[], number: number) {
  return all(fields, number).map((field) => {
    const keyValue = fieldsIn(field);
    return { key: text(one(keyValue, 1)) ?? '', value: anyValue(one(keyValue, 2)?.bytes ?? EMPTY) };
  });
}

function span(message: Buffer) {
  const fields = fieldsOf(message);
  const status = fieldsIn(one(fields, 15));
  return {
    traceId: hex(one(fields, 1)),
    spanId: hex(one(fields, 2)),
    parentSpanId: hex(one(fields, 4)),
    name: text(one(fields, 5)) ?? '',
    kind: Number(one(fields, 6)?.varint ?? 0n),
    startTimeUnixNano: one(fields, 7)?.fixed?.readBigUInt64LE(0).toString(),
    attributes: keyValues(fields, 9),
    status: { code: Number(one(status, 3)?.varint ?? 0n), message: text(one(status, 2)) },
    events: all(fields, 11).map((event) => {
      const eventFields = fieldsIn(event);
      return { name: text(one(eventFields, 2)) ?? '', attributes: keyValues(eventFields, 3) };
    }),
    links: all(fields, 13).map((link) => {
      const linkFields = fieldsIn(link);
      return { traceId: hex(one(linkFields, 1)), spanId: hex(one(linkFields, 2)) };
    }),
  };
}

/** ExportTraceServiceRequest bytes as `{ resourceSpans: [...] }` in OTLP JSON's field names. */
export function decodeTraceRequest(body: Buffer) {
  return {
    resourceSpans: all(fieldsOf(body), 1).map((resourceSpans) => {
      const fields = fieldsIn(resourceSpans);
      const resource = fieldsIn(one(fields, 1));
      return {
        resource: { attributes: keyValues(resource, 1) },
        scopeSpans: all(fields, 2).map((scopeSpans) => ({
          spans: all(fieldsIn(scopeSpans), 2).map((field) => span(field.bytes ?? EMPTY)),
        })),
      };
    }),
  };
}
