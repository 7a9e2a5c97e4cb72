import type { LanguageModelV3, LanguageModelV3CallOptions, SharedV3Warning } from '@ai-sdk/provider';
import { convertToPrompt, convertToTools } from './convert-to-prompt.js';
import type { CallSignal } from './call-signal.js';
import type { ProviderEntry } from './create-provider-entry.js';
import { mapUpstreamError } from './map-upstream-error.js';
import type { RetrySettings, UpstreamFailure } from './retry-policy.js';
import type { ModelCallRequest } from './types.js';

/** The logger shape llm/ needs; a pino logger fits. */
export interface LlmLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Everything one model call needs, resolved before the first attempt. */
export interface ModelCall {
  entry: ProviderEntry;
  modelId: string;
  request: ModelCallRequest;
  model: LanguageModelV3;
  options: Omit<LanguageModelV3CallOptions, 'abortSignal'>;
  label: string;
  retry: RetrySettings;
  logger?: LlmLogger;
}

export function prepareModelCall(entry: ProviderEntry, modelId: string, request: ModelCallRequest, deps: { retry: RetrySettings; logger?: LlmLogger }): ModelCall {
  const tools = convertToTools(request.tools);
  return {
    entry,
    modelId,
    request,
    model: entry.languageModel(modelId),
    options: {
      prompt: convertToPrompt(request.messages),
      temperature: request.temperature,
      maxOutputTokens: request.maxTokens,
      ...(tools ? { tools, toolChoice: { type: 'auto' as const } } : {}),
    },
    label: `${entry.type} provider "${entry.name}" model "${modelId}"`,
    retry: deps.retry,
    logger: deps.logger,
  };
}

export function mapCallFailure(error: unknown, call: ModelCall, callSignal: CallSignal): UpstreamFailure {
  return mapUpstreamError(error, {
    label: call.label,
    secrets: call.entry.secrets,
    timedOut: callSignal.timedOut,
    timeoutMs: call.entry.timeoutMs,
    aborted: callSignal.callerAborted,
  });
}

/** Logs what the provider changed or dropped (say, a temperature the model rejects), once per provider, model and warning. */
export function reportWarnings(call: ModelCall, warnings: SharedV3Warning[]): void {
  for (const warning of warnings) {
    const text = warning.type === 'other' ? warning.message : `${warning.feature}${warning.details ? `: ${warning.details}` : ''}`;
    const key = `${call.modelId}\u0000${warning.type}\u0000${text}`;
    if (call.entry.reportedWarnings.has(key)) continue;
    call.entry.reportedWarnings.add(key);
    call.logger?.warn({ provider: call.entry.name, model: call.modelId, warning: warning.type }, `model call setting adjusted by the provider: ${text}`);
  }
}
