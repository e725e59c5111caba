/**
 * Tokenizers from the Hub, against a loopback Hub (test/fakes/hub.ts) that answers the resolve
 * endpoint as the Hub's API reference and huggingface_hub's file_download.py describe it (HEAD and GET
 * `/<repo>/resolve/<revision>/<file>`, `X-Repo-Commit`, `ETag` / `X-Linked-Etag`, a 302 to the CDN for LFS
 * files, a relative 307 for a renamed repo, `X-Error-Code`) and records every request, so each test
 * checks what was asked: the token from HF_TOKEN, the revision, the commit later files are read at.
 * The cache is huggingface_hub's layout; nothing here reaches the real Hub.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeHub, gitBlobSha1, sha256Of, startFakeHub } from '../../../test/fakes/hub.js';
import { startTestServer } from '../../../test/fakes/openai-server.js';
import { byteLevelBpe } from '../../../test/fixtures/tokenizer-json.js';
import { bin } from '../../../test/support/cli.js';
import { repoRoot, tempDir } from '../../../test/support/helpers.js';
import { openHttpBackend } from '../http/create.js';
import { HfTokenizer } from './hf-tokenizer.js';
import { tokenizerFolder } from './tokenizer-folder.js';

const MAIN = '1'.repeat(40);
const V1 = '2'.repeat(40);
const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const fixture = byteLevelBpe();
const TOKENIZER = bytes(fixture.json);
// bos_token only in special_tokens_map.json: transformers reads it from there.
const { bos_token: _bos, ...configWithoutBos } = fixture.config;
const CONFIG = bytes(configWithoutBos);
const SPECIAL = bytes({ bos_token: fixture.config.bos_token, eos_token: fixture.config.eos_token });
const TEMPLATE = bytes('{% for m in messages %}{{ m.content }}{% endfor %}');
const TOKEN = 'hf_secret_token';

let hub: FakeHub;
let cache: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  hub = await startFakeHub({}, undefined, {
    'org/tiny': {
      refs: { main: MAIN, v1: V1 },
      commits: {
        [MAIN]: [
          { path: 'tokenizer.json', content: TOKENIZER },
          { path: 'tokenizer_config.json', content: CONFIG, lfs: true },
          { path: 'special_tokens_map.json', content: SPECIAL },
        ],
        [V1]: [
          { path: 'tokenizer.json', content: TOKENIZER },
          { path: 'chat_template.jinja', content: TEMPLATE },
        ],
      },
      token: TOKEN,
      renamedFrom: ['old-org/tiny'],
    },
    'org/slow': {
      refs: { main: MAIN },
      commits: { [MAIN]: [{ path: 'tokenizer.model', content: bytes('spm') }] },
    },
    'org/liar': {
      refs: { main: MAIN },
      commits: { [MAIN]: [{ path: 'tokenizer.json', content: TOKENIZER, served: bytes({ not: 'it' }) }] },
    },
  });
  cache = tempDir('assay-tokenizer-hub-');
  env = { HF_ENDPOINT: hub.endpoint, HF_HUB_CACHE: cache, HF_TOKEN: TOKEN };
});

afterEach(async () => {
  await hub.close();
});

const snapshotOf = (commit: string) => path.join(cache, 'models--org--tiny', 'snapshots', commit);

describe('a Hub id is downloaded into the Hugging Face cache as huggingface_hub does', () => {
  it('puts the files in blobs/<etag>, links them from snapshots/<commit>, writes refs/main and .no_exist', async () => {
    const found = await tokenizerFolder('org/tiny', { env });
    const snapshot = snapshotOf(MAIN);
    expect(found).toEqual({
      name: 'org/tiny',
      folder: snapshot,
      file: path.join(snapshot, 'tokenizer.json'),
      configFile: path.join(snapshot, 'tokenizer_config.json'),
      specialTokensMapFile: path.join(snapshot, 'special_tokens_map.json'),
      hub: { repo: 'org/tiny', revision: 'main', commit: MAIN, from: 'hub' },
    });
    const folder = path.join(cache, 'models--org--tiny');
    // Plain files are named by their git blob sha1 (the ETag), LFS files by their sha256 (X-Linked-Etag).
    expect(readdirSync(path.join(folder, 'blobs')).sort()).toEqual(
      [gitBlobSha1(TOKENIZER), sha256Of(CONFIG), gitBlobSha1(SPECIAL)].sort(),
    );
    expect(lstatSync(found.file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(found.file)).toBe(`../../blobs/${gitBlobSha1(TOKENIZER)}`);
    expect(readFileSync(found.file)).toEqual(Buffer.from(TOKENIZER));
    expect(readFileSync(path.join(folder, 'refs', 'main'), 'utf8')).toBe(MAIN);
    expect(existsSync(path.join(folder, '.no_exist', MAIN, 'chat_template.jinja'))).toBe(true);

    // Every request carried HF_TOKEN; the first file at the revision asked, the others at its commit.
    expect(hub.requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const heads = hub.requests.filter((request) => request.method === 'HEAD');
    expect(heads.map((request) => request.url)).toEqual([
      '/org/tiny/resolve/main/tokenizer.json',
      `/org/tiny/resolve/${MAIN}/tokenizer_config.json`,
      `/org/tiny/resolve/${MAIN}/special_tokens_map.json`,
      `/org/tiny/resolve/${MAIN}/chat_template.jinja`,
    ]);
    expect(heads.every((request) => request.headers['accept-encoding'] === 'identity')).toBe(true);
    // Downloads: two plain files from resolve, the LFS one through the redirect to the CDN.
    const gets = hub.requests.filter((request) => request.method === 'GET').map((request) => request.url);
    expect(gets).toEqual(
      expect.arrayContaining([
        `/org/tiny/resolve/${MAIN}/tokenizer.json`,
        `/org/tiny/resolve/${MAIN}/special_tokens_map.json`,
        `/cdn/${sha256Of(CONFIG)}`,
      ]),
    );

    // The special tokens come from special_tokens_map.json, as transformers reads them.
    const tokenizer = await HfTokenizer.load(found);
    expect(await tokenizer.prefixToken()).toBe(13);
    expect(tokenizer.describe().hub).toEqual({
      repo: 'org/tiny',
      revision: 'main',
      commit: MAIN,
      from: 'hub',
    });
  });

  it('reads revision= (a tag) at its own commit, with its own chat_template.jinja', async () => {
    const found = await tokenizerFolder('org/tiny', { env, revision: 'v1' });
    expect(found.folder).toBe(snapshotOf(V1));
    expect(found.chatTemplateFile).toBe(path.join(snapshotOf(V1), 'chat_template.jinja'));
    expect(found.configFile).toBeUndefined();
    expect(readFileSync(path.join(cache, 'models--org--tiny', 'refs', 'v1'), 'utf8')).toBe(V1);
    expect(hub.requests[0].url).toBe('/org/tiny/resolve/v1/tokenizer.json');
  });

  it('local-completions reads the chat template of the tokenizer it downloaded (chat_template.jinja at revision v1)', async () => {
    const backend = await openHttpBackend(
      'local-completions',
      {
        model: 'org/tiny',
        revision: 'v1',
        base_url: 'http://127.0.0.1:9/v1/completions',
        tokenizer_backend: 'huggingface',
      },
      undefined,
      { env },
    );
    expect(backend.chatTemplate()).toBe(new TextDecoder().decode(TEMPLATE));
    expect(backend.applyChatTemplate([{ role: 'user', content: 'hi' }], { addGenerationPrompt: true })).toBe(
      'hi',
    );
    await backend.close();
  });

  it('reuses the cache: online it only asks for metadata; offline or with the Hub down it asks nothing', async () => {
    const first = await tokenizerFolder('org/tiny', { env });
    const downloads = hub.requests.filter((request) => request.method === 'GET').length;
    const again = await tokenizerFolder('org/tiny', { env });
    expect(again).toEqual(first);
    expect(hub.requests.filter((request) => request.method === 'GET')).toHaveLength(downloads);

    const asked = hub.requests.length;
    const offline = await tokenizerFolder('org/tiny', { env: { ...env, HF_HUB_OFFLINE: '1' } });
    expect(hub.requests).toHaveLength(asked);
    expect(offline).toEqual({ ...first, hub: { ...first.hub, from: 'cache' } });

    await hub.close();
    const unreachable = await tokenizerFolder('org/tiny', { env });
    expect(unreachable).toEqual(offline);
  });

  it('follows a renamed repo (a relative redirect) and keeps the name asked for', async () => {
    const found = await tokenizerFolder('old-org/tiny', { env });
    expect(found.hub?.commit).toBe(MAIN);
    expect(found.folder).toBe(path.join(cache, 'models--old-org--tiny', 'snapshots', MAIN));
    expect(hub.requests[0].url).toBe('/old-org/tiny/resolve/main/tokenizer.json');
    expect(hub.requests[1].url).toBe('/org/tiny/resolve/main/tokenizer.json');
  });

  it('refuses bytes that do not match the ETag, and keeps no blob of them', async () => {
    await expect(tokenizerFolder('org/liar', { env })).rejects.toThrow(
      `file tokenizer.json of model org/liar: git blob id ${gitBlobSha1(bytes({ not: 'it' }))} does not match the Hub's ETag ${gitBlobSha1(TOKENIZER)}`,
    );
    expect(
      readdirSync(path.join(cache, 'models--org--liar', 'blobs')).filter((name) => !name.endsWith('.lock')),
    ).toEqual([]);
  });
});

describe('a name the Hub and the cache cannot answer stops with the ways out', () => {
  const ways =
    "pass tokenizer=PATH (a tokenizer.json or a model folder), use the server's tokenizer with tokenizer_backend=remote, or send text prompts with tokenized_requests=false";

  it('names the repo, the revision, the missing tokenizer.json, and the offline cache', async () => {
    await expect(tokenizerFolder('org/missing', { env })).rejects.toThrow(
      `tokenizer=org/missing: not a file or folder, and not a model on the Hub (${hub.endpoint}: HTTP 404; a private or gated model needs HF_TOKEN); ${ways}`,
    );
    // Without the token, the private repo looks absent too (the Hub's 401 RepoNotFound).
    await expect(tokenizerFolder('org/tiny', { env: { ...env, HF_TOKEN: '' } })).rejects.toThrow(
      `tokenizer=org/tiny: not a file or folder, and not a model on the Hub (${hub.endpoint}: HTTP 401; a private or gated model needs HF_TOKEN)`,
    );
    await expect(tokenizerFolder('org/tiny', { env, revision: 'v9' })).rejects.toThrow(
      `tokenizer=org/tiny: the Hub has no revision "v9" of it (${hub.endpoint}: HTTP 404); ${ways}`,
    );
    await expect(tokenizerFolder('org/slow', { env })).rejects.toThrow(
      `tokenizer=org/slow: the Hub's org/slow at revision "main" has no tokenizer.json (${hub.endpoint}: HTTP 404); assay reads fast tokenizers only`,
    );
    expect(existsSync(path.join(cache, 'models--org--slow', '.no_exist', MAIN, 'tokenizer.json'))).toBe(true);
    await expect(
      tokenizerFolder('org/tiny', { env: { ...env, HF_HUB_OFFLINE: '1' }, namedBy: 'model' }),
    ).rejects.toThrow(
      `model=org/tiny: not a file or folder, and not in the Hugging Face cache (${path.join(cache, 'models--org--tiny')}): HF_HUB_OFFLINE is set; the cache has no revision "main"; lm-eval's local-completions reads the tokenizer named by model= when none is given; name one with tokenizer=PATH or a Hub id, use the server's tokenizer with tokenizer_backend=remote, or send text prompts with tokenized_requests=false`,
    );
  });

  it("local-completions' default (lm-eval's tokenizer_backend=auto) stops before any completions request", async () => {
    const server = await startTestServer();
    try {
      await expect(
        openHttpBackend(
          'local-completions',
          { model: 'org/missing', base_url: server.completionsUrl },
          undefined,
          {
            env,
          },
        ),
      ).rejects.toThrow('model=org/missing: not a file or folder, and not a model on the Hub');
      expect(server.stats.receivedBodies.size).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("lm-eval's auto picks the server's tokenizer when /tokenizer_info answers with eos_token (check_remote_tokenizer_support)", async () => {
    const server = await startTestServer({}, 1, {
      routes: {
        'GET /tokenizer_info': () => ({ status: 200, body: { eos_token: '</s>', bos_token: '<s>' } }),
      },
    });
    try {
      // Offline with an empty cache: a Hub tokenizer could not be had, so only remote can succeed.
      const backend = await openHttpBackend(
        'local-completions',
        { model: 'org/missing', base_url: server.completionsUrl },
        undefined,
        { env: { ...env, HF_HUB_OFFLINE: '1' } },
      );
      expect(backend.info().tokenizer).toEqual({ backend: 'remote' });
      expect(backend.capabilities.tokenScoring).toBe(true);
      await backend.close();
      expect(hub.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('assay run says so in one line and exits 2, having sent no completions request', async () => {
    const server = await startTestServer();
    try {
      const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            bin,
            'run',
            '--model',
            'local-completions',
            '--model_args',
            `model=org/missing,base_url=${server.completionsUrl}`,
            '--tasks',
            'examples/tasks/arithmetic.jsonl',
          ],
          { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on('close', (status) => resolve({ status, stderr }));
      });
      expect(result.stderr).toContain(
        'assay: error: model=org/missing: not a file or folder, and not a model on the Hub',
      );
      expect(result.stderr).toContain('tokenizer_backend=remote');
      expect(result.stderr).toContain('tokenized_requests=false');
      expect(result.status).toBe(2);
      expect(server.stats.receivedBodies.size).toBe(0);
    } finally {
      await server.close();
    }
  });
});
