import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, ApiError, runQueries, type RunStatus } from '../api';
import { formatMs, formatTokens, formatUsd, StatusBadge, Time } from '../format';
import { LogView } from '../log-view';
import { useRunChanges } from '../run-changes';
import { QueryView } from '../states';

const LIVE = new Set<RunStatus | undefined>(['running', 'paused']);
const STEPS_POLL_MS = 3000;

export function RunDetailPage({ runId }: { runId: string }) {
  const client = useQueryClient();
  // Status changes come on the runs event stream (which refreshes this query); steps written meanwhile by a poll.
  useRunChanges();
  const run = useQuery({
    ...runQueries.detail(runId),
    refetchInterval: (current) => (current.state.data && !LIVE.has(current.state.data.status) ? false : STEPS_POLL_MS),
  });
  const control = useMutation({
    mutationFn: (command: 'pause' | 'resume' | 'cancel') =>
      api(`/api/v1/admin/runs/${encodeURIComponent(runId)}/${command}`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: runQueries.detail(runId).queryKey }),
  });
  const status = run.data?.status;
  return (
    <>
      <p>
        <Link href="/runs">← Runs</Link>
      </p>
      <h1>
        Run <span className="mono">{runId}</span>
      </h1>
      <QueryView query={run} what="the run">
        {(data) => (
          <>
            <dl className="cards">
              <div className="card">
                <dt className="label">Status</dt>
                <dd className="value" data-testid="run-status">
                  <StatusBadge status={data.status} />
                </dd>
              </div>
              <div className="card">
                <dt className="label">Agent</dt>
                <dd className="value">
                  <Link href={`/agents/${encodeURIComponent(data.agent_name)}`}>{data.agent_name}</Link>
                </dd>
              </div>
              <div className="card">
                <dt className="label">Tokens</dt>
                <dd className="value">{formatTokens(data.total_tokens)}</dd>
              </div>
              <div className="card">
                <dt className="label">Cost</dt>
                <dd className="value">{formatUsd(data.cost_usd)}</dd>
              </div>
              <div className="card">
                <dt className="label">Started</dt>
                <dd>
                  <Time iso={data.started_at} />
                </dd>
              </div>
              <div className="card">
                <dt className="label">Finished</dt>
                <dd>
                  <Time iso={data.finished_at} />
                </dd>
              </div>
            </dl>
            <div className="actions">
              <button
                type="button"
                disabled={status !== 'running' || control.isPending}
                onClick={() => control.mutate('pause')}
              >
                Pause
              </button>
              <button
                type="button"
                disabled={status !== 'paused' || control.isPending}
                onClick={() => control.mutate('resume')}
              >
                Resume
              </button>
              <button
                type="button"
                className="danger"
                disabled={!LIVE.has(status) || control.isPending}
                onClick={() => control.mutate('cancel')}
              >
                Cancel
              </button>
            </div>
            {control.isError && (
              <p role="alert" className="error-text">
                {control.error instanceof ApiError ? control.error.message : String(control.error)}
              </p>
            )}
            {data.triggered_by && (
              <p data-testid="triggered-by">
                Started by <span className="mono">{data.triggered_by.source}</span>, event{' '}
                <span className="mono">{data.triggered_by.event}</span>, from inbox item{' '}
                <Link href="/triggers" className="mono">
                  {data.triggered_by.item_id}
                </Link>
              </p>
            )}
            {data.error && (
              <p className="error-text">
                {data.error.code}: {data.error.message}
              </p>
            )}
            {LIVE.has(data.status) && <LiveEvents runId={runId} />}
            <h2>Output</h2>
            {data.output ? <pre data-testid="run-output">{data.output}</pre> : <p className="state">No output yet.</p>}
            <h2>Steps</h2>
            {data.step_details.length === 0 ? (
              <p className="state empty">No steps yet.</p>
            ) : (
              <ol className="timeline">
                {data.step_details.map((step) => (
                  <li key={step.step_id} className={`step-${step.kind}`}>
                    <strong>
                      {step.step_index + 1}. {step.kind === 'model' ? 'Model call' : 'Tool call'} {step.name}
                    </strong>{' '}
                    <StatusBadge status={step.status} /> {formatMs(step.latency_ms)} · {formatTokens(step.input_tokens)}{' '}
                    in, {formatTokens(step.output_tokens)} out · {formatUsd(step.cost_usd)} ·{' '}
                    <Time iso={step.started_at} />
                    <details>
                      <summary>Prompt log</summary>
                      <LogView value={step.prompt_log} label={`Prompt log of step ${step.step_index + 1}`} />
                    </details>
                  </li>
                ))}
              </ol>
            )}
          </>
        )}
      </QueryView>
    </>
  );
}

interface LiveEvent {
  type: string;
  text: string;
}

/** The run's live events through the AG-UI attach stream (GET /agui/ws?run_id=, an SSE stream). */
function LiveEvents({ runId }: { runId: string }) {
  const [events, setEvents] = useState<LiveEvent[]>([]);
  const [text, setText] = useState('');
  useEffect(() => {
    const source = new EventSource(`/agui/ws?run_id=${encodeURIComponent(runId)}&format=simple`);
    const add = (type: string) => (message: MessageEvent<string>) => {
      const data = JSON.parse(message.data) as Record<string, unknown>;
      if (type === 'text_delta') setText((previous) => previous + (typeof data.delta === 'string' ? data.delta : ''));
      else setEvents((previous) => [...previous, { type, text: JSON.stringify(data) }]);
      if (type === 'run_completed' || type === 'run_error') source.close();
    };
    for (const type of ['run_started', 'text_delta', 'tool_call', 'tool_result', 'run_completed', 'run_error'])
      source.addEventListener(type, add(type));
    return () => source.close();
  }, [runId]);
  return (
    <section aria-label="Live events">
      <h2>Live events</h2>
      <pre aria-live="polite" data-testid="live-text">
        {text || '…'}
      </pre>
      <ul>
        {events.map((event, index) => (
          <li key={index} className="mono">
            {event.type} {event.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
