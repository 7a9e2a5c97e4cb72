import { UnavailableError } from '../errors.js';

/** A reader fell so far behind that the events it needs next were already dropped from the bounded log. */
export function createSubscriberLagError(runId: string, logLimit: number): UnavailableError {
  return new UnavailableError(
    `Subscriber of run ${runId} fell more than ${logLimit} events behind and was disconnected`,
    'subscriber_lagging',
  );
}
