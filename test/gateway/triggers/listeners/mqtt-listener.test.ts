import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerUnavailable, uniqueSuffix } from './broker-probe.js';
import { startTcpProxy, type TcpProxy } from '../../../support/tcp-proxy.js';
import { FAST_SETTINGS_YAML, startTriggerHarness, waitForState, type TriggerHarness } from '../trigger-harness.js';

const skip = await brokerUnavailable('Mosquitto (MQTT)', 1883);

describe.skipIf(skip)('mqtt listener', () => {
  const suffix = uniqueSuffix();
  const clientId = `agtest-${suffix}`;
  let proxy: TcpProxy;
  let harness: TriggerHarness;
  let publisher: MqttClient;
  beforeAll(async () => {
    proxy = await startTcpProxy({ port: 1883 });
    publisher = await connectAsync('mqtt://127.0.0.1:1883', { clientId: `${clientId}-pub` });
    harness = await startTriggerHarness(
      `${FAST_SETTINGS_YAML}
listeners:
  - name: sensors
    source: mqtt
    url: ${proxy.url('mqtt')}
    topic: "agtest/${suffix}/#"
    client_id: ${clientId}
    # MQTT messages carry no id of their own; QoS 1 may deliver one twice (e.g. a PUBACK lost in a dropped connection).
    id_field: reading_id
    handlers: [{ event: reading.*, agent: triage, prompt: "{{sensor}}={{value}}" }]
`,
      { triggers: { replicaId: 'r1' } },
    );
    await harness.triggers.start();
    await waitForState(harness, 'sensors', 'connected');
  });
  afterAll(async () => {
    await harness?.close();
    // A clean session with the same id drops the broker's persistent session for the listener.
    await (await connectAsync('mqtt://127.0.0.1:1883', { clientId: `${clientId}-r1`, clean: true })).endAsync();
    await publisher?.endAsync();
    await proxy?.close();
  });

  const publish = (sensor: string, value: number) =>
    publisher.publishAsync(
      `agtest/${suffix}/${sensor}`,
      JSON.stringify({ type: 'reading.taken', reading_id: sensor, sensor, value }),
      { qos: 1 },
    );

  it('receives QoS 1 messages on a wildcard topic', async () => {
    await publish('t1', 20);
    await harness.runsStarted(1);
    expect(harness.runs.calls[0]).toMatchObject({ agentName: 'triage', prompt: 't1=20', source: 'listener' });
  });

  it('loses nothing across a dropped connection: the persistent session queues messages meanwhile', async () => {
    proxy.cut();
    await waitForState(harness, 'sensors', 'backing_off');
    for (const [sensor, value] of [
      ['t2', 21],
      ['t3', 22],
      ['t4', 23],
    ] as const)
      await publish(sensor, value);
    await proxy.restore();
    await waitForState(harness, 'sensors', 'connected');
    await harness.runsStarted(4);
    expect(harness.runs.prompts().sort()).toEqual(['t1=20', 't2=21', 't3=22', 't4=23']);
  });

  it('sends the PUBACK only after the event is stored: a store failure gets the message again', async () => {
    const insert = harness.store.insert;
    let attempts = 0;
    harness.store.insert = async (event) => {
      if (attempts++ === 0) throw new Error('database is locked');
      return insert(event);
    };
    try {
      await publish('t5', 24);
      await harness.runsStarted(5);
    } finally {
      harness.store.insert = insert;
    }
    expect(attempts).toBe(2);
    await vi.waitFor(() => expect(harness.status('sensors').state).toBe('connected'));
    expect(harness.runs.prompts().at(-1)).toBe('t5=24');
  });
});
