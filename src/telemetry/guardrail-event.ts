import type { Span } from '@opentelemetry/api';
import { GATEWAY } from './gen-ai-attributes.js';

/** A guardrail hit as an event on `span` (the run's, or the model call's for output checks); never the matched text. */
export function addGuardrailEvent(
  span: Span | undefined,
  event: { type: string; entity: string; action: string },
): void {
  if (!span?.isRecording()) return;
  span.addEvent(GATEWAY.GUARDRAIL_EVENT, {
    'agent_gateway.guardrail.type': event.type,
    'agent_gateway.guardrail.entity': event.entity,
    'agent_gateway.guardrail.action': event.action,
  });
}
