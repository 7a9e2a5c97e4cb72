import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, sessionQuery } from '../api';

/** Sign-in: a pasted API key or JWT, or the one-time code of a link printed by `agent-gateway ui`. */
export function LoginPage() {
  const client = useQueryClient();
  const [credential, setCredential] = useState('');
  const code = useRef(new URLSearchParams(window.location.search).get('code'));
  const signIn = useMutation({
    mutationFn: (body: { credential: string } | { code: string }) =>
      api('/api/v1/ui/session', { method: 'POST', body }),
    onSuccess: () => {
      if (code.current) window.history.replaceState(null, '', '/ui/');
      void client.invalidateQueries({ queryKey: sessionQuery.queryKey });
    },
  });
  // `mutate` keeps its identity across renders: the link's code is sent once, when the page opens.
  const { mutate } = signIn;
  useEffect(() => {
    if (code.current) mutate({ code: code.current });
  }, [mutate]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    code.current = null;
    signIn.mutate({ credential: credential.trim() });
  };
  return (
    <main className="login" id="main">
      <h1>Sign in to Agent Gateway</h1>
      <form onSubmit={submit}>
        <label>
          API key or JWT
          <input
            type="password"
            name="credential"
            autoComplete="current-password"
            value={credential}
            onChange={(event) => setCredential(event.target.value)}
            required
          />
        </label>
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        {signIn.isError && (
          <p role="alert" className="error-text">
            {signIn.error instanceof ApiError ? signIn.error.message : String(signIn.error)}
          </p>
        )}
      </form>
      <p className="state">
        Access tokens (sat-…) cannot sign in. On the server, <code className="mono">agent-gateway ui</code> prints a
        one-time sign-in link.
      </p>
    </main>
  );
}
