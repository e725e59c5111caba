import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { AssayError } from '../errors.js';
import { packagePath } from '../util/package-root.js';
import { SAMPLE_PAGE_MAX, type SampleQuery } from './api.js';
import { resolveInside } from './safe-path.js';
import { ViewerStore } from './store.js';

export const DEFAULT_VIEW_HOST = '127.0.0.1';

/** dist/viewer, where `npm run build:viewer` puts the app; the same from src/ (tests) and dist/. */
export const viewerAppDirectory = packagePath('dist', 'viewer');

export interface ViewerServerOptions {
  roots: string[];
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  appDirectory?: string;
}

export interface ViewerServer {
  url: string;
  store: ViewerStore;
  server: Server;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

// Defence in depth behind rendering model output as text: no inline or foreign script can run.
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const sampleQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(SAMPLE_PAGE_MAX).default(50),
  correct: z.enum(['all', 'correct', 'incorrect']).optional(),
  metric: z.string().optional(),
  min: z.coerce.number().optional(),
  max: z.coerce.number().optional(),
  text: z.string().max(1000).optional(),
  filter: z.string().optional(),
  doc: z.coerce.number().int().optional(),
});

function sendJson(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...SECURITY_HEADERS,
    },
  });
}

function notFound(): Response {
  return sendJson(404, { error: 'not found' });
}

async function sendFile(file: string, contentType?: string): Promise<Response> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return notFound();
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': contentType ?? CONTENT_TYPES[path.extname(file)] ?? 'text/plain; charset=utf-8',
      'Content-Length': String(info.size),
      ...SECURITY_HEADERS,
    },
  });
}

/** Loopback servers answer only to loopback host names, so a DNS-rebinding page can't read them. */
function hostAllowed(hostHeader: string, boundHost: string): boolean {
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'];
  if (!loopback.includes(boundHost)) return true;
  const name = hostHeader.startsWith('[')
    ? hostHeader.slice(0, hostHeader.indexOf(']') + 1)
    : hostHeader.split(':')[0];
  return loopback.includes(name);
}

/** The path's segments, each decoded on its own (so an encoded `/` stays inside its segment); null if malformed. */
function decodedSegments(pathname: string): string[] | null {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** GET /files/<root index>/<path>: a file under one of the viewed directories, nothing else. */
async function serveFiles(store: ViewerStore, segments: string[]): Promise<Response> {
  const rootIndex = Number(segments[1]);
  const root = Number.isInteger(rootIndex) ? store.roots[rootIndex] : undefined;
  if (!root) return notFound();
  const file = await resolveInside(root, segments.slice(2).join('/'));
  if (!file) return notFound();
  // Results and logs are data: served as plain text so a browser never renders them as a page.
  return sendFile(
    file,
    file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
  );
}

async function serveApp(appDirectory: string, segments: string[]): Promise<Response> {
  const relative = segments.join('/');
  const file = relative ? await resolveInside(appDirectory, relative) : null;
  if (file) {
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) return sendFile(file);
  }
  // The app routes in the URL hash, so every other path is the app's page.
  const index = await resolveInside(appDirectory, 'index.html');
  if (!index) {
    return new Response(
      'assay view: the web app is not built (run `npm run build:viewer`); the API under /api/ still works\n',
      { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS } },
    );
  }
  return sendFile(index);
}

type ViewerEnv = { Variables: { segments: string[] } };

export interface ViewerAppOptions {
  store: ViewerStore;
  /** The host the server is bound to: bound to loopback, it answers only to loopback host names. */
  host: string;
  appDirectory: string;
}

/**
 * The viewer's routes as a Hono app: what `startViewerServer` listens with, and what tests call in process
 * through `app.request()`. GET (and HEAD) only; paths are split into segments, each decoded on its own,
 * before any route sees them, and empty segments dropped; `/api/…` answers JSON, `/files/<root>/<path>`
 * files under a viewed directory, every other path the app.
 */
export function viewerApp({ store, host, appDirectory }: ViewerAppOptions): Hono<ViewerEnv> {
  const app = new Hono<ViewerEnv>({
    // Routes match the decoded segments rejoined, so `//` and a trailing `/` change nothing.
    getPath: (request) => {
      const segments = decodedSegments(new URL(request.url).pathname);
      return segments ? `/${segments.map(encodeURIComponent).join('/')}` : '/';
    },
  });
  app.use(async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD')
      return sendJson(405, { error: 'method not allowed' });
    if (!hostAllowed(c.req.header('host') ?? '', host)) return sendJson(403, { error: 'host not allowed' });
    const segments = decodedSegments(new URL(c.req.url).pathname);
    if (!segments) return sendJson(400, { error: 'bad path' });
    c.set('segments', segments);
    await next();
  });
  const segment = (c: Context<ViewerEnv>, index: number) => c.get('segments')[index];
  app.get('/api/runs', async () => sendJson(200, await store.runs()));
  app.get('/api/runs/:run', async (c) => sendJson(200, await store.detail(segment(c, 2))));
  app.get('/api/runs/:run/samples/:task', async (c) => {
    const parsed = sampleQuerySchema.safeParse(Object.fromEntries(new URL(c.req.url).searchParams));
    if (!parsed.success)
      return sendJson(400, {
        error: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      });
    return sendJson(200, await store.samples(segment(c, 2), segment(c, 4), parsed.data as SampleQuery));
  });
  app.get('/api/stars', async () => sendJson(200, await store.stars()));
  app.get('/api/suites', async () => sendJson(200, await store.suites()));
  app.get('/api/suites/:suite', async (c) => sendJson(200, await store.suite(segment(c, 2))));
  app.get('/api/suites/:suite/head-to-head/:scope/:name', async (c) =>
    sendJson(200, await store.headToHead(segment(c, 2), segment(c, 4), segment(c, 5))),
  );
  app.get('/api/compare', async (c) => {
    const ids = (new URL(c.req.url).searchParams.get('runs') ?? '').split(',').filter(Boolean);
    return sendJson(200, await store.compare(ids));
  });
  app.get('/api/*', () => notFound());
  app.get('/api', () => notFound());
  app.get('/files/*', (c) => serveFiles(store, c.get('segments')));
  app.get('/files', (c) => serveFiles(store, c.get('segments')));
  app.get('*', (c) => serveApp(appDirectory, c.get('segments')));
  app.onError((error) => sendJson(error instanceof AssayError ? 400 : 500, { error: error.message }));
  return app;
}

export async function startViewerServer(options: ViewerServerOptions): Promise<ViewerServer> {
  const host = options.host ?? DEFAULT_VIEW_HOST;
  const store = new ViewerStore(options.roots.map((root) => path.resolve(root)));
  const appDirectory = options.appDirectory ?? viewerAppDirectory;
  await store.refresh(true);
  const app = viewerApp({ store, host, appDirectory });
  // Global Request/Response stay Node's own (the adapter would otherwise replace them process-wide).
  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new AssayError(
              'io_error',
              `port ${options.port} on ${host} is already in use (pick another with \`port\`)`,
              { cause: error },
            )
          : error,
      ),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    store,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
