import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { runQueries, type RunItem } from './api';

export const RUN_EVENTS_PATH = '/api/v1/admin/runs/events';

/**
 * Follows GET /api/v1/admin/runs/events while the component is shown: every run created or changing status (on
 * any replica) refreshes the runs lists and that run's detail. EventSource sends the cookie and reconnects by
 * itself; `ready` (after each connect) refreshes too, so nothing that happened while disconnected is missed.
 */
export function useRunChanges(): { live: boolean } {
  const client = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const source = new EventSource(RUN_EVENTS_PATH);
    source.addEventListener('error', () => setLive(false));
    const refresh = (event: MessageEvent<string>) => {
      void client.invalidateQueries({ queryKey: runQueries.lists() });
      if (event.type === 'ready') return setLive(true);
      const run = JSON.parse(event.data) as RunItem;
      void client.invalidateQueries({ queryKey: runQueries.detail(run.run_id).queryKey });
    };
    for (const type of ['ready', 'run-created', 'run-status-changed']) source.addEventListener(type, refresh);
    return () => source.close();
  }, [client]);
  return { live };
}
