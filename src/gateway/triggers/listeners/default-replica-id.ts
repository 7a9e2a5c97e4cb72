import { hostname } from 'node:os';

/**
 * This process's id among replicas: the host name and process id, unique among processes on one host
 * and stable across restarts of a container (whose process is pid 1), so a restarted replica resumes
 * its own MQTT session and Redis pending entries.
 */
export function defaultReplicaId(): string {
  return `${hostname()}-${process.pid}`;
}
