/**
 * The write side of the loopback Hub (hub.ts), from the Hub's API as huggingface_hub documents
 * and calls it (hf_api.py: create_repo, create_commit, preupload_lfs_files, list_repo_tree, whoami;
 * lfs.py: the Git LFS batch API and its basic transfer):
 *   GET  /api/whoami-v2                                   {name, auth} for a known token, else 401
 *   POST /api/repos/create {name, organization, type, private|visibility}      {url, name} | 409
 *   POST /api/datasets/<repo>/preupload/<rev> {files: [{path, size, sample}]}  {files: [{path, uploadMode}]}
 *   POST /datasets/<repo>.git/info/lfs/objects/batch      {transfer: basic, objects: [{oid, actions.upload}]}
 *   PUT  /lfs-storage/<oid>                               the object (a presigned URL: no token)
 *   POST /api/datasets/<repo>/commit/<rev>  NDJSON: header, file (base64) and lfsFile lines   {commitOid}
 *   GET  /api/datasets/<repo>/tree/<rev>?recursive=true   [{type, path, size, oid}]
 * Every request is checked (token, content type, fields, the preupload verdict honoured by the commit,
 * LFS objects uploaded with the sha256 and size they claim); a breach is answered 400 and listed in
 * `violations`, which tests assert empty. A file goes to LFS when it is over `lfsThreshold` bytes
 * (the Hub's 10 MB rule) or its first 512 bytes hold a NUL byte (the Hub's binary rule).
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';

export interface WrittenRepo {
  id: string;
  private: boolean;
  files: Map<string, Uint8Array>;
  commits: Array<{ title: string; description?: string; paths: string[]; lfs: string[] }>;
}

export interface FakeHubWrites {
  /** token → user name (whoami; repos may be created in that name or in `organizations`). */
  tokens: Record<string, string>;
  organizations: string[];
  lfsThreshold: number;
  repos: Map<string, WrittenRepo>;
  violations: string[];
  /** Error answers quote the request's Authorization header (a careless server). */
  echoAuthorization: boolean;
  /** Said in every error answer, before the echoed header (a long message puts the echo far in). */
  errorDetail?: string;
  /** The next commit is refused with this status. */
  failCommit?: number;
}

export function fakeHubWrites(tokens: Record<string, string>, organizations: string[] = []): FakeHubWrites {
  return {
    tokens,
    organizations,
    lfsThreshold: 10 * 1024 * 1024,
    repos: new Map(),
    violations: [],
    echoAuthorization: false,
  };
}

const WRITE_ROUTES = [
  /^\/api\/whoami-v2$/,
  /^\/api\/repos\/create$/,
  /^\/api\/datasets\/([^/]+\/[^/]+)\/(preupload|commit|tree)\/([^/]+)$/,
  /^\/datasets\/([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/,
  /^\/lfs-storage\/([0-9a-f]{64})$/,
];

export function isWriteRoute(pathname: string): boolean {
  return WRITE_ROUTES.some((route) => route.test(pathname));
}

const sha256 = (content: Uint8Array) => createHash('sha256').update(content).digest('hex');

function uploadMode(writes: FakeHubWrites, size: number, sample: Buffer): 'lfs' | 'regular' {
  return size > writes.lfsThreshold || sample.includes(0) ? 'lfs' : 'regular';
}

export function handleWrite(
  writes: FakeHubWrites,
  endpoint: string,
  request: http.IncomingMessage,
  body: Buffer,
  response: http.ServerResponse,
  lfsObjects: Map<string, Uint8Array>,
): void {
  const url = new URL(request.url ?? '/', endpoint);
  const pathname = url.pathname;
  const reply = (status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };
  const refuse = (status: number, message: string) => {
    const echo = writes.echoAuthorization ? ` (sent ${request.headers.authorization})` : '';
    reply(status, { error: message + (writes.errorDetail ?? '') + echo });
  };
  const invalid = (message: string) => {
    writes.violations.push(`${request.method} ${pathname}: ${message}`);
    refuse(400, message);
  };
  const expectMethod = (method: string) => {
    if (request.method === method) return true;
    invalid(`expected ${method}, got ${request.method}`);
    return false;
  };
  const user = (): string | undefined => {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    return match ? writes.tokens[match[1]] : undefined;
  };
  const json = (): Record<string, unknown> | undefined => {
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      invalid('body is not JSON');
      return undefined;
    }
  };

  const storage = /^\/lfs-storage\/([0-9a-f]{64})$/.exec(pathname);
  if (storage) {
    if (!expectMethod('PUT')) return;
    if (sha256(body) !== storage[1])
      return invalid(`object ${storage[1]}: content has sha256 ${sha256(body)}`);
    lfsObjects.set(storage[1], new Uint8Array(body));
    response.writeHead(200);
    response.end();
    return;
  }

  const name = user();
  if (!name) return refuse(401, 'Invalid credentials in Authorization header');

  if (pathname === '/api/whoami-v2') {
    if (!expectMethod('GET')) return;
    return reply(200, {
      type: 'user',
      name,
      orgs: writes.organizations.map((org) => ({ name: org })),
      auth: { type: 'access_token', accessToken: { displayName: 'test', role: 'write' } },
    });
  }

  if (pathname === '/api/repos/create') {
    if (!expectMethod('POST')) return;
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return invalid('content-type must be JSON');
    const value = json();
    if (!value) return;
    const namespace = String(value.organization ?? name);
    if (value.type !== 'dataset') return invalid(`type must be "dataset", got ${String(value.type)}`);
    if (typeof value.name !== 'string' || !/^[\w.-]{1,96}$/.test(value.name))
      return invalid(`bad repo name ${String(value.name)}`);
    const isPrivate = value.private === true || value.visibility === 'private';
    if (value.private === undefined && value.visibility === undefined)
      return invalid('say private or public');
    if (namespace !== name && !writes.organizations.includes(namespace))
      return refuse(403, `You don't have the rights to create a dataset under the namespace "${namespace}"`);
    const id = `${namespace}/${value.name}`;
    if (writes.repos.has(id))
      return reply(409, {
        error: 'You already created this dataset repo',
        url: `${endpoint}/datasets/${id}`,
      });
    writes.repos.set(id, { id, private: isPrivate, files: new Map(), commits: [] });
    return reply(200, { url: `${endpoint}/datasets/${id}`, name: id });
  }

  const lfsBatch = /^\/datasets\/([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(pathname);
  if (lfsBatch) {
    if (!expectMethod('POST')) return;
    const repo = writes.repos.get(lfsBatch[1]);
    if (!repo) return refuse(404, 'Repository not found');
    if (!String(request.headers['content-type']).startsWith('application/vnd.git-lfs+json'))
      return invalid('content-type must be application/vnd.git-lfs+json');
    const value = json();
    if (!value) return;
    if (value.operation !== 'upload') return invalid('operation must be upload');
    if (!Array.isArray(value.transfers) || !value.transfers.includes('basic'))
      return invalid('transfers must offer basic');
    if (value.hash_algo !== 'sha_256') return invalid('hash_algo must be sha_256');
    const objects = value.objects as Array<{ oid: string; size: number }>;
    if (
      !Array.isArray(objects) ||
      objects.some((object) => !/^[0-9a-f]{64}$/.test(object.oid) || !Number.isInteger(object.size))
    )
      return invalid('objects must be [{oid: sha256 hex, size: integer}]');
    return reply(200, {
      transfer: 'basic',
      objects: objects.map((object) => ({
        oid: object.oid,
        size: object.size,
        authenticated: true,
        ...(lfsObjects.has(object.oid)
          ? {}
          : { actions: { upload: { href: `${endpoint}/lfs-storage/${object.oid}`, header: {} } } }),
      })),
    });
  }

  const repoRoute = /^\/api\/datasets\/([^/]+\/[^/]+)\/(preupload|commit|tree)\/([^/]+)$/.exec(pathname);
  if (!repoRoute) return refuse(404, 'Not Found');
  const repo = writes.repos.get(repoRoute[1]);
  if (!repo) return refuse(404, 'Repository not found');
  if (repoRoute[3] !== 'main') return invalid(`revision ${repoRoute[3]}: only main exists`);

  if (repoRoute[2] === 'tree') {
    if (!expectMethod('GET')) return;
    if (url.searchParams.get('recursive') !== 'true') return invalid('list recursively');
    const folders = new Set<string>();
    for (const file of repo.files.keys()) {
      const parts = file.split('/');
      for (let index = 1; index < parts.length; index++) folders.add(parts.slice(0, index).join('/'));
    }
    return reply(200, [
      ...[...folders]
        .sort()
        .map((folder) => ({ type: 'directory', path: folder, size: 0, oid: 'f'.repeat(40) })),
      ...[...repo.files].map(([file, content]) => ({
        type: 'file',
        path: file,
        size: content.length,
        oid: sha256(content).slice(0, 40),
      })),
    ]);
  }

  if (repoRoute[2] === 'preupload') {
    if (!expectMethod('POST')) return;
    const value = json();
    if (!value) return;
    const files = value.files as Array<{ path: string; size: number; sample: string }>;
    if (!Array.isArray(files) || files.length > 100) return invalid('files: at most 100 per call');
    const answers = [];
    for (const file of files) {
      if (typeof file.path !== 'string' || !Number.isInteger(file.size) || typeof file.sample !== 'string')
        return invalid('each file needs path, size and a base64 sample');
      const sample = Buffer.from(file.sample, 'base64');
      if (sample.length > 512) return invalid(`${file.path}: sample is over 512 bytes`);
      answers.push({
        path: file.path,
        uploadMode: uploadMode(writes, file.size, sample),
        shouldIgnore: false,
      });
    }
    return reply(200, { files: answers, commitOid: 'a'.repeat(40) });
  }

  // commit
  if (!expectMethod('POST')) return;
  if (!String(request.headers['content-type']).startsWith('application/x-ndjson'))
    return invalid('content-type must be application/x-ndjson');
  if (writes.failCommit) {
    const status = writes.failCommit;
    writes.failCommit = undefined;
    return refuse(status, 'commit refused');
  }
  const lines = body
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { key: string; value: Record<string, unknown> });
  const [header, ...operations] = lines;
  if (header?.key !== 'header' || typeof header.value.summary !== 'string' || header.value.summary === '')
    return invalid('the first line must be the header with a summary');
  const staged = new Map<string, Uint8Array>();
  const lfs: string[] = [];
  for (const operation of operations) {
    const file = String(operation.value.path ?? '');
    if (
      file === '' ||
      file.startsWith('/') ||
      file.split('/').some((part) => part === '' || part === '.' || part === '..')
    )
      return invalid(`path "${file}" is not a repo path`);
    if (operation.key === 'file') {
      if (operation.value.encoding !== 'base64') return invalid(`${file}: encoding must be base64`);
      const content = Buffer.from(String(operation.value.content), 'base64');
      // The Hub rejects in a regular commit what the pre-upload said goes to LFS.
      if (uploadMode(writes, content.length, content.subarray(0, 512)) === 'lfs')
        return invalid(`${file}: ${content.length} bytes must go through LFS`);
      staged.set(file, content);
    } else if (operation.key === 'lfsFile') {
      const oid = String(operation.value.oid);
      const object = lfsObjects.get(oid);
      if (operation.value.algo !== 'sha256') return invalid(`${file}: algo must be sha256`);
      if (!object) return invalid(`${file}: LFS object ${oid} was never uploaded`);
      if (object.length !== operation.value.size)
        return invalid(`${file}: size ${String(operation.value.size)} is not the object's ${object.length}`);
      staged.set(file, object);
      lfs.push(file);
    } else {
      return invalid(`unexpected operation ${operation.key}`);
    }
  }
  for (const [file, content] of staged) repo.files.set(file, content);
  const description = header.value.description;
  if (description !== undefined && typeof description !== 'string')
    return invalid('the header description must be a string');
  repo.commits.push({
    title: header.value.summary,
    ...(description ? { description } : {}),
    paths: [...staged.keys()],
    lfs,
  });
  const oid = sha256(Buffer.from(`${repo.id}:${repo.commits.length}`)).slice(0, 40);
  return reply(200, {
    success: true,
    commitOid: oid,
    commitUrl: `${endpoint}/datasets/${repo.id}/commit/${oid}`,
  });
}
