import { Extensions } from '@a2a-js/sdk';
import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import { ownerOf, readsEverything, type A2aRestrictions, type Principal } from '../../auth/index.js';
import type { TraceSpan } from '../../telemetry/index.js';
import type { TaskVisibility } from './a2a-task.store.js';

/** The caller our auth hook authenticated, as the SDK's User; the executor reads the access token from it. */
export class PrincipalUser implements User {
  constructor(readonly principal: Principal) {}

  get isAuthenticated(): boolean {
    return true;
  }

  get userName(): string {
    return this.principal.kind === 'access_token'
      ? `token:${this.principal.tokenId}`
      : `${this.principal.method}:${this.principal.subject}`;
  }
}

export interface CallContextInput {
  principal: Principal;
  /** The A2A-Version header; absent means 0.3 (A2A 1.0 §3.6.2). */
  requestedVersion?: string;
  /** The extensions header of the request's protocol version. */
  extensions?: string;
  headers: Record<string, string | string[] | undefined>;
  /** The agent's public A2A endpoint as this request reaches it (for the extended card). */
  endpoint?: string;
  /** The request's SERVER span: the runs the call starts are its children. */
  trace?: TraceSpan;
}

export function createCallContext(input: CallContextInput): ServerCallContext {
  return new ServerCallContext({
    user: new PrincipalUser(input.principal),
    requestedVersion: input.requestedVersion,
    requestedExtensions: Extensions.parseServiceParameter(input.extensions),
    state: new Map<string, unknown>([
      ['headers', input.headers],
      ['endpoint', input.endpoint],
      ['trace', input.trace],
    ]),
  });
}

/** The span of the request that made the call (undefined when telemetry is off). */
export function traceOf(context: ServerCallContext | undefined): TraceSpan {
  return context?.state.get('trace') as TraceSpan;
}

/** The access token that sent the task, so its run counts against that token. */
export function tokenIdOf(context: ServerCallContext): string | undefined {
  const user = context.user;
  return user instanceof PrincipalUser && user.principal.kind === 'access_token' ? user.principal.tokenId : undefined;
}

/** Who owns the tasks a call creates (auth ownerOf); `anonymous` for a caller our auth hook did not authenticate. */
export function ownerOfContext(context: ServerCallContext | undefined): string {
  const user = context?.user;
  return user instanceof PrincipalUser ? ownerOf(user.principal) : 'anonymous';
}

/** The tasks a call may read: operators all of the agent's, everybody else their own. */
export function visibilityOf(context: ServerCallContext | undefined): TaskVisibility {
  const user = context?.user;
  return user instanceof PrincipalUser && readsEverything(user.principal) ? 'all' : { owner: ownerOfContext(context) };
}

/** The endpoint createCallContext was given. */
export function endpointOf(context: ServerCallContext): string | undefined {
  const endpoint = context.state?.get('endpoint');
  return typeof endpoint === 'string' ? endpoint : undefined;
}

/** The A2A restrictions of the caller's access token, if any. */
export function restrictionsOf(context: ServerCallContext): A2aRestrictions | undefined {
  const user = context.user;
  return user instanceof PrincipalUser && user.principal.kind === 'access_token' ? user.principal.a2a : undefined;
}
