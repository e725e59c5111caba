import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VIEW_API_VERSION } from './api.js';
import { viewerApp } from './server.js';
import { ViewerStore } from './store.js';

/**
 * The viewer's routes in process, through Hono's `app.request()`: methods, the loopback host check, path
 * decoding and safety, content types and the security headers on every answer. Over a real socket (raw
 * paths a fetch would normalise) in server.test.ts; the app in a browser in test/viewer.browser.test.ts.
 */
let served: string;
let appDirectory: string;
let app: ReturnType<typeof viewerApp>;
const LOCAL = { host: '127.0.0.1:7777' };

beforeAll(async () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'assay-view-routes-'));
  served = path.join(base, 'served');
  appDirectory = path.join(base, 'app');
  mkdirSync(path.join(served, 'run'), { recursive: true });
  mkdirSync(path.join(appDirectory, 'assets'), { recursive: true });
  writeFileSync(path.join(base, 'secret.txt'), 'TOP SECRET');
  writeFileSync(path.join(served, 'run', 'leaderboard.json'), '{"ok":true}');
  writeFileSync(path.join(served, 'run', 'notes.html'), '<script>alert(1)</script>');
  writeFileSync(path.join(appDirectory, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(appDirectory, 'assets', 'main.js'), 'console.log(1)');
  symlinkSync(path.join(base, 'secret.txt'), path.join(served, 'link-out.txt'));
  const store = new ViewerStore([served]);
  await store.refresh(true);
  app = viewerApp({ store, host: '127.0.0.1', appDirectory });
});

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('viewer routes (in process)', () => {
  it('answers the API in JSON, never cached, with the security headers', async () => {
    const response = await app.request('/api/runs', { headers: LOCAL });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders(response);
    expect(await response.json()).toEqual({ version: VIEW_API_VERSION, runs: [], problems: [] });
    // Empty segments and a trailing slash change nothing.
    expect((await app.request('//api//runs/', { headers: LOCAL })).status).toBe(200);
  });

  it('serves GET and HEAD only', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await app.request('/api/runs', { method, headers: LOCAL });
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ error: 'method not allowed' });
    }
    const head = await app.request('/api/runs', { method: 'HEAD', headers: LOCAL });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers only to loopback host names when bound to loopback', async () => {
    for (const host of ['evil.example', 'evil.example:7777', '127.0.0.1.evil.example', '']) {
      const response = await app.request('/api/runs', { headers: { host } });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'host not allowed' });
    }
    for (const host of ['localhost', 'localhost:1', '127.0.0.1', '[::1]:7777']) {
      expect((await app.request('/api/runs', { headers: { host } })).status).toBe(200);
    }
    // Bound to another address (the user chose to expose it), any host name is answered.
    const open = viewerApp({ store: new ViewerStore([served]), host: '0.0.0.0', appDirectory });
    expect((await open.request('/api/runs', { headers: { host: 'viewer.lan' } })).status).toBe(200);
  });

  it('names unknown API paths 404, unknown runs and bad queries 400, a malformed path 400', async () => {
    const unknown = await app.request('/api/nothing', { headers: LOCAL });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not found' });
    expect((await app.request('/api', { headers: LOCAL })).status).toBe(404);
    const noRun = await app.request('/api/runs/nope', { headers: LOCAL });
    expect(noRun.status).toBe(400);
    expect(await noRun.json()).toEqual({ error: 'no run with id nope' });
    const limit = await app.request('/api/runs/nope/samples/t?limit=100000', { headers: LOCAL });
    expect(limit.status).toBe(400);
    expect(((await limit.json()) as { error: string }).error).toMatch(/^limit: /);
    const badPath = await app.request('/files/0/%E0%A4%A', { headers: LOCAL });
    expect(badPath.status).toBe(400);
    expect(await badPath.json()).toEqual({ error: 'bad path' });
  });

  it('serves viewed files as data: JSON as JSON, anything else as plain text, with their length', async () => {
    const json = await app.request('/files/0/run/leaderboard.json', { headers: LOCAL });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-length')).toBe('11');
    expectSecurityHeaders(json);
    expect(await json.text()).toBe('{"ok":true}');
    const html = await app.request('/files/0/run/notes.html', { headers: LOCAL });
    expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await html.text()).toBe('<script>alert(1)</script>');
  });

  it.each([
    '/files/0/..%2Fsecret.txt',
    '/files/0/%2e%2e%2fsecret.txt',
    '/files/0/%2Fetc%2Fpasswd',
    '/files/0/link-out.txt',
    '/files/0/run%00/leaderboard.json',
    '/files/1/secret.txt',
    '/files/x/secret.txt',
    '/files',
  ])('refuses %s with 404', async (url) => {
    const response = await app.request(url, { headers: LOCAL });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('TOP SECRET');
  });

  it('serves the app’s files by their type, and its page for every other path', async () => {
    const script = await app.request('/assets/main.js', { headers: LOCAL });
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
    for (const url of ['/', '/runs/abc', '/..%2Fsecret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt']) {
      const page = await app.request(url, { headers: LOCAL });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toBe('<!doctype html><title>app</title>');
    }
  });

  it('says the app is not built, with 500, when its folder has no page; the API still answers', async () => {
    const bare = viewerApp({
      store: new ViewerStore([served]),
      host: '127.0.0.1',
      appDirectory: path.join(served, 'no-app'),
    });
    const page = await bare.request('/', { headers: LOCAL });
    expect(page.status).toBe(500);
    expect(page.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await page.text()).toMatch(/^assay view: the web app is not built/);
    expect((await bare.request('/api/runs', { headers: LOCAL })).status).toBe(200);
  });
});
