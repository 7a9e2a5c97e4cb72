/**
 * KNOWN FAILURES of the hostile suite: answers the product gives today that break the HTTP conventions.
 * Each entry is a real defect, reported (issue 22 part 9) and NOT fixed by the suite; it stays here only
 * so the suite is green while it is open. Remove an entry when the product is fixed: the suite then
 * checks that case again. Keep each matcher as narrow as the defect. A few entries are not defects but
 * rules JSON Schema cannot state (a value checked against a list the document does not carry); they say so.
 */
import type { Answer } from './send.js';
import type { FuzzRequest } from './openapi-arbitraries.js';

export interface KnownFailure {
  /** `METHOD /openapi/path` */
  operation: string;
  /** What the product does wrong, in a user's words. */
  defect: string;
  matches(request: FuzzRequest, answer: Answer, problem: string): boolean;
}

/** The validation message of a 400, split into its "field: problem" parts. */
function problemsOf(answer: Answer): string[] {
  try {
    return String(JSON.parse(answer.text).error?.message ?? '').split('; ');
  } catch {
    return [];
  }
}

export const KNOWN_FAILURES: KnownFailure[] = [
  ...['POST /api/v1/autopilot/missions', 'PATCH /api/v1/autopilot/missions/{mission_id}'].map((operation) => ({
    operation,
    defect:
      `${operation}: not a defect: schedule_policy.timezone is checked against the IANA time zone list, which the document cannot ` +
      'carry, so a string the schema accepts may be refused with 400 naming the field',
    matches: (_request: FuzzRequest, answer: Answer) => {
      const problems = problemsOf(answer);
      return (
        answer.status === 400 &&
        problems.length > 0 &&
        problems.every((problem) => problem === 'body.schedule_policy.timezone: unknown IANA time zone')
      );
    },
  })),
  {
    operation: 'POST /agui/agents/{name}',
    defect:
      'POST /agui/agents/{name}: /openapi.json (and docs/api.md) is looser than the route on the AG-UI RunAgentInput: it documents ' +
      'tools[].parameters, tools[].metadata, messages[].metadata, resume[].metadata and forwardedProps as "any value" (and messages[].content ' +
      'of some roles as values it then refuses), but the route answers 400 "body.tools.0.metadata: Invalid input" to e.g. "metadata": 5, "x", null or [1]',
    matches: (_request, answer) => {
      const problems = problemsOf(answer);
      return (
        answer.status === 400 &&
        problems.length > 0 &&
        problems.every((problem) => /^body\.[\w.]+: Invalid input$/.test(problem))
      );
    },
  },
];

/** Hits per defect in this run, printed at the end so the allow-list never hides silently. */
export const knownFailureHits = new Map<string, number>();

export function knownFailure(
  operation: string,
  request: FuzzRequest,
  answer: Answer,
  problem: string,
): KnownFailure | undefined {
  const known = KNOWN_FAILURES.find(
    (entry) => entry.operation === operation && entry.matches(request, answer, problem),
  );
  if (known) knownFailureHits.set(known.defect, (knownFailureHits.get(known.defect) ?? 0) + 1);
  return known;
}
