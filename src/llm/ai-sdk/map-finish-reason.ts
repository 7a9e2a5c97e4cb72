import type { LanguageModelV3FinishReason } from '@ai-sdk/provider';
import type { FinishReason } from '../types.js';

export function mapFinishReason(reason: LanguageModelV3FinishReason | undefined): FinishReason {
  switch (reason?.unified) {
    case 'stop':
      return 'stop';
    case 'tool-calls':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}
