import type { RunEventBody, RunSource } from '../../bus/index.js';
import type { GuardrailVerdict } from '../../guardrails/index.js';
import { isoNow } from '../../ids.js';
import { addGuardrailEvent, type TraceSpan } from '../../telemetry/index.js';

import type { ModelUsageRecord, UsageSink } from './usage-sink.js';
import type { Logger } from '../../logger.js';

/** The per-call part of a usage record; the run fills in the rest. */
export type CallUsage = Pick<
  ModelUsageRecord,
  | 'step_id'
  | 'input_tokens'
  | 'output_tokens'
  | 'cached_tokens'
  | 'cost_usd'
  | 'latency_ms'
  | 'ttft_ms'
  | 'status'
  | 'priced'
  | 'estimated'
> &
  /** The provider and model that answered, when a fallback did: the run's own otherwise. */
  Partial<Pick<ModelUsageRecord, 'provider' | 'model'>>;

/** One run's usage records and guardrail hits, written in the background and awaited once at the end. */
export interface RunReporter {
  usage(call: CallUsage): void;
  /** Each verdict becomes a `guardrail-flag` event, a risk event and an event on `span` (the run's by default). */
  flag: (verdicts: readonly GuardrailVerdict[], span?: TraceSpan) => void;
  /** Resolves once everything reported so far is committed; a failed write is logged, never thrown. */
  settled(): Promise<void>;
}

export interface RunReporterOptions {
  sink?: UsageSink;
  emit: (body: RunEventBody) => void;
  run: {
    run_id: string;
    /** The agent analytics count the run's records under (a mission step's stable name, else the run's agent). */
    agent_name: string;
    session_id: string | null;
    mission_id: string | null;
    mission_step: string | null;
    end_user: string | null;
    source: RunSource;
    provider: string;
    model: string;
  };
  log?: Logger;
  /** The run's span: guardrail hits are events on it unless a call's span is given. */
  trace?: TraceSpan;
}

export function createRunReporter({ sink, emit, run, log, trace }: RunReporterOptions): RunReporter {
  const pending: Promise<void>[] = [];
  let reported = false;
  // The sink batches writes (group commit): a record costs no round trip of its own here.
  const track = (write: Promise<void>) => {
    pending.push(
      write.catch((error: unknown) => {
        if (reported) return;
        reported = true;
        log?.error({ err: error, run_id: run.run_id }, 'could not record usage or risk events of the run');
      }),
    );
  };
  return {
    usage(call) {
      if (sink) track(sink.record({ ...run, ...call, created_at: isoNow() }));
    },
    flag(verdicts, span = trace) {
      for (const verdict of verdicts) {
        emit({ type: 'guardrail-flag', guardrail: verdict.type, entity: verdict.entity, action: verdict.action });
        addGuardrailEvent(span, verdict);
        if (sink) {
          const event = {
            run_id: run.run_id,
            agent_name: run.agent_name,
            mission_id: run.mission_id,
            mission_step: run.mission_step,
            end_user: run.end_user,
            type: verdict.type,
            entity: verdict.entity,
            action: verdict.action,
            created_at: isoNow(),
          };
          track(sink.recordRisk(event));
        }
      }
    },
    async settled() {
      await Promise.all(pending);
    },
  };
}
