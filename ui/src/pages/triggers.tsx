import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api, ApiError, triggerQueries, type DeliveryStatus } from '../api';
import { formatCount, formatDuration, StatusBadge, Time } from '../format';
import { QueryView } from '../states';

// A record, so that a status the API adds is a compile error here until it is listed.
const STATUSES = Object.keys({ pending: 0, running: 0, done: 0, dead: 0, ignored: 0 } satisfies Record<
  DeliveryStatus,
  0
>) as DeliveryStatus[];

export function TriggersPage() {
  const client = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const triggers = useQuery({ ...triggerQueries.list(), refetchInterval: 3000 });
  const deliveries = useQuery({ ...triggerQueries.deliveryList(status), refetchInterval: 3000 });
  const replay = useMutation({
    mutationFn: (id: string) =>
      api(`/api/v1/admin/triggers/deliveries/${encodeURIComponent(id)}/replay`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: triggerQueries.deliveries() }),
  });
  return (
    <>
      <h1>Triggers</h1>
      <QueryView query={triggers} what="triggers" empty="No webhooks, pollers or listeners are configured.">
        {(data) => (
          <div className="table-wrap">
            <table aria-label="Triggers">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">State</th>
                  <th scope="col" className="num">
                    Pending
                  </th>
                  <th scope="col" className="num">
                    Running
                  </th>
                  <th scope="col" className="num">
                    Done
                  </th>
                  <th scope="col" className="num">
                    Dead
                  </th>
                  <th scope="col">Oldest pending</th>
                  <th scope="col">Last event</th>
                </tr>
              </thead>
              <tbody>
                {data.map((trigger) => (
                  <tr key={`${trigger.kind}:${trigger.name}`}>
                    <td>{trigger.name}</td>
                    <td>
                      {trigger.kind} ({trigger.source})
                    </td>
                    <td>
                      <StatusBadge status={trigger.state} />
                      {trigger.last_error && <div className="error-text">{trigger.last_error}</div>}
                    </td>
                    <td className="num">{formatCount(trigger.inbox.pending, 'items')}</td>
                    <td className="num">{formatCount(trigger.inbox.running, 'items')}</td>
                    <td className="num">{formatCount(trigger.inbox.done, 'items')}</td>
                    <td className="num">{formatCount(trigger.inbox.dead, 'items')}</td>
                    <td>{formatDuration(trigger.inbox.oldest_pending_age_seconds)}</td>
                    <td>
                      <Time iso={trigger.last_event_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      <h2>Recent deliveries</h2>
      <div className="filters">
        <label>
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value as DeliveryStatus | '')}>
            <option value="">Any status</option>
            {STATUSES.map((item) => (
              <option key={item}>{item}</option>
            ))}
          </select>
        </label>
      </div>
      {replay.isError && (
        <p role="alert" className="error-text">
          {replay.error instanceof ApiError ? replay.error.message : String(replay.error)}
        </p>
      )}
      <QueryView query={deliveries} what="deliveries" empty="No deliveries.">
        {(data) => (
          <div className="table-wrap">
            <table aria-label="Deliveries">
              <thead>
                <tr>
                  <th scope="col">Delivery</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Attempts
                  </th>
                  <th scope="col">Received</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td className="mono">{delivery.id}</td>
                    <td>
                      {delivery.trigger} ({delivery.kind})
                    </td>
                    <td>{delivery.event}</td>
                    <td>
                      <StatusBadge status={delivery.status} />
                      {delivery.last_error && <div className="error-text">{delivery.last_error}</div>}
                    </td>
                    <td className="num">{formatCount(delivery.attempts, 'attempts')}</td>
                    <td>
                      <Time iso={delivery.received_at} />
                    </td>
                    <td className="run-links">
                      {delivery.run_ids.map((id) => (
                        <Link key={id} href={`/runs/${id}`} className="mono">
                          {id}
                        </Link>
                      ))}
                    </td>
                    <td>
                      {delivery.status === 'dead' && (
                        <button
                          type="button"
                          onClick={() => replay.mutate(delivery.id)}
                          aria-label={`Replay ${delivery.id}`}
                        >
                          Replay
                        </button>
                      )}
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
