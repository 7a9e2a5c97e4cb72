import websocket from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import { agentsRoutes } from './agents.routes.js';
import { DEFAULT_HEARTBEAT_MS, type AguiRoutesOptions } from './agui-routes-options.js';
import { createRunFrameCache } from './run-frame-cache.js';
import { runsRoutes } from './runs.routes.js';
import { wsRoutes } from './ws.routes.js';

/** Frames larger than this are refused by the socket: a chat message never needs more. */
const MAX_FRAME_BYTES = 1024 * 1024;

/** The AG-UI surface (spec 4.2, 6): SSE runs, SSE attach, WebSocket conversations and the standard AG-UI endpoint. */
export const aguiRoutes: FastifyPluginAsync<AguiRoutesOptions> = async (app, options) => {
  // Registered here, so only AG-UI routes take upgrades; it must come before the routes it serves.
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  // The auth hook runs before the websocket plugin marks a request as an upgrade, so a refused upgrade
  // (401/403) would leave its raw socket open after the answer; close it like the plugin does.
  app.addHook('onResponse', async (request) => {
    if (!request.ws && request.headers.upgrade) request.raw.socket.destroy();
  });
  const settings = {
    ...options,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    frames: options.frames ?? createRunFrameCache(),
  };
  await app.register(runsRoutes, settings);
  await app.register(agentsRoutes, settings);
  await app.register(wsRoutes, settings);
};
