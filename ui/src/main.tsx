import { hashKey, MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { ApiError, sessionQuery } from './api';
import { App } from './app';
import './styles.css';

// A 401 anywhere means the cookie is gone or stale: the session query is refetched, which shows the sign-in form.
const onError = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401)
    void client.invalidateQueries({ queryKey: sessionQuery.queryKey });
};
const client: QueryClient = new QueryClient({
  // The session query's own 401 is the signed-out state, not a reason to ask again.
  queryCache: new QueryCache({
    onError: (error, query) => query.queryHash !== hashKey(sessionQuery.queryKey) && onError(error),
  }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <Router base="/ui">
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
