import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { agentQueries, api, ApiError, tokenQueries, type CreatedToken, type TokenRequest } from '../api';
import { formatCount, formatUsd, StatusBadge, Time } from '../format';
import { QueryView } from '../states';

type Scope = NonNullable<TokenRequest['scopes']>[number];

// The scopes that grant access to an agent's routes (shared_sessions and dream are set through the API).
const SCOPES: Scope[] = ['chat', 'a2a', 'tools', 'mcp'];

export function TokensPage() {
  const client = useQueryClient();
  const tokens = useQuery(tokenQueries.list());
  const agents = useQuery(agentQueries.list());
  const [agent, setAgent] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['chat']);
  const [hours, setHours] = useState(24);
  const [singleUse, setSingleUse] = useState(false);
  const [created, setCreated] = useState<CreatedToken>();
  const [copied, setCopied] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: tokenQueries.all() });
  const create = useMutation({
    mutationFn: () =>
      api<CreatedToken>('/gateway/tokens', {
        method: 'POST',
        body: {
          agent_name: agent || (agents.data?.[0]?.name ?? ''),
          scopes,
          expires_in_seconds: Math.round(hours * 3600),
          single_use: singleUse,
        } satisfies TokenRequest,
      }),
    onSuccess: (token) => {
      setCreated(token);
      setCopied(false);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/gateway/tokens/${encodeURIComponent(id)}/revoke`, { method: 'POST' }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/gateway/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const copy = async () => {
    if (!created) return;
    await navigator.clipboard.writeText(created.token);
    setCopied(true);
  };
  return (
    <>
      <h1>Access tokens</h1>
      <form onSubmit={submit} aria-label="Create a token">
        <div className="form-row">
          <label>
            Agent
            <select value={agent} onChange={(event) => setAgent(event.target.value)} required>
              {(agents.data ?? []).map((item) => (
                <option key={item.name}>{item.name}</option>
              ))}
            </select>
          </label>
          <fieldset className="form-row" style={{ border: 0, margin: 0, padding: 0 }}>
            <legend className="visually-hidden">Scopes</legend>
            {SCOPES.map((scope) => (
              <label key={scope} className="inline">
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(event) =>
                    setScopes(event.target.checked ? [...scopes, scope] : scopes.filter((item) => item !== scope))
                  }
                />
                {scope}
              </label>
            ))}
          </fieldset>
          <label>
            Expires in (hours)
            <input
              type="number"
              min={0.01}
              step="any"
              value={hours}
              onChange={(event) => setHours(Number(event.target.value))}
              required
            />
          </label>
          <label className="inline">
            <input type="checkbox" checked={singleUse} onChange={(event) => setSingleUse(event.target.checked)} />
            Single use
          </label>
          <button type="submit" disabled={create.isPending || scopes.length === 0}>
            Create token
          </button>
        </div>
        {create.isError && (
          <p role="alert" className="error-text">
            {create.error instanceof ApiError ? create.error.message : String(create.error)}
          </p>
        )}
      </form>
      {created && (
        <section className="secret" aria-label="New token">
          <p>
            <strong>Copy this token now: it is shown only once.</strong>
          </p>
          <p>
            <code className="mono" data-testid="token-plaintext">
              {created.token}
            </code>
          </p>
          <div className="actions">
            <button type="button" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" className="secondary" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </section>
      )}
      <h2>Tokens</h2>
      <QueryView query={tokens} what="tokens" empty="No access tokens yet.">
        {(data) => (
          <div className="table-wrap">
            <table aria-label="Tokens">
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Status</th>
                  <th scope="col">Expires</th>
                  <th scope="col" className="num">
                    Uses
                  </th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.map((token) => (
                  <tr key={token.token_id} data-token-id={token.token_id}>
                    <td className="mono">
                      {token.token_id} (…{token.token_suffix})
                    </td>
                    <td>{token.agent_name}</td>
                    <td>
                      {token.scopes.join(', ')}
                      {token.single_use ? ' · single use' : ''}
                      {token.max_cost_usd !== null ? ` · cap ${formatUsd(token.max_cost_usd)}` : ''}
                    </td>
                    <td>
                      <StatusBadge status={token.status} />
                    </td>
                    <td>
                      <Time iso={token.expires_at} />
                    </td>
                    <td className="num">{formatCount(token.use_count, 'uses')}</td>
                    <td>
                      <div className="actions" style={{ margin: 0 }}>
                        <button
                          type="button"
                          className="secondary"
                          disabled={token.status !== 'active'}
                          onClick={() => revoke.mutate(token.token_id)}
                          aria-label={`Revoke ${token.token_id}`}
                        >
                          Revoke
                        </button>
                        <button
                          type="button"
                          className="danger"
                          onClick={() => remove.mutate(token.token_id)}
                          aria-label={`Delete ${token.token_id}`}
                        >
                          Delete
                        </button>
                      </div>
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
