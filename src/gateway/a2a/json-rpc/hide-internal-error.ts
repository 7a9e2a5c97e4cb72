export const INTERNAL_ERROR = -32603;
const INTERNAL_ERROR_MESSAGE = 'Internal error';

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A -32603 says only "Internal error": what broke inside (an SDK TypeError, a stack overflow) goes to the log, never to the caller. */
export function hideInternalError(error: JsonRpcError): JsonRpcError {
  return error.code === INTERNAL_ERROR ? { code: INTERNAL_ERROR, message: INTERNAL_ERROR_MESSAGE } : error;
}

/** The SDK answers some failures itself, inside a response: that response with an internal error hidden, and the hidden text for the log. */
export function hideInternalErrorIn(response: object): { response: object; hidden?: string } {
  const error = (response as { error?: JsonRpcError }).error;
  if (error?.code !== INTERNAL_ERROR) return { response };
  return { response: { ...response, error: hideInternalError(error) }, hidden: error.message };
}
