import { trace } from '@opentelemetry/api';
import { GATEWAY } from './gen-ai-attributes.js';

/** A guardrail hit as an event on the current span (the run's, or the model call's for output checks); never the matched text. */
export function addGuardrailEvent(event: { type: string; entity: string; action: string }): void {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  span.addEvent(GATEWAY.GUARDRAIL_EVENT, {
    'agent_gateway.guardrail.type': event.type,
    'agent_gateway.guardrail.entity': event.entity,
    'agent_gateway.guardrail.action': event.action,
  });
}
