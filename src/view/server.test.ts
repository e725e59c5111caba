import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInside } from './safe-path.js';
import { startViewerServer, type ViewerServer } from './server.js';

/** A raw GET, so paths like /files/0/../x reach the server unnormalised (fetch would resolve the dots). */
function get(
  url: string,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: rawPath, method: 'GET', headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('viewer server security', () => {
  let base: string;
  let served: string;
  let app: string;
  let server: ViewerServer;

  beforeAll(async () => {
    base = mkdtempSync(path.join(os.tmpdir(), 'assay-view-security-'));
    served = path.join(base, 'served');
    app = path.join(base, 'app');
    mkdirSync(path.join(served, 'run'), { recursive: true });
    mkdirSync(app);
    writeFileSync(path.join(base, 'secret.txt'), 'TOP SECRET');
    writeFileSync(path.join(served, 'run', 'leaderboard.json'), '{"ok":true}');
    writeFileSync(path.join(app, 'index.html'), '<!doctype html><title>app</title>');
    symlinkSync(path.join(base, 'secret.txt'), path.join(served, 'link-out.txt'));
    symlinkSync(base, path.join(served, 'dir-out'));
    server = await startViewerServer({ roots: [served], appDirectory: app, port: 0 });
  });

  afterAll(async () => {
    await server.close();
  });

  it('binds 127.0.0.1 by default', () => {
    const address = server.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves files under the viewed directory', async () => {
    const response = await get(server.url, '/files/0/run/leaderboard.json');
    expect(response).toEqual({ status: 200, body: '{"ok":true}' });
  });

  it.each([
    '/files/0/../secret.txt',
    '/files/0/..%2Fsecret.txt',
    '/files/0/%2e%2e/secret.txt',
    '/files/0/%2e%2e%2fsecret.txt',
    '/files/0/run/../../secret.txt',
    '/files/0/..%5Csecret.txt',
    '/files/0/%2Fetc%2Fpasswd',
    '/files/0//etc/passwd',
    '/files/0/link-out.txt',
    '/files/0/dir-out/secret.txt',
    '/files/0/run%00/leaderboard.json',
    '/files/1/secret.txt',
    '/files/-1/secret.txt',
    '/files/0/%E0%A4%A',
  ])('refuses %s', async (rawPath) => {
    const response = await get(server.url, rawPath);
    expect([400, 404]).toContain(response.status);
    expect(response.body).not.toContain('TOP SECRET');
  });

  it.each(['/../secret.txt', '/%2e%2e/secret.txt', '/..%2Fsecret.txt', '/assets/../../secret.txt'])(
    'app paths stay in the app directory: %s',
    async (rawPath) => {
      const response = await get(server.url, rawPath);
      expect(response.body).not.toContain('TOP SECRET');
      // Unknown app paths fall back to the app's page.
      expect(response.body).toContain('<title>app</title>');
    },
  );

  it('answers only to loopback host names (DNS rebinding)', async () => {
    expect((await get(server.url, '/api/runs', { Host: 'evil.example:80' })).status).toBe(403);
    expect(
      (await get(server.url, '/api/runs', { Host: `localhost:${new URL(server.url).port}` })).status,
    ).toBe(200);
  });

  it('sends a content security policy that forbids inline script', async () => {
    const response = await fetch(server.url);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('rejects bad sample queries and unknown runs with a message', async () => {
    expect((await get(server.url, '/api/runs/nope')).status).toBe(400);
    expect((await get(server.url, '/api/runs/nope/samples/t?limit=100000')).status).toBe(400);
    expect((await get(server.url, '/api/compare?runs=a')).status).toBe(400);
  });

  it('resolveInside refuses escapes and accepts the root itself', async () => {
    expect(await resolveInside(served, '')).toBe(await resolveInside(served, '.'));
    expect(await resolveInside(served, '../secret.txt')).toBeNull();
    expect(await resolveInside(served, '/etc/passwd')).toBeNull();
    expect(await resolveInside(served, 'link-out.txt')).toBeNull();
    expect(await resolveInside(served, 'run/leaderboard.json')).toMatch(/served\/run\/leaderboard\.json$/);
  });
});
