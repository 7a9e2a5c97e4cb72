import type { RegisteredTool, ToolCallContext } from './registered-tool.js';
import { ToolExecutionError } from './types.js';

/**
 * Runs a tool within its timeout and the caller's AbortSignal. The race makes the deadline hold even
 * for a tool that ignores its signal; every failure leaves as a ToolExecutionError.
 */
export async function callWithDeadline(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  outer?: AbortSignal,
  call?: ToolCallContext,
): Promise<string> {
  const name = tool.definition.name;
  if (outer?.aborted) throw new ToolExecutionError(`Tool "${name}" was aborted before it started`, 'aborted');
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new ToolExecutionError(`Tool "${name}" timed out after ${tool.timeoutMs} ms`, 'timeout')),
    tool.timeoutMs,
  );
  const onAbort = () => controller.abort(new ToolExecutionError(`Tool "${name}" was aborted`, 'aborted'));
  outer?.addEventListener('abort', onAbort, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
  });
  try {
    return await Promise.race([tool.run(args, controller.signal, call), stopped]);
  } catch (error) {
    // Whatever the tool threw in reaction to our abort, the abort's reason is the honest error.
    if (controller.signal.aborted) throw controller.signal.reason as ToolExecutionError;
    throw toToolError(name, error);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

export function toToolError(name: string, error: unknown): ToolExecutionError {
  if (error instanceof ToolExecutionError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return new ToolExecutionError(`Tool "${name}" failed: ${message}${code}`, 'failed');
}
