import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_BUILD_DIR } from '../../src/dashboard/index.js';
import { BASE_YAML, startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(BASE_YAML);
});
afterAll(() => app.stop());

describe('the dashboard files', () => {
  it('serves the page at /ui without credentials and never caches it; every client route gets the same page', async () => {
    for (const path of ['/ui', '/ui/', '/ui/runs/run_123', '/ui/autopilot/missions/mis_1']) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="root"></div>');
    }
  });

  it('forbids framing, sniffing and foreign scripts on the page and its assets (issue #41)', async () => {
    const html = await fetch(`${app.url}/ui/runs/run_1`);
    const csp = html.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(html.headers.get('x-frame-options')).toBe('DENY');
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html.headers.get('referrer-policy')).toBe('no-referrer');
    await html.text();
    const script = /src="(\/ui\/assets\/index-[\w-]+\.js)"/.exec(await (await fetch(`${app.url}/ui/`)).text())?.[1];
    const asset = await fetch(`${app.url}${script}`);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    await asset.arrayBuffer();
  });

  it('serves fingerprinted assets immutable for a year, gzipped when asked, without credentials', async () => {
    const html = await (await fetch(`${app.url}/ui/`)).text();
    const script = /src="(\/ui\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const plain = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toContain('javascript');
    await plain.arrayBuffer();
    const { request } = await import('undici');
    const gzipped = await request(`${app.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    // Read to the end: dump() gives up on a body over 128 KiB, and the response it leaves unfinished holds app.stop().
    await gzipped.body.arrayBuffer();
    // A missing asset is a 404 in the error shape, never the page.
    const missing = await fetch(`${app.url}/ui/assets/missing-file.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
  });

  it('keeps the first page within 350 KB gzipped', () => {
    const assets = join(UI_BUILD_DIR, 'assets');
    const gzipped = readdirSync(assets).filter((name) => name.endsWith('.gz'));
    const total = gzipped.reduce((sum, name) => sum + statSync(join(assets, name)).size, 0);
    expect(gzipped.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(350 * 1024);
  });
});
