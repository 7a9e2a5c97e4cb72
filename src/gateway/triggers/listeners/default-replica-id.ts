import { hostname } from 'node:os';

/**
 * This process's id among replicas when server.replica_id is unset: the host name, which is stable across
 * restarts (a container keeps its host name, a StatefulSet pod its name), so a restarted gateway resumes
 * its own MQTT session and Redis pending entries instead of leaving them to expire. Two replicas on one
 * host must set server.replica_id.
 */
export function defaultReplicaId(): string {
  return hostname();
}
