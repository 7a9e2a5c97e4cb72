import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/index.js';
import { applyEnvOverrides } from '../../src/config/env.js';

const YAML = `
agents: []
telemetry:
  enabled: false
  service_name: from-file
`;

describe('telemetry configuration', () => {
  it('is off by default, with content capture off', () => {
    const config = parseConfigText('agents: []\n', 'test.yaml', {});
    expect(config.telemetry).toMatchObject({
      enabled: false,
      capture_content: false,
      sampler: 'parentbased_always_on',
    });
  });

  it('takes the standard OTEL_* variables over the file; an OTLP endpoint turns it on', () => {
    const config = applyEnvOverrides(
      parseConfigText(YAML, 'test.yaml', {}),
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SERVICE_NAME: 'gateway-eu',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=abc%20def,other=1',
      },
      {},
    );
    expect(config.telemetry).toMatchObject({
      enabled: true,
      endpoint: 'http://collector:4318',
      service_name: 'gateway-eu',
      sampler: 'parentbased_traceidratio',
      sampler_arg: 0.25,
      headers: { 'x-honeycomb-team': 'abc def', other: '1' },
    });
  });

  it('lets OTEL_SDK_DISABLED win, and names a bad variable', () => {
    const base = parseConfigText(YAML, 'test.yaml', {});
    expect(
      applyEnvOverrides(base, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }, {}).telemetry
        .enabled,
    ).toBe(false);
    expect(() => applyEnvOverrides(base, { OTEL_TRACES_SAMPLER: 'sometimes' }, {})).toThrow(/OTEL_TRACES_SAMPLER/);
  });

  it('exports spans as protobuf by default (as in OpenTelemetry), as JSON when OTEL_EXPORTER_OTLP_PROTOCOL says so, never over gRPC', () => {
    const base = parseConfigText(YAML, 'test.yaml', {});
    expect(base.telemetry.protocol).toBe('http/protobuf');
    expect(applyEnvOverrides(base, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, {}).telemetry.protocol).toBe(
      'http/json',
    );
    // The traces' own variable wins over the general one.
    expect(
      applyEnvOverrides(
        base,
        { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' },
        {},
      ).telemetry.protocol,
    ).toBe('http/protobuf');
    expect(() => applyEnvOverrides(base, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, {})).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: only OTLP over HTTP/,
    );
  });
});
