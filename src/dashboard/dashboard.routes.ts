import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { UnavailableError } from '../errors.js';
import { sessionRoutes, type SessionRoutesOptions } from './session.routes.js';

/** Where `vite build` writes the dashboard: dist/ui, the same relative path from src/dashboard and dist/dashboard. */
export const UI_BUILD_DIR = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

export interface DashboardRoutesOptions extends SessionRoutesOptions {
  /** The built dashboard; UI_BUILD_DIR by default. */
  root?: string;
}

/**
 * What the dashboard's pages may do: scripts, styles and requests of this origin only (the page's own inline
 * style attributes aside), never framed by another site (clickjacking), no plugins, no <base> rewrite.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent with the pages and assets of /ui (issue #41): the policy, anti-framing for older browsers, no sniffing. */
const DASHBOARD_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The operator dashboard at /ui: static files (public, they hold no data) and the session routes that set the
 * cookie its API calls carry. Fingerprinted assets are cached for a year; the HTML is revalidated every time.
 */
export const dashboardRoutes: FastifyPluginAsync<DashboardRoutesOptions> = async (app, options) => {
  const root = options.root ?? UI_BUILD_DIR;
  await app.register(sessionRoutes, options);
  await app.register(async (ui) => {
    ui.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'public' };
    });
    ui.addHook('onRequest', async (_request, reply) => {
      void reply.headers(DASHBOARD_HEADERS);
    });
    await ui.register(fastifyStatic, {
      root: join(root, 'assets'),
      prefix: '/ui/assets/',
      maxAge: '365d',
      immutable: true,
      preCompressed: true,
      index: false,
    });
    let html: string | undefined;
    const page = async () => {
      try {
        html ??= await readFile(join(root, 'index.html'), 'utf8');
        return html;
      } catch {
        throw new UnavailableError('The dashboard is not built: run `npm run build:ui`', 'ui_not_built');
      }
    };
    // Every other path under /ui is a page of the single-page app: the same HTML, routed in the browser.
    const sendPage = async (_request: unknown, reply: FastifyReply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await page());
    ui.get('/ui', { schema: { hide: true } }, sendPage);
    ui.get('/ui/', { schema: { hide: true } }, sendPage);
    ui.get('/ui/*', { schema: { hide: true } }, sendPage);
  });
};
