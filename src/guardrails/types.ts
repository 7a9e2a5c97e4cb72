/** The narrow seam between the checks and their callers: a check only reports what it found. */

export type GuardrailType = 'pii' | 'content_filter' | 'hallucination';

export type GuardrailAction = 'block' | 'redact' | 'warn' | 'log';

export interface GuardrailVerdict {
  type: GuardrailType;
  /**
   * What was found, never the matched text itself (it may be the very data to protect): a PII type
   * (`email`), a blocklist entry or `/pattern/`, or `ungrounded_answer`.
   */
  entity: string;
  /** What the configuration asks the caller to do about it. */
  action: GuardrailAction;
  /** [start, end) offsets in the checked text, for hits that have a place in it. */
  span?: [number, number];
  /** The grounding score in [0, 1] of a hallucination verdict. */
  score?: number;
}

export interface GuardrailContext {
  stage: 'input' | 'output';
  /** Tool results and context the run had; an answer is only graded against these. */
  sources: readonly string[];
}

/** One check. Pure: it never publishes, logs or throws for any text. */
export interface Guardrail {
  readonly type: GuardrailType;
  check(text: string, context: GuardrailContext): GuardrailVerdict[];
}
