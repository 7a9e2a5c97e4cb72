import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Route, Switch, useLocation } from 'wouter';
import { api, ApiError, sessionQuery, type Session } from './api';
import { AgentDetailPage } from './pages/agent-detail';
import { AgentsPage } from './pages/agents';
import { AnalyticsPage } from './pages/analytics';
import { AutopilotPage } from './pages/autopilot';
import { BudgetsPage } from './pages/budgets';
import { LoginPage } from './pages/login';
import { MissionDetailPage } from './pages/mission-detail';
import { OverviewPage } from './pages/overview';
import { RunDetailPage } from './pages/run-detail';
import { RunsPage } from './pages/runs';
import { TokensPage } from './pages/tokens';
import { TriggersPage } from './pages/triggers';
import { ErrorState, Loading } from './states';

const PAGES = [
  ['/', 'Overview'],
  ['/runs', 'Runs'],
  ['/agents', 'Agents'],
  ['/analytics', 'Analytics'],
  ['/tokens', 'Tokens'],
  ['/triggers', 'Triggers'],
  ['/autopilot', 'Autopilot'],
  ['/budgets', 'Budgets'],
] as const;

export function App() {
  const session = useQuery({ ...sessionQuery, retry: false });
  if (session.isPending) return <Loading what="session" />;
  if (session.isError) {
    if (session.error instanceof ApiError && session.error.status === 401) return <LoginPage />;
    return <ErrorState error={session.error} />;
  }
  return <Shell session={session.data} />;
}

function Shell({ session }: { session: Session }) {
  const [location] = useLocation();
  const client = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => api('/api/v1/ui/session', { method: 'DELETE' }),
    onSuccess: () => client.resetQueries(),
  });
  const current = (path: string) => (path === '/' ? location === '/' : location.startsWith(path));
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <p className="brand">Agent Gateway</p>
        <div className="actions">
          <span className="mono" title={`signed in with ${session.method}`}>
            {session.subject}
          </span>
          <button type="button" className="secondary" onClick={() => signOut.mutate()}>
            Sign out
          </button>
        </div>
      </header>
      <nav className="side" aria-label="Pages">
        <ul>
          {PAGES.map(([path, label]) => (
            <li key={path}>
              <Link href={path} aria-current={current(path) ? 'page' : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Switch>
          <Route path="/" component={OverviewPage} />
          <Route path="/login" component={OverviewPage} />
          <Route path="/runs" component={RunsPage} />
          <Route path="/runs/:id">{(params) => <RunDetailPage key={params.id} runId={params.id} />}</Route>
          <Route path="/agents" component={AgentsPage} />
          <Route path="/agents/:name">{(params) => <AgentDetailPage key={params.name} name={params.name} />}</Route>
          <Route path="/analytics" component={AnalyticsPage} />
          <Route path="/tokens" component={TokensPage} />
          <Route path="/triggers" component={TriggersPage} />
          <Route path="/autopilot" component={AutopilotPage} />
          <Route path="/autopilot/missions/:id">
            {(params) => <MissionDetailPage key={params.id} missionId={params.id} />}
          </Route>
          <Route path="/budgets" component={BudgetsPage} />
          <Route>
            <h1>Not found</h1>
            <p>
              No page here. <Link href="/">Go to the overview</Link>.
            </p>
          </Route>
        </Switch>
      </main>
    </div>
  );
}
