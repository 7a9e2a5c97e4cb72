import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import {
  JsonRpcTransportHandler,
  validateVersion,
  type A2ARequestHandler,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import { hideInternalError, type JsonRpcError } from './hide-internal-error.js';

/** A JSON-RPC answer: one response object, or (message/stream, tasks/resubscribe) a stream of them. */
export type JsonRpcOutcome =
  { kind: 'single'; response: object } | { kind: 'stream'; responses: AsyncGenerator<object, void, undefined> };

export interface JsonRpcDispatcher {
  dispatch(body: unknown, context: ServerCallContext): Promise<JsonRpcOutcome>;
  /** The JSON-RPC `error` member for a failure, in the shape of the caller's protocol version; an internal one says only "Internal error". */
  mapError(error: unknown, legacy: boolean): JsonRpcError;
}

/** Absent (A2A 1.0 §3.6.2) or any 0.x version is a v0.3 peer, served by the SDK's compatibility layer. */
export function isLegacyVersion(version: string | undefined): boolean {
  return !version || version.startsWith('0.');
}

/** The version a call context carries: every v0.3 spelling becomes the SDK's "0.3". */
export function normalizeVersion(version: string | undefined): string {
  return isLegacyVersion(version) ? A2A_LEGACY_PROTOCOL_VERSION : version!.trim();
}

/**
 * The SDK's JSON-RPC transports, as its Express helper uses them but callable from any server: the
 * 1.0 handler (PascalCase methods) or, for v0.3 peers, the legacy one (message/send, tasks/get, ...).
 */
export function createJsonRpcDispatcher(requestHandler: A2ARequestHandler): JsonRpcDispatcher {
  const current = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);

  return {
    async dispatch(body, context) {
      validateVersion(context.requestedVersion, await requestHandler.getAgentCard(), 'JSONRPC');
      const transport = isLegacyVersion(context.requestedVersion) ? legacy : current;
      const outcome = await transport.handle(body as Record<string, unknown>, context);
      return isAsyncGenerator(outcome) ? { kind: 'stream', responses: outcome } : { kind: 'single', response: outcome };
    },
    mapError(error, useLegacy) {
      return hideInternalError(
        useLegacy
          ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
          : JsonRpcTransportHandler.mapToJSONRPCError(error),
      );
    },
  };
}

function isAsyncGenerator<T>(
  value: T | AsyncGenerator<T, void, undefined>,
): value is AsyncGenerator<T, void, undefined> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}
