import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, ApiError, autopilotQueries, missionPath } from '../api';
import { formatMs, formatTokens, formatUsd, StatusBadge, Time } from '../format';
import { QueryView } from '../states';

export function MissionDetailPage({ missionId }: { missionId: string }) {
  const client = useQueryClient();
  const path = missionPath(missionId);
  const mission = useQuery({ ...autopilotQueries.mission(missionId), refetchInterval: 2000 });
  // The mission's detail and the missions list are under one key.
  const refresh = () => client.invalidateQueries({ queryKey: autopilotQueries.missions() });
  const command = useMutation({
    mutationFn: (action: 'approve' | 'run' | 'cancel') =>
      action === 'cancel' ? api(path, { method: 'DELETE' }) : api(`${path}/${action}`, { method: 'POST' }),
    onSettled: refresh,
  });
  const heal = useMutation({
    mutationFn: (id: string) => api(`${path}/healing/${encodeURIComponent(id)}/apply`, { method: 'POST', body: {} }),
    onSettled: refresh,
  });
  const failure = command.error ?? heal.error;
  return (
    <>
      <p>
        <Link href="/autopilot">← Autopilot</Link>
      </p>
      <QueryView query={mission} what="the mission">
        {(data) => (
          <>
            <h1>{data.title}</h1>
            <p>
              <span data-testid="mission-status">
                <StatusBadge status={data.status} />
              </span>{' '}
              <span className="mono">{data.mission_id}</span> · blueprint{' '}
              <span className="mono">{data.blueprint_id}</span> · schedule{' '}
              <span className="mono">{data.schedule ?? 'once'}</span> · next run <Time iso={data.next_run_at} />
            </p>
            <div className="actions">
              <button type="button" disabled={data.status !== 'draft'} onClick={() => command.mutate('approve')}>
                Approve
              </button>
              <button type="button" disabled={data.status !== 'scheduled'} onClick={() => command.mutate('run')}>
                Run now
              </button>
              <button
                type="button"
                className="danger"
                disabled={['completed', 'failed', 'cancelled'].includes(data.status)}
                onClick={() => command.mutate('cancel')}
              >
                Cancel mission
              </button>
            </div>
            {failure && (
              <p role="alert" className="error-text">
                {failure instanceof ApiError ? `${failure.code}: ${failure.message}` : String(failure)}
              </p>
            )}
            {data.goal && <p>Goal: {data.goal}</p>}
            <h2>Slots</h2>
            <pre>{JSON.stringify(data.slots, null, 2)}</pre>
            {data.missing_slots.length > 0 && <p className="error-text">Missing: {data.missing_slots.join(', ')}</p>}
            <h2>Preview</h2>
            <pre>{data.preview}</pre>
            <h2>Step results (latest execution)</h2>
            {data.steps.length === 0 ? (
              <p className="state empty">Not run yet.</p>
            ) : (
              <ol className="timeline">
                {data.steps.map((step) => (
                  <li key={step.step_index}>
                    <strong>{step.node_id}</strong> <StatusBadge status={step.status} /> {step.telemetry.model_used} ·{' '}
                    {formatTokens(step.telemetry.input_tokens + step.telemetry.output_tokens)} ·{' '}
                    {formatUsd(step.telemetry.cost_usd)} · {formatMs(step.telemetry.latency_ms)}
                    {step.run_id && (
                      <>
                        {' '}
                        · <Link href={`/runs/${step.run_id}`}>run</Link>
                      </>
                    )}
                    <pre>{step.error ? `${step.error.code}: ${step.error.message}` : step.output_preview}</pre>
                  </li>
                ))}
              </ol>
            )}
            <h2>Executions</h2>
            {data.runs.length === 0 ? (
              <p className="state empty">No executions yet.</p>
            ) : (
              <ul>
                {data.runs.map((run) => (
                  <li key={run.execution_id}>
                    #{run.attempt} {run.trigger} <StatusBadge status={run.status} /> <Time iso={run.started_at} /> ·{' '}
                    {formatUsd(run.cost_usd)}
                    {run.duration_ms !== null && <> · {formatMs(run.duration_ms)}</>}
                    {run.error && <span className="error-text"> · {run.error.message}</span>}
                  </li>
                ))}
              </ul>
            )}
            <h2>Healing</h2>
            {data.healing.length === 0 ? (
              <p className="state empty">No recommendations.</p>
            ) : (
              <ul>
                {data.healing.map((item) => (
                  <li key={item.id}>
                    <StatusBadge status={item.severity} /> <strong>{item.action}</strong>: {item.detail}{' '}
                    {item.apply && (
                      <button type="button" onClick={() => heal.mutate(item.id)} disabled={heal.isPending}>
                        Apply {item.apply.action}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </QueryView>
    </>
  );
}
