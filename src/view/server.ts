import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AssayError } from '../errors.js';
import { SAMPLE_PAGE_MAX, type SampleQuery } from './api.js';
import { resolveInside } from './safe-path.js';
import { ViewerStore } from './store.js';

export const DEFAULT_VIEW_HOST = '127.0.0.1';

/** dist/viewer, where `npm run build:viewer` puts the app; the same from src/ (tests) and dist/. */
export const viewerAppDirectory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../dist/viewer',
);

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

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...SECURITY_HEADERS,
  });
  response.end(text);
}

function sendNotFound(response: ServerResponse): void {
  sendJson(response, 404, { error: 'not found' });
}

async function sendFile(response: ServerResponse, file: string, contentType?: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return sendNotFound(response);
  response.writeHead(200, {
    'Content-Type': contentType ?? CONTENT_TYPES[path.extname(file)] ?? 'text/plain; charset=utf-8',
    'Content-Length': info.size,
    ...SECURITY_HEADERS,
  });
  createReadStream(file).pipe(response);
}

/** Loopback servers answer only to loopback host names, so a DNS-rebinding page can't read them. */
function hostAllowed(request: IncomingMessage, boundHost: string): boolean {
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'];
  if (!loopback.includes(boundHost)) return true;
  const header = request.headers.host ?? '';
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0];
  return loopback.includes(name);
}

function decodedSegments(pathname: string): string[] | null {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

async function handleApi(
  store: ViewerStore,
  segments: string[],
  url: URL,
  response: ServerResponse,
): Promise<void> {
  // segments[0] === 'api'
  if (segments[1] === 'runs' && segments.length === 2) return sendJson(response, 200, await store.runs());
  if (segments[1] === 'runs' && segments.length === 3)
    return sendJson(response, 200, await store.detail(segments[2]));
  if (segments[1] === 'runs' && segments[3] === 'samples' && segments.length === 5) {
    const parsed = sampleQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success)
      return sendJson(response, 400, {
        error: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      });
    return sendJson(response, 200, await store.samples(segments[2], segments[4], parsed.data as SampleQuery));
  }
  if (segments[1] === 'stars' && segments.length === 2) return sendJson(response, 200, await store.stars());
  if (segments[1] === 'compare' && segments.length === 2) {
    const ids = (url.searchParams.get('runs') ?? '').split(',').filter(Boolean);
    return sendJson(response, 200, await store.compare(ids));
  }
  sendNotFound(response);
}

/** GET /files/<root index>/<path>: a file under one of the viewed directories, nothing else. */
async function handleFiles(store: ViewerStore, segments: string[], response: ServerResponse): Promise<void> {
  const rootIndex = Number(segments[1]);
  const root = Number.isInteger(rootIndex) ? store.roots[rootIndex] : undefined;
  if (!root) return sendNotFound(response);
  const file = await resolveInside(root, segments.slice(2).join('/'));
  if (!file) return sendNotFound(response);
  // Results and logs are data: served as plain text so a browser never renders them as a page.
  return sendFile(
    response,
    file,
    file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
  );
}

async function handleApp(appDirectory: string, segments: string[], response: ServerResponse): Promise<void> {
  const relative = segments.join('/');
  const file = relative ? await resolveInside(appDirectory, relative) : null;
  if (file) {
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) return sendFile(response, file);
  }
  // The app routes in the URL hash, so every other path is the app's page.
  const index = await resolveInside(appDirectory, 'index.html');
  if (!index) {
    response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
    response.end(
      'assay view: the web app is not built (run `npm run build:viewer`); the API under /api/ still works\n',
    );
    return;
  }
  return sendFile(response, index);
}

export async function startViewerServer(options: ViewerServerOptions): Promise<ViewerServer> {
  const host = options.host ?? DEFAULT_VIEW_HOST;
  const store = new ViewerStore(options.roots.map((root) => path.resolve(root)));
  const appDirectory = options.appDirectory ?? viewerAppDirectory;
  await store.refresh(true);
  const server = createServer((request, response) => {
    const handle = async () => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return sendJson(response, 405, { error: 'method not allowed' });
      }
      if (!hostAllowed(request, host)) return sendJson(response, 403, { error: 'host not allowed' });
      const url = new URL(request.url ?? '/', 'http://viewer.invalid');
      const segments = decodedSegments(url.pathname);
      if (!segments) return sendJson(response, 400, { error: 'bad path' });
      if (segments[0] === 'api') return handleApi(store, segments, url, response);
      if (segments[0] === 'files') return handleFiles(store, segments, response);
      return handleApp(appDirectory, segments, response);
    };
    handle().catch((error: unknown) => {
      const status = error instanceof AssayError ? 400 : 500;
      if (!response.headersSent) sendJson(response, status, { error: (error as Error).message });
      else response.destroy();
    });
  });
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
