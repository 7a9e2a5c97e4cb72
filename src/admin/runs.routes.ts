import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminService } from './admin.service.js';
import { createReplySseWriter, DEFAULT_STALLED_TIMEOUT_MS, type SseWriter } from '../http/index.js';
import {
  listRunsQuery,
  runChangeEvent,
  runControlResult,
  runDetail,
  runIdParams,
  runItem,
  runSeries,
  runSeriesQuery,
} from './runs.schema.js';

/** A comment this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

const COMMANDS = {
  pause: 'Pause a running run at its next checkpoint; its events are held until resume',
  resume: 'Resume a paused run from its checkpoint',
  cancel: 'Cancel a running or paused run at once',
} as const;

/** GET /runs, /runs/events (SSE), /runs/timeseries, /runs/{run_id} and POST /runs/{run_id}/pause|resume|cancel (spec 4.3). */
export const adminRunsRoutes: FastifyPluginAsync<{ admin: AdminService; stalledTimeoutMs?: number }> = async (
  app,
  { admin, stalledTimeoutMs = DEFAULT_STALLED_TIMEOUT_MS },
) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  // A runs stream never ends by itself: on shutdown it is ended, or closing the server would wait for its clients.
  const open = new Map<SseWriter, () => void>();
  app.addHook('preClose', (done) => {
    for (const [sse, finish] of open) {
      sse.end();
      finish();
    }
    done();
  });

  routes.get(
    '/runs',
    {
      schema: {
        tags,
        summary: 'List runs, newest first',
        querystring: listRunsQuery,
        response: { 200: z.array(runItem) },
      },
    },
    (request) => admin.listRuns(request.query),
  );

  routes.get(
    '/runs/events',
    {
      schema: {
        tags,
        summary:
          'Stream of run changes (SSE) on every replica: `event: ready`, then `run-created` / `run-status-changed` with the run as in GET /runs',
        description:
          'Server-sent events. First `event: ready` once the stream follows the runs (a list read after it misses ' +
          'nothing); then `event: run-created` and `event: run-status-changed`, each with `data:` the run as in ' +
          'GET /runs. Changes are read from the shared store about once a second; `: ping` comments keep it open.',
        produces: ['text/event-stream'],
        response: { 200: runChangeEvent },
      },
    },
    async (_request, reply) => {
      const sse = createReplySseWriter(reply, { heartbeatMs: HEARTBEAT_MS, stalledTimeoutMs });
      // The response is the stream's now: it lasts until the client goes away, its credential lapses (the writer
      // sends `event: error` naming jwt_expired, token_revoked, ...) or the server shuts down.
      const finished = new Promise<void>((resolve) => {
        open.set(sse, resolve);
        sse.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      const stop = await admin.watchRuns((change) => {
        void sse.write(`event: ${change.type}\ndata: ${JSON.stringify(change.run)}\n\n`);
      });
      await sse.write('event: ready\ndata: {}\n\n');
      await finished;
      open.delete(sse);
      stop();
    },
  );

  routes.get(
    '/runs/timeseries',
    {
      schema: {
        tags,
        summary: 'Runs, failed runs and cost per hour (or day) over a window: the last 24 hours by default',
        querystring: runSeriesQuery,
        response: { 200: runSeries },
      },
    },
    (request) => admin.runSeries(request.query),
  );

  routes.get(
    '/runs/:run_id',
    {
      schema: {
        tags,
        summary: 'Show one run with every step and its prompt log',
        params: runIdParams,
        response: { 200: runDetail },
      },
    },
    (request) => admin.getRun(request.params.run_id),
  );

  for (const [command, summary] of Object.entries(COMMANDS) as [keyof typeof COMMANDS, string][]) {
    routes.post(
      `/runs/:run_id/${command}`,
      {
        schema: {
          tags,
          summary,
          description:
            '404 for an unknown run; 409 (with the current status) when the run is not in a state that allows it',
          params: runIdParams,
          response: { 200: runControlResult },
        },
      },
      (request) => admin.control(request.params.run_id, command),
    );
  }
};
