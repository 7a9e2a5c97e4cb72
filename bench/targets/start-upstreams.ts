import { fileURLToPath } from 'node:url';
import { UPSTREAM_PROFILES, type UpstreamProfile } from '../bench-settings.js';
import { spawnService, type ServiceProcess } from '../processes/spawn-service.js';

const SERVER_SCRIPT = fileURLToPath(new URL('../fake-upstream-server.ts', import.meta.url));

export type Upstreams = Record<UpstreamProfile, { url: string; process: ServiceProcess }>;

/** One fake upstream process per profile; each prints the URL it listens on. */
export async function startUpstreams(): Promise<Upstreams> {
  const entries = await Promise.all(
    (Object.keys(UPSTREAM_PROFILES) as UpstreamProfile[]).map(async (profile) => {
      const settings = UPSTREAM_PROFILES[profile];
      const process = await spawnService({
        name: `upstream-${profile}`,
        nodeArgs: [
          '--import',
          'tsx',
          SERVER_SCRIPT,
          '--latency-ms',
          String(settings.latencyMs),
          '--response-bytes',
          String(settings.responseBytes),
          '--chunks',
          String(settings.chunks),
          '--chunk-interval-ms',
          String(settings.chunkIntervalMs),
          ...(settings.stamp ? ['--stamp'] : []),
        ],
        readyLine: /^listening on (http:\/\/\S+)$/,
        ipc: true,
      });
      return [profile, { url: process.ready[1], process }] as const;
    }),
  );
  return Object.fromEntries(entries) as Upstreams;
}
