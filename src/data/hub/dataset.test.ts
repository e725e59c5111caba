/**
 * The Hub client against a loopback server with the Hub's URL layout (test/fakes/hub.ts), serving
 * parquet files written here in SNAPPY, GZIP and ZSTD. Nothing is mocked: real HTTP, real files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type FakeHub, sha256Of, startFakeHub } from '../../../test/fakes/hub.js';
import { repoRoot, tempDir } from '../../../test/support/helpers.js';
import { writeParquet, zstdCompress } from '../../../test/support/parquet.js';
import { AssayError } from '../../errors.js';
import { type RunEvent, withListener } from '../../events.js';
import { readDataFile } from '../readers.js';
import { repoFolder } from './cache.js';
import { clearHubMemo, fileHoldsSplit, hubSplit } from './dataset.js';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const NATIVE = 'c'.repeat(40);

const rows = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    question: `${prefix} question ${index} — ünïcode`,
    choices: { text: [`yes ${index}`, `no ${index}`], label: ['A', 'B'] },
    answer: index % 2,
    score: index + 0.5,
    ok: index % 3 === 0,
  }));

const TEST_ROWS = rows('new test', 300);
const DEV_ROWS = rows('new dev', 5);
const OLD_ROWS = rows('old test', 3);
const testFile = writeParquet(TEST_ROWS, 'GZIP');
const devFile = writeParquet(DEV_ROWS, 'ZSTD');
const trainFile = writeParquet(rows('train', 4), 'SNAPPY');
const oldFile = writeParquet(OLD_ROWS, 'SNAPPY');

let hub: FakeHub;
let cacheDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  clearHubMemo();
  hub = await startFakeHub({
    'org/quiz': {
      refs: { 'refs/convert/parquet': NEW, main: NATIVE },
      commits: {
        [OLD]: [{ path: 'anatomy/test/0000.parquet', content: oldFile }],
        [NEW]: [
          { path: 'anatomy/test/0000.parquet', content: testFile },
          { path: 'anatomy/dev/0000.parquet', content: devFile },
          { path: 'anatomy/train/0000.parquet', content: trainFile },
          { path: 'astronomy/test/0000.parquet', content: oldFile },
        ],
        [NATIVE]: [
          { path: 'README.md', content: new TextEncoder().encode('# quiz') },
          { path: 'anatomy/test-00000-of-00001.parquet', content: testFile },
        ],
      },
    },
    solo: {
      refs: { 'refs/convert/parquet': NEW },
      commits: { [NEW]: [{ path: 'default/validation/0000.parquet', content: devFile }] },
    },
    'gated/quiz': {
      refs: { 'refs/convert/parquet': NEW },
      commits: { [NEW]: [{ path: 'default/test/0000.parquet', content: oldFile }] },
      token: 'hf_secret',
    },
  });
  cacheDir = tempDir('assay-hub-cache-');
  env = { HF_ENDPOINT: hub.endpoint };
});

afterEach(async () => {
  await hub.close();
});

const downloads = () => hub.requests.filter((request) => request.url.startsWith('/cdn/'));

async function docsOf(files: string[]) {
  return (await Promise.all(files.map((file) => readDataFile(file, 'parquet')))).flat();
}

describe('hubSplit online', () => {
  test('reads SNAPPY, GZIP and ZSTD parquet from the conversion branch into an HF-style cache', async () => {
    const ref = { dataset: 'org/quiz', config: 'anatomy' };
    const test = await hubSplit(ref, 'test', { env, cacheDir });
    const dev = await hubSplit(ref, 'dev', { env, cacheDir });
    const train = await hubSplit(ref, 'train', { env, cacheDir });
    expect(await docsOf(test.files)).toEqual(TEST_ROWS);
    expect(await docsOf(dev.files)).toEqual(DEV_ROWS);
    expect((await docsOf(train.files)).length).toBe(4);

    expect(test.source).toEqual({
      kind: 'hub',
      dataset: 'org/quiz',
      config: 'anatomy',
      split: 'test',
      revision: 'refs/convert/parquet',
      commit: NEW,
      files: [{ path: 'anatomy/test/0000.parquet', sha256: sha256Of(testFile), size: testFile.length }],
    });
    // Content-addressed blobs, relative symlinks from the snapshot, the ref → commit file.
    const folder = repoFolder(cacheDir, 'org/quiz');
    expect(folder).toBe(path.join(cacheDir, 'datasets--org--quiz'));
    expect(readdirSync(path.join(folder, 'blobs')).sort()).toEqual(
      [sha256Of(testFile), sha256Of(devFile), sha256Of(trainFile)].sort(),
    );
    const link = path.join(folder, 'snapshots', NEW, 'anatomy', 'test', '0000.parquet');
    expect(test.files).toEqual([link]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(`../../../../blobs/${sha256Of(testFile)}`);
    expect(readFileSync(path.join(folder, 'refs', 'refs', 'convert', 'parquet'), 'utf8')).toBe(NEW);
    // One revision lookup for the three splits; downloads followed the resolve → CDN redirect.
    expect(hub.requests.filter((request) => request.url.includes('/revision/'))).toHaveLength(1);
    expect(hub.requests.filter((request) => request.url.includes('/resolve/'))).toHaveLength(3);
    expect(downloads()).toHaveLength(3);
  });

  test('the fixtures really are SNAPPY, GZIP and ZSTD files', () => {
    const codecs = (file: Uint8Array) =>
      parquetMetadata(
        file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
      ).row_groups[0].columns.map((column) => column.meta_data?.codec);
    expect(new Set(codecs(trainFile))).toEqual(new Set(['SNAPPY']));
    expect(new Set(codecs(testFile))).toEqual(new Set(['GZIP']));
    expect(new Set(codecs(devFile))).toEqual(new Set(['ZSTD']));
    // Really compressed: a zstd frame (magic number first) much smaller than repetitive input.
    const repetitive = new TextEncoder().encode('the same words again and again '.repeat(200));
    const packed = zstdCompress(repetitive);
    expect([...packed.subarray(0, 4)]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect(packed.length).toBeLessThan(repetitive.length / 10);
  });

  test('a warm cache downloads nothing', async () => {
    const ref = { dataset: 'org/quiz', config: 'anatomy' };
    await hubSplit(ref, 'test', { env, cacheDir });
    clearHubMemo();
    hub.requests.length = 0;
    const again = await hubSplit(ref, 'test', { env, cacheDir });
    expect(await docsOf(again.files)).toEqual(TEST_ROWS);
    expect(downloads()).toHaveLength(0);
    expect(hub.requests.map((request) => request.url)).toEqual([
      '/api/datasets/org/quiz/revision/refs%2Fconvert%2Fparquet?blobs=true',
    ]);
  });

  test('a pinned revision reads that commit, and the manifest fields name it', async () => {
    const pinned = await hubSplit({ dataset: 'org/quiz', config: 'anatomy', revision: OLD }, 'test', {
      env,
      cacheDir,
    });
    expect(await docsOf(pinned.files)).toEqual(OLD_ROWS);
    expect(pinned.source.revision).toBe(OLD);
    expect(pinned.source.commit).toBe(OLD);
    expect(pinned.source.files[0].sha256).toBe(sha256Of(oldFile));
    // A branch name resolves to its commit; a repo's own parquet layout (main) is read too.
    const main = await hubSplit({ dataset: 'org/quiz', config: 'anatomy', revision: 'main' }, 'test', {
      env,
      cacheDir,
    });
    expect(main.source.commit).toBe(NATIVE);
    expect(main.source.files.map((file) => file.path)).toEqual(['anatomy/test-00000-of-00001.parquet']);
    expect(await docsOf(main.files)).toEqual(TEST_ROWS);
    // Same content, same blob: the cache stores it once.
    const blobs = readdirSync(path.join(repoFolder(cacheDir, 'org/quiz'), 'blobs'));
    expect(blobs.sort()).toEqual([sha256Of(oldFile), sha256Of(testFile)].sort());
  });

  test('dataset_name null takes the only config from the parquet listing API', async () => {
    const split = await hubSplit({ dataset: 'solo', config: null }, 'validation', { env, cacheDir });
    expect(split.source.config).toBe('default');
    expect(hub.requests.some((request) => request.url === '/api/datasets/solo/parquet')).toBe(true);
    await expect(hubSplit({ dataset: 'org/quiz', config: null }, 'test', { env, cacheDir })).rejects.toThrow(
      'dataset org/quiz has configs anatomy, astronomy at revision "refs/convert/parquet"; set dataset_name',
    );
  });

  test('HF_TOKEN goes in the Authorization header of every request; without it a gated dataset says so', async () => {
    await expect(
      hubSplit({ dataset: 'gated/quiz', config: 'default' }, 'test', { env, cacheDir }),
    ).rejects.toThrow(
      'revision "refs/convert/parquet" of dataset gated/quiz: HTTP 401; the dataset is gated or private: set HF_TOKEN to a token that can read it',
    );
    clearHubMemo();
    await expect(
      hubSplit({ dataset: 'gated/quiz', config: 'default' }, 'test', {
        env: { ...env, HF_TOKEN: 'hf_wrong' },
        cacheDir,
      }),
    ).rejects.toThrow('the token in HF_TOKEN was refused');
    clearHubMemo();
    hub.requests.length = 0;
    const split = await hubSplit({ dataset: 'gated/quiz', config: 'default' }, 'test', {
      env: { ...env, HF_TOKEN: 'hf_secret' },
      cacheDir,
    });
    expect(await docsOf(split.files)).toEqual(OLD_ROWS);
    const hubRequests = hub.requests.filter((request) => !request.url.startsWith('/cdn/'));
    expect(hubRequests.length).toBe(2);
    for (const request of hubRequests) expect(request.headers.authorization).toBe('Bearer hf_secret');
  });

  test('a cut download resumes with a Range request from the bytes already on disk', async () => {
    const sha = sha256Of(testFile);
    hub.cutDownloads(sha, 1000);
    const split = await hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', { env, cacheDir });
    expect(await docsOf(split.files)).toEqual(TEST_ROWS);
    const attempts = downloads();
    expect(attempts.map((request) => request.headers.range)).toEqual([undefined, 'bytes=1000-']);
  });

  test('a partial file left by a killed process is resumed on the next run', async () => {
    const sha = sha256Of(testFile);
    const blobs = path.join(repoFolder(cacheDir, 'org/quiz'), 'blobs');
    await mkdir(blobs, { recursive: true });
    await writeFile(path.join(blobs, `${sha}.incomplete`), testFile.subarray(0, 777));
    const split = await hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', { env, cacheDir });
    expect(await docsOf(split.files)).toEqual(TEST_ROWS);
    expect(downloads().map((request) => request.headers.range)).toEqual(['bytes=777-']);
    expect(readdirSync(blobs)).toEqual([sha]);
  });

  test('a download reports its bytes to the listener of the call it runs in, a resumed one from what it had', async () => {
    const sha = sha256Of(testFile);
    const blobs = path.join(repoFolder(cacheDir, 'org/quiz'), 'blobs');
    await mkdir(blobs, { recursive: true });
    await writeFile(path.join(blobs, `${sha}.incomplete`), testFile.subarray(0, 777));
    const events: RunEvent[] = [];
    const ref = { dataset: 'org/quiz', config: 'anatomy' };
    await withListener(
      (event) => events.push(event),
      () => hubSplit(ref, 'test', { env, cacheDir }),
    );
    const id = 'download:org/quiz/anatomy/test/0000.parquet';
    expect(events[0]).toEqual({
      type: 'operation-start',
      id,
      label: 'download org/quiz anatomy/test/0000.parquet',
      unit: 'bytes',
      done: 777,
      total: testFile.length,
    });
    const progress = events.filter((event) => event.type === 'operation-progress').map((event) => event.done);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(testFile.length);
    expect(events.at(-1)).toMatchObject({ type: 'operation-end', id, done: testFile.length });
    // A warm cache downloads nothing and reports nothing; outside any call nothing is reported either.
    events.length = 0;
    await withListener(
      (event) => events.push(event),
      () => hubSplit(ref, 'test', { env, cacheDir }),
    );
    expect(events).toEqual([]);
  });

  test('writes are atomic: a failed download leaves no blob, no snapshot entry and no ref', async () => {
    const sha = sha256Of(testFile);
    // Three attempts, each cut: the client gives up.
    hub.cutDownloads(sha, 100, 3);
    const folder = repoFolder(cacheDir, 'org/quiz');
    await expect(
      hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', { env, cacheDir }),
    ).rejects.toThrow(/downloading anatomy\/test\/0000.parquet of dataset org\/quiz failed after 3 attempts/);
    expect(downloads().map((request) => request.headers.range)).toEqual([
      undefined,
      'bytes=100-',
      'bytes=200-',
    ]);
    expect(existsSync(path.join(folder, 'blobs', sha))).toBe(false);
    expect(existsSync(path.join(folder, 'blobs', `${sha}.incomplete`))).toBe(true);
    expect(existsSync(path.join(folder, 'snapshots', NEW, 'anatomy', 'test', '0000.parquet'))).toBe(false);
    expect(existsSync(path.join(folder, 'refs'))).toBe(false);
    // Offline, the half-downloaded file is not served as data.
    await expect(
      hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', {
        env: { HF_HUB_OFFLINE: '1' },
        cacheDir,
      }),
    ).rejects.toThrow(/is not in the Hub cache/);
  });

  test('a corrupt partial file is detected by its sha256 and downloaded again', async () => {
    const sha = sha256Of(testFile);
    const blobs = path.join(repoFolder(cacheDir, 'org/quiz'), 'blobs');
    await mkdir(blobs, { recursive: true });
    await writeFile(path.join(blobs, `${sha}.incomplete`), new Uint8Array(500).fill(7));
    const split = await hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', { env, cacheDir });
    expect(await docsOf(split.files)).toEqual(TEST_ROWS);
    expect(downloads().map((request) => request.headers.range)).toEqual(['bytes=500-', undefined]);
  });

  test('errors name the dataset and what exists', async () => {
    await expect(hubSplit({ dataset: 'org/nope', config: 'x' }, 'test', { env, cacheDir })).rejects.toThrow(
      `revision "refs/convert/parquet" of dataset org/nope: not found on ${hub.endpoint} (HTTP 404)`,
    );
    await expect(
      hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'validation', { env, cacheDir }),
    ).rejects.toThrow(
      `dataset org/quiz at revision "refs/convert/parquet" (${NEW}): no parquet files for split "validation"; config "anatomy" has splits: dev, test, train`,
    );
    await expect(
      hubSplit({ dataset: 'org/quiz', config: 'virology' }, 'test', { env, cacheDir }),
    ).rejects.toThrow('it has no config "virology" (configs: anatomy, astronomy)');
    await expect(
      hubSplit({ dataset: 'org/quiz', config: 'anatomy', revision: 'v9' }, 'test', { env, cacheDir }),
    ).rejects.toThrow('revision "v9" of dataset org/quiz: not found');
    const closed = await startFakeHub({});
    await closed.close();
    const error = await hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', {
      env: { HF_ENDPOINT: closed.endpoint },
      cacheDir,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AssayError);
    expect((error as AssayError).message).toMatch(
      new RegExp(
        `^cannot reach ${closed.endpoint} for revision "refs/convert/parquet" of dataset org/quiz: .*; set HF_HUB_OFFLINE=1 to use only the local cache$`,
      ),
    );
  });
});

describe('hubSplit offline (HF_HUB_OFFLINE=1)', () => {
  test('answers from the cache with no request at all, with the same provenance', async () => {
    const ref = { dataset: 'org/quiz', config: 'anatomy' };
    const online = await hubSplit(ref, 'test', { env, cacheDir });
    await hubSplit({ ...ref, revision: OLD }, 'test', { env, cacheDir });
    await hub.close();
    hub = await startFakeHub({});
    const offlineEnv = { HF_ENDPOINT: hub.endpoint, HF_HUB_OFFLINE: '1' };
    const offline = await hubSplit(ref, 'test', { env: offlineEnv, cacheDir });
    expect(offline).toEqual(online);
    const pinned = await hubSplit({ ...ref, revision: OLD }, 'test', { env: offlineEnv, cacheDir });
    expect(await docsOf(pinned.files)).toEqual(OLD_ROWS);
    expect(hub.requests).toEqual([]);
  });

  test('a missing dataset, revision or split is an error naming the dataset and the cache folder', async () => {
    await hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', { env, cacheDir });
    const offlineEnv = { HF_ENDPOINT: hub.endpoint, HF_HUB_OFFLINE: '1' };
    hub.requests.length = 0;
    const folder = repoFolder(cacheDir, 'org/quiz');
    await expect(
      hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'dev', { env: offlineEnv, cacheDir }),
    ).rejects.toThrow(
      `dataset org/quiz: config "anatomy", split "dev" is not in the Hub cache at ${folder} and HF_HUB_OFFLINE=1 forbids downloading; ` +
        `run \`assay data fetch --tasks <task>\` where the Hub is reachable and copy ${cacheDir} here (or point HF_HUB_CACHE at it)`,
    );
    await expect(
      hubSplit({ dataset: 'org/quiz', config: 'anatomy', revision: 'main' }, 'test', {
        env: offlineEnv,
        cacheDir,
      }),
    ).rejects.toThrow(`dataset org/quiz: revision "main" is not in the Hub cache at ${folder}`);
    await expect(
      hubSplit({ dataset: 'other/set', config: 'x' }, 'test', { env: offlineEnv, cacheDir }),
    ).rejects.toThrow(
      `dataset other/set: revision "refs/convert/parquet" is not in the Hub cache at ${repoFolder(cacheDir, 'other/set')}`,
    );
    expect(hub.requests).toEqual([]);
  });
});

test('split file names, as the conversion branch and repos with their own parquet lay them out', () => {
  expect(fileHoldsSplit('test/0000.parquet', 'test')).toBe(true);
  expect(fileHoldsSplit('partial-train/0003.parquet', 'train')).toBe(true);
  expect(fileHoldsSplit('test-00000-of-00002.parquet', 'test')).toBe(true);
  expect(fileHoldsSplit('wikitext-test.parquet', 'test')).toBe(true);
  expect(fileHoldsSplit('test.parquet', 'test')).toBe(true);
  expect(fileHoldsSplit('contest/0000.parquet', 'test')).toBe(false);
  expect(fileHoldsSplit('latest-00000-of-00001.parquet', 'test')).toBe(false);
  expect(fileHoldsSplit('test/0000.json', 'test')).toBe(false);
});

describe('several processes on one cache', () => {
  // tsx's loader in the child itself (tsx's CLI would start a second node process to run it).
  const tsx = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  const fetchSplit = (extraEnv: NodeJS.ProcessEnv) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          tsx,
          path.join(repoRoot, 'test', 'support', 'fetch-split.ts'),
          'org/quiz',
          'anatomy',
          'test',
        ],
        { cwd: repoRoot, env: { ...process.env, ...env, HF_HUB_CACHE: cacheDir, ...extraEnv } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
    });

  test('two runs downloading the same file at once: one download, both get the file', async () => {
    hub.delayDownloads(300);
    const [first, second] = await Promise.all([fetchSplit({}), fetchSplit({})]);
    expect(first.status, first.stderr).toBe(0);
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual(JSON.parse(second.stdout));
    expect(JSON.parse(first.stdout).files[0].sha256).toBe(sha256Of(testFile));
    expect(downloads()).toHaveLength(1);
    expect(readdirSync(path.join(repoFolder(cacheDir, 'org/quiz'), 'blobs'))).toEqual([sha256Of(testFile)]);
  });

  test("a killed run's lock is taken over", async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const blobs = path.join(repoFolder(cacheDir, 'org/quiz'), 'blobs');
    await mkdir(blobs, { recursive: true });
    await writeFile(path.join(blobs, `${sha256Of(testFile)}.lock`), String(dead));
    const split = await hubSplit({ dataset: 'org/quiz', config: 'anatomy' }, 'test', { env, cacheDir });
    expect(await docsOf(split.files)).toEqual(TEST_ROWS);
    expect(readdirSync(blobs)).toEqual([sha256Of(testFile)]);
  });
});
