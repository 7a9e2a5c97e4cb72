import { UnavailableError } from '../errors.js';

/** A reader fell too far behind the run's bounded log; the events after its position are kept a while, so it can re-attach. */
export function createSubscriberLagError(runId: string, lag: number): UnavailableError {
  return new UnavailableError(
    `Subscriber of run ${runId} fell more than ${lag} events behind and was disconnected; re-attach with Last-Event-ID to go on`,
    'subscriber_lagging',
  );
}
