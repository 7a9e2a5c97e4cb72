import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { agentQueries, ApiError, readSse, type BodyOf } from '../api';
import { formatCount, StatusBadge } from '../format';
import { QueryView } from '../states';

export function AgentDetailPage({ name }: { name: string }) {
  const agent = useQuery(agentQueries.detail(name));
  return (
    <>
      <p>
        <Link href="/agents">← Agents</Link>
      </p>
      <h1>Agent {name}</h1>
      <QueryView query={agent} what="the agent">
        {(data) => (
          <div className="grid-2">
            <section aria-label="Definition">
              <p>
                <StatusBadge status={data.status} /> {formatCount(data.total_runs, 'runs')} ·{' '}
                <span className="mono">{data.model}</span>
              </p>
              {data.description && <p>{data.description}</p>}
              <h2>System prompt</h2>
              <pre>{data.system_prompt || '(none)'}</pre>
              <h2>Tools</h2>
              {data.tools.length ? (
                <ul>
                  {data.tools.map((tool) => (
                    <li key={tool} className="mono">
                      {tool}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="state empty">No tools.</p>
              )}
              <h2>Config</h2>
              <pre>{JSON.stringify(data.config, null, 2)}</pre>
            </section>
            <Playground agent={data.name} />
          </div>
        )}
      </QueryView>
    </>
  );
}

interface Turn {
  role: 'you' | 'agent' | 'tool';
  text: string;
}

/** Chats with the agent through AG-UI (POST /agui/runs, streamed as SSE); tool calls show as they happen. */
function Playground({ agent }: { agent: string }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const session = useRef<string | undefined>(undefined);
  const append = (turn: Turn) => setTurns((previous) => [...previous, turn]);
  const extendLast = (delta: string) =>
    setTurns((previous) => {
      const last = previous[previous.length - 1];
      if (last?.role === 'agent') return [...previous.slice(0, -1), { ...last, text: last.text + delta }];
      return [...previous, { role: 'agent', text: delta }];
    });
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) return;
    setMessage('');
    setError(undefined);
    setBusy(true);
    append({ role: 'you', text });
    try {
      const response = await fetch('/agui/runs?format=simple', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          agent_name: agent,
          message: text,
          session_id: session.current,
        } satisfies BodyOf<'/agui/runs', 'post'>),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
        throw new ApiError(response.status, 'http_error', body.error?.message ?? response.statusText);
      }
      session.current = response.headers.get('x-session-id') ?? session.current;
      await readSse(response, ({ event, data }) => {
        if (event === 'text_delta') extendLast(typeof data.delta === 'string' ? data.delta : '');
        else if (event === 'tool_call')
          append({ role: 'tool', text: `→ ${String(data.name)}(${JSON.stringify(data.arguments)})` });
        else if (event === 'tool_result')
          append({ role: 'tool', text: `← ${String(data.name)}: ${JSON.stringify(data.result)}` });
        else if (event === 'run_error') setError(JSON.stringify(data.error));
      });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-label="Playground">
      <h2>Playground</h2>
      <div className="chat" aria-live="polite" data-testid="chat">
        {turns.length === 0 && <p className="state">Say something to {agent}.</p>}
        {turns.map((turn, index) => (
          <p key={index} className={`turn turn-${turn.role}`}>
            <span className="who">{turn.role}</span>
            {turn.text}
          </p>
        ))}
      </div>
      <form className="form-row" onSubmit={(event) => void send(event)}>
        <label style={{ flex: 1 }}>
          Message
          <textarea rows={2} value={message} onChange={(event) => setMessage(event.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Streaming…' : 'Send'}
        </button>
      </form>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </section>
  );
}
