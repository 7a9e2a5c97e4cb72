import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import {
  api,
  ApiError,
  autopilotQueries,
  type AutopilotTier,
  type BodyOf,
  type MissionDetail,
  type RoutingResult,
} from '../api';
import { StatusBadge, Time } from '../format';
import { QueryView } from '../states';

const TIERS = Object.keys({ anonymous: 0, free: 0, skip: 0 } satisfies Record<AutopilotTier, 0>) as AutopilotTier[];

function errorText(error: unknown): string {
  return error instanceof ApiError ? `${error.code}: ${error.message}` : String(error);
}

export function AutopilotPage() {
  const client = useQueryClient();
  const status = useQuery(autopilotQueries.status());
  const missions = useQuery({ ...autopilotQueries.missionList(), refetchInterval: 3000 });
  const [tier, setTier] = useState<AutopilotTier>();
  const switchTier = useMutation({
    // A tier enables (or switches) the autopilot; null disables it.
    mutationFn: (next: AutopilotTier | null) =>
      next
        ? api('/api/v1/autopilot/enable', {
            method: 'POST',
            body: { tier: next } satisfies BodyOf<'/api/v1/autopilot/enable', 'post'>,
          })
        : api('/api/v1/autopilot/disable', { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: autopilotQueries.status().queryKey }),
  });
  return (
    <>
      <h1>Autopilot</h1>
      <QueryView query={status} what="autopilot status">
        {(data) => (
          <section aria-label="Status">
            <p>
              <StatusBadge status={data.enabled ? 'active' : 'disabled'} /> {data.enabled ? 'Enabled' : 'Disabled'},
              tier <strong>{data.tier}</strong> · hosted service {data.service_url ?? 'none'} ·{' '}
              {data.enrolled ? 'enrolled' : 'not enrolled'}
            </p>
            <div className="form-row">
              <label>
                Tier
                <select value={tier ?? data.tier} onChange={(event) => setTier(event.target.value as AutopilotTier)}>
                  {TIERS.map((item) => (
                    <option key={item}>{item}</option>
                  ))}
                </select>
              </label>
              <button type="button" onClick={() => switchTier.mutate(tier ?? data.tier)}>
                {data.enabled ? 'Switch tier' : 'Enable'}
              </button>
              {data.enabled && (
                <button type="button" className="secondary" onClick={() => switchTier.mutate(null)}>
                  Disable
                </button>
              )}
            </div>
            {switchTier.isError && (
              <p role="alert" className="error-text">
                {errorText(switchTier.error)}
              </p>
            )}
          </section>
        )}
      </QueryView>
      <GoalBox />
      <h2>Missions</h2>
      <QueryView query={missions} what="missions" empty="No missions yet: route a goal above.">
        {(data) => (
          <div className="table-wrap">
            <table aria-label="Missions">
              <thead>
                <tr>
                  <th scope="col">Mission</th>
                  <th scope="col">Blueprint</th>
                  <th scope="col">Status</th>
                  <th scope="col">Schedule</th>
                  <th scope="col">Next run</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {data.map((mission) => (
                  <tr key={mission.mission_id}>
                    <td>
                      <Link href={`/autopilot/missions/${mission.mission_id}`}>{mission.title}</Link>
                    </td>
                    <td className="mono">{mission.blueprint_id}</td>
                    <td>
                      <StatusBadge status={mission.status} />
                    </td>
                    <td className="mono">{mission.schedule ?? '—'}</td>
                    <td>
                      <Time iso={mission.next_run_at} />
                    </td>
                    <td>
                      <Time iso={mission.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </>
  );
}

/** A goal in plain English → the routing result: an auto-routed draft, a picker, or synthesis. */
function GoalBox() {
  const client = useQueryClient();
  const [goal, setGoal] = useState('');
  const goalId = useId();
  const route = useMutation({
    mutationFn: (text: string) =>
      api<RoutingResult>('/api/v1/autopilot/goal', {
        method: 'POST',
        body: { goal: text } satisfies BodyOf<'/api/v1/autopilot/goal', 'post'>,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: autopilotQueries.missions() }),
  });
  const pick = useMutation({
    mutationFn: (n: number) => api<MissionDetail>('/api/v1/autopilot/pick', { method: 'POST', body: { n } }),
    onSuccess: () => client.invalidateQueries({ queryKey: autopilotQueries.missions() }),
  });
  const synthesize = useMutation({
    mutationFn: (text: string) =>
      api<MissionDetail>('/api/v1/autopilot/synthesize', { method: 'POST', body: { goal: text } }),
    onSuccess: () => client.invalidateQueries({ queryKey: autopilotQueries.missions() }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    pick.reset();
    synthesize.reset();
    route.mutate(goal.trim());
  };
  const result = route.data;
  const created = pick.data ?? synthesize.data;
  return (
    <section aria-label="Goal routing">
      <h2>Route a goal</h2>
      <form className="form-row" onSubmit={submit}>
        {/* Labelled by id, not by wrapping: a wrapped textarea's text would become part of its name. */}
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor={goalId}>Goal</label>
          <textarea id={goalId} rows={2} value={goal} onChange={(event) => setGoal(event.target.value)} required />
        </div>
        <button type="submit" disabled={route.isPending}>
          {route.isPending ? 'Routing…' : 'Route'}
        </button>
      </form>
      {route.isError && (
        <p role="alert" className="error-text">
          {errorText(route.error)}
        </p>
      )}
      {result?.kind === 'auto_routed' && (
        <div data-testid="routing-result">
          <p>
            Auto-routed to <strong className="mono">{result.blueprint_id}</strong> (score {result.score.toFixed(2)}):
            draft <Link href={`/autopilot/missions/${result.mission_id}`}>{result.mission_id}</Link>
            {result.missing_slots.length > 0 && <> · missing slots: {result.missing_slots.join(', ')}</>}
          </p>
          <pre>{result.preview}</pre>
        </div>
      )}
      {result?.kind === 'picker_needed' && (
        <div data-testid="routing-result">
          <p>Several blueprints fit: choose one.</p>
          <ol>
            {result.candidates.map((candidate, index) => {
              const blueprint = safeParse(candidate.blueprint_json);
              return (
                <li key={index}>
                  {blueprint.title ?? blueprint.id ?? 'blueprint'} (score {candidate.score.toFixed(2)}){' '}
                  <button type="button" onClick={() => pick.mutate(index + 1)} disabled={pick.isPending}>
                    Choose
                  </button>
                </li>
              );
            })}
          </ol>
        </div>
      )}
      {result?.kind === 'synthesis_needed' && (
        <div data-testid="routing-result">
          <p>No blueprint fits ({result.reason}).</p>
          <button type="button" onClick={() => synthesize.mutate(result.goal)} disabled={synthesize.isPending}>
            {synthesize.isPending ? 'Writing a blueprint…' : 'Synthesize a blueprint'}
          </button>
        </div>
      )}
      {(pick.isError || synthesize.isError) && (
        <p role="alert" className="error-text">
          {errorText(pick.error ?? synthesize.error)}
        </p>
      )}
      {created && (
        <p>
          Draft mission created: <Link href={`/autopilot/missions/${created.mission_id}`}>{created.title}</Link>
        </p>
      )}
    </section>
  );
}

function safeParse(text: string): { id?: string; title?: string } {
  try {
    return JSON.parse(text) as { id?: string; title?: string };
  } catch {
    return {};
  }
}
