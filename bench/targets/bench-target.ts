import { BENCH_API_KEY, type UpstreamProfile } from '../bench-settings.js';
import type { Upstreams } from './start-upstreams.js';

export type TargetName = 'direct' | 'ours' | 'ours+guardrails' | 'portkey' | 'ours+pg';

/** Where one chat completion goes, and with which headers and model, for one target. */
export interface TargetRequest {
  url: string;
  headers: Record<string, string>;
  model: string;
}

/** One of the things compared side by side: the upstream itself, our gateway (two configs), Portkey. */
export interface BenchTarget {
  name: TargetName;
  /** The process to watch for memory, when the target is a gateway. */
  pid?: number;
  chatRequest(profile: UpstreamProfile): TargetRequest;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

export function createDirectTarget(upstreams: Upstreams): BenchTarget {
  return {
    name: 'direct',
    chatRequest: (profile) => ({
      url: `${upstreams[profile].url}/v1/chat/completions`,
      headers: { ...JSON_HEADERS, authorization: 'Bearer bench' },
      model: 'bench-model',
    }),
  };
}

/** Our gateway: the agent `bench-<profile>` has no tools and calls the matching upstream. */
export function createGatewayTarget(
  name: 'ours' | 'ours+guardrails' | 'ours+pg',
  url: string,
  pid: number,
): BenchTarget {
  return {
    name,
    pid,
    chatRequest: (profile) => ({
      url: `${url}/v1/chat/completions`,
      headers: { ...JSON_HEADERS, authorization: `Bearer ${BENCH_API_KEY}` },
      model: `bench-${profile}`,
    }),
  };
}

/** Portkey with provider openai and a custom host: its documented way to reach any OpenAI-compatible server. */
export function createPortkeyTarget(url: string, pid: number, upstreams: Upstreams): BenchTarget {
  return {
    name: 'portkey',
    pid,
    chatRequest: (profile) => ({
      url: `${url}/v1/chat/completions`,
      headers: {
        ...JSON_HEADERS,
        authorization: 'Bearer bench',
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': `${upstreams[profile].url}/v1`,
      },
      model: 'bench-model',
    }),
  };
}
