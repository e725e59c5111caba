/**
 * A loopback server with the Hugging Face Hub's URL layout, for tests and benchmarks. It answers the
 * endpoints assay's Hub client calls, shaped as the Hub answers them (huggingface_hub's hf_api.py and
 * file_download.py read the same fields):
 *   GET /api/datasets/<id>/revision/<rev>?blobs=true  {id, sha, siblings: [{rfilename, size, lfs: {sha256, size}}]}
 *   GET /api/datasets/<id>/parquet                    {config: {split: [<endpoint>/api/datasets/<id>/parquet/<config>/<split>/<n>.parquet]}}
 *   GET /datasets/<id>/resolve/<rev>/<path>           302 to a CDN-like URL, with X-Repo-Commit and X-Linked-Etag
 *   GET /cdn/<sha256>                                 the bytes; honours `Range: bytes=N-` with 206
 *   HEAD|GET /<model>/resolve/<rev>/<path>            a model repo's file, as the Hub's resolve endpoint answers
 *                                                     huggingface_hub's hf_hub_download (see FakeModel)
 * Every request is recorded so tests can assert headers (token, Range) and counts. With `writes`, it also
 * takes uploads (repo creation, commits, LFS; hub-writes.ts).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Codec, writeParquet } from '../support/parquet.js';
import { type FakeHubWrites, handleWrite, isWriteRoute } from './hub-writes.js';

export interface FakeFile {
  path: string;
  content: Uint8Array;
}

export interface FakeDataset {
  /** Branch or tag → commit. `refs/convert/parquet` is the conversion branch. */
  refs: Record<string, string>;
  /** Commit → files in it. */
  commits: Record<string, FakeFile[]>;
  /** Requires `Authorization: Bearer <token>` (a gated dataset). */
  token?: string;
}

export interface FakeModelFile extends FakeFile {
  /** Stored with Git LFS: resolve answers 302 to the CDN with X-Linked-Etag (sha256) and X-Linked-Size. */
  lfs?: boolean;
  /** Bytes sent instead of `content` (a lying Hub or a corrupted transfer); the etag stays content's. */
  served?: Uint8Array;
}

/**
 * A model repo as the Hub's resolve endpoint shows it. A plain file answers 200 with `ETag` (its git blob
 * sha1), an LFS file 302 to the CDN; both carry `X-Repo-Commit`. Errors carry `X-Error-Code`:
 * RepoNotFound (401 without a token, 404 with one, also for a private repo the token cannot read),
 * RevisionNotFound (404), EntryNotFound (404 with the commit looked at).
 */
export interface FakeModel {
  refs: Record<string, string>;
  commits: Record<string, FakeModelFile[]>;
  /** A private repo: only `Authorization: Bearer <token>` sees it. */
  token?: string;
  /** Old names answered with a relative 307 to this repo's resolve URL (a renamed repo). */
  renamedFrom?: string[];
}

/** git's blob id: sha1 of `blob <size>\0` and the content (the Hub's ETag of a plain file). */
export function gitBlobSha1(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface FakeHub {
  endpoint: string;
  requests: RecordedRequest[];
  /** The next `times` downloads of this blob send only `bytes` bytes each, then the connection is cut. */
  cutDownloads(sha256: string, bytes: number, times?: number): void;
  /** Every file download waits this long before sending (to make concurrent clients overlap). */
  delayDownloads(ms: number): void;
  close(): Promise<void>;
}

export function sha256Of(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** `writes` turns on the write endpoints (hub-writes.ts): repo creation, commits, LFS uploads. */
export async function startFakeHub(
  datasets: Record<string, FakeDataset>,
  writes?: FakeHubWrites,
  models: Record<string, FakeModel> = {},
): Promise<FakeHub> {
  const lfsObjects = new Map<string, Uint8Array>();
  const requests: RecordedRequest[] = [];
  const cuts = new Map<string, { bytes: number; times: number }>();
  const blobs = new Map<string, Uint8Array>();
  for (const dataset of Object.values(datasets)) {
    for (const files of Object.values(dataset.commits))
      for (const file of files) blobs.set(sha256Of(file.content), file.content);
  }
  for (const model of Object.values(models)) {
    for (const files of Object.values(model.commits))
      for (const file of files) blobs.set(sha256Of(file.content), file.served ?? file.content);
  }
  const renamed = new Map<string, string>();
  for (const [id, model] of Object.entries(models))
    for (const old of model.renamedFrom ?? []) renamed.set(old, id);
  let endpoint = '';
  let delay = 0;

  const commitOf = (dataset: FakeDataset, revision: string): string | undefined =>
    dataset.commits[revision] ? revision : dataset.refs[revision];

  const send = (
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
      ...headers,
    });
    response.end(text);
  };

  const server = http.createServer((request, response) => {
    if (!request.headers['x-delayed'])
      requests.push({
        method: request.method ?? 'GET',
        url: request.url ?? '',
        headers: { ...request.headers },
      });
    const url = new URL(request.url ?? '/', endpoint);
    const pathname = url.pathname;
    if (writes && isWriteRoute(pathname)) {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () =>
        handleWrite(writes, endpoint, request, Buffer.concat(chunks), response, lfsObjects),
      );
      return;
    }

    const cdn = /^\/cdn\/([0-9a-f]{64})$/.exec(pathname);
    if (cdn && delay > 0 && !request.headers['x-delayed']) {
      request.headers['x-delayed'] = '1';
      setTimeout(() => server.emit('request', request, response), delay);
      return;
    }
    if (cdn) {
      const content = blobs.get(cdn[1]);
      if (!content) return send(response, 404, 'Entry not found');
      const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      if (start >= content.length && range) {
        return send(response, 416, 'Range Not Satisfiable', { 'content-range': `bytes */${content.length}` });
      }
      const body = content.subarray(start);
      response.writeHead(range ? 206 : 200, {
        'content-type': 'application/octet-stream',
        'content-length': String(body.length),
        'accept-ranges': 'bytes',
        ...(range ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
      });
      const cut = cuts.get(cdn[1]);
      if (cut !== undefined) {
        if (--cut.times === 0) cuts.delete(cdn[1]);
        // Send part of the body, then drop the connection as a flaky network would.
        response.write(body.subarray(0, cut.bytes), () => setTimeout(() => response.socket?.destroy(), 20));
        return;
      }
      response.end(body);
      return;
    }

    const modelMatch = /^\/(?!api\/|datasets\/|cdn\/)(.+?)\/resolve\/([^/]+)\/(.+)$/.exec(pathname);
    if (modelMatch) return answerModelFile(request, response, modelMatch);

    const match =
      /^\/api\/datasets\/(.+)\/revision\/([^/]+)$/.exec(pathname) ??
      /^\/api\/datasets\/(.+)\/(parquet)$/.exec(pathname) ??
      /^\/datasets\/(.+?)\/resolve\/([^/]+)\/(.+)$/.exec(pathname);
    if (!match) return send(response, 404, { error: 'Not Found' });
    const id = decodeURIComponent(match[1]);
    const dataset = datasets[id];
    if (!dataset) return send(response, 404, { error: 'Repository not found' });
    if (dataset.token && request.headers.authorization !== `Bearer ${dataset.token}`) {
      return send(response, 401, { error: 'Access to this dataset is restricted' });
    }

    if (pathname.startsWith('/api/') && match[2] === 'parquet') {
      const commit = dataset.refs['refs/convert/parquet'];
      const listing: Record<string, Record<string, string[]>> = {};
      for (const file of dataset.commits[commit] ?? []) {
        const parts = file.path.split('/');
        if (parts.length !== 3) continue;
        const [config, split, name] = parts;
        listing[config] ??= {};
        listing[config][split] ??= [];
        listing[config][split].push(
          `${endpoint}/api/datasets/${id}/parquet/${config}/${split}/${Number.parseInt(name, 10)}.parquet`,
        );
      }
      return send(response, 200, listing);
    }

    const revision = decodeURIComponent(match[2]);
    const commit = commitOf(dataset, revision);
    if (!commit) return send(response, 404, { error: `Invalid rev id: ${revision}` });
    const files = dataset.commits[commit];

    if (pathname.startsWith('/api/')) {
      return send(response, 200, {
        id,
        sha: commit,
        siblings: files.map((file) => ({
          rfilename: file.path,
          size: file.content.length,
          lfs: { sha256: sha256Of(file.content), size: file.content.length, pointerSize: 134 },
        })),
      });
    }

    const wanted = match[3].split('/').map(decodeURIComponent).join('/');
    const file = files.find((candidate) => candidate.path === wanted);
    if (!file) return send(response, 404, { error: 'Entry not found' }, { 'x-error-code': 'EntryNotFound' });
    const sha = sha256Of(file.content);
    response.writeHead(302, {
      location: `${endpoint}/cdn/${sha}`,
      'x-repo-commit': commit,
      'x-linked-etag': `"${sha}"`,
      'x-linked-size': String(file.content.length),
    });
    response.end();
  });

  function answerModelFile(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    [, rawId, rawRevision, rawFile]: RegExpExecArray,
  ): void {
    const id = rawId.split('/').map(decodeURIComponent).join('/');
    const revision = decodeURIComponent(rawRevision);
    const wanted = rawFile.split('/').map(decodeURIComponent).join('/');
    const error = (status: number, code: string, extra: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', 'x-error-code': code, ...extra });
      response.end(request.method === 'HEAD' ? undefined : JSON.stringify({ error: code }));
    };
    const newName = renamed.get(id);
    if (newName) {
      response.writeHead(307, { location: `/${newName}/resolve/${rawRevision}/${rawFile}` });
      return void response.end();
    }
    const model = models[id];
    const authorized = request.headers.authorization !== undefined;
    if (!model || (model.token && request.headers.authorization !== `Bearer ${model.token}`))
      return void error(authorized ? 404 : 401, 'RepoNotFound');
    const commit = model.commits[revision] ? revision : model.refs[revision];
    if (!commit) return void error(404, 'RevisionNotFound');
    const file = model.commits[commit].find((candidate) => candidate.path === wanted);
    if (!file) return void error(404, 'EntryNotFound', { 'x-repo-commit': commit });
    if (file.lfs) {
      const sha = sha256Of(file.content);
      response.writeHead(302, {
        location: `${endpoint}/cdn/${sha}`,
        'x-repo-commit': commit,
        etag: `"${gitBlobSha1(new TextEncoder().encode(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha}\n`))}"`,
        'x-linked-etag': `"${sha}"`,
        'x-linked-size': String(file.content.length),
      });
      return void response.end();
    }
    const body = file.served ?? file.content;
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
      'x-repo-commit': commit,
      etag: `"${gitBlobSha1(file.content)}"`,
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    requests,
    cutDownloads: (sha256, bytes, times = 1) => void cuts.set(sha256, { bytes, times }),
    delayDownloads: (ms) => {
      delay = ms;
    },
    // Idempotent: a test may stop the Hub midway (to prove a run is offline) and afterAll stops it again.
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * A dataset whose parquet conversion branch holds `configs` (config → split → rows), laid out as the
 * Hub lays it out: `<config>/<split>/0000.parquet`. Codecs rotate over the files unless one is given.
 */
export function conversionBranchDataset(
  configs: Record<string, Record<string, Record<string, unknown>[]>>,
  options: { commit?: string; codec?: Codec } = {},
): FakeDataset {
  const commit = options.commit ?? '0123456789abcdef0123456789abcdef01234567';
  const codecs: Codec[] = ['SNAPPY', 'GZIP', 'ZSTD'];
  const files: FakeFile[] = [];
  let index = 0;
  for (const [config, splits] of Object.entries(configs)) {
    for (const [split, rows] of Object.entries(splits)) {
      const codec = options.codec ?? codecs[index++ % codecs.length];
      files.push({ path: `${config}/${split}/0000.parquet`, content: writeParquet(rows, codec) });
    }
  }
  return { refs: { 'refs/convert/parquet': commit }, commits: { [commit]: files } };
}
