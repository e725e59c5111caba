/**
 * The few Hugging Face Hub endpoints assay uses, as huggingface_hub calls them:
 *   GET /api/datasets/<id>/revision/<revision>?blobs=true   commit sha and every file with its LFS sha256
 *   GET /api/datasets/<id>/parquet                          the parquet conversion's configs and splits
 *   GET /datasets/<id>/resolve/<commit>/<path>              file content (often a redirect to a CDN)
 *   HEAD /<id>/resolve/<revision>/<path>                   a model file's commit, etag and size (fileMetadata)
 * Model repos have no `/datasets` prefix (`kind: 'model'`). The endpoint is HF_ENDPOINT (default
 * https://huggingface.co); HF_TOKEN, when set, goes in `Authorization: Bearer`. Only the fields assay reads
 * are validated.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { AssayError } from '../../errors.js';
import { type OperationHandle, scopedListener, startOperation } from '../../events.js';
import { hubEndpoint, hubToken } from './endpoint.js';
import { saveBody } from './save-body.js';

export type HubRepoKind = 'dataset' | 'model';

export interface HubClientOptions {
  endpoint?: string;
  /** The repos it reads (default dataset): their URLs and the noun its messages use. */
  kind?: HubRepoKind;
  token?: string;
  /** Attempts per file download; each retry resumes where the last one stopped. */
  attempts?: number;
}

export interface HubSibling {
  path: string;
  size: number | undefined;
  /** sha256 of the content; the Hub gives it for LFS files (all parquet files are LFS). */
  sha256: string | undefined;
}

export interface HubRevision {
  commit: string;
  files: HubSibling[];
}

/** A file the Hub has (with where its bytes are), or why it has none. */
export type FileMetadata =
  | { found: true; commit: string; etag: string; size: number | undefined; url: string }
  | {
      found: false;
      /** file: the revision exists and lacks it (`commit` is the one looked at); unreachable: no answer. */
      reason: 'file' | 'revision' | 'repo' | 'unreachable';
      commit?: string;
      detail: string;
    };

const revisionSchema = z.object({
  sha: z.string(),
  siblings: z
    .array(
      z.object({
        rfilename: z.string(),
        size: z.number().optional(),
        lfs: z.object({ sha256: z.string(), size: z.number().optional() }).optional(),
      }),
    )
    .default([]),
});

/** `{config: {split: [url, ...]}}`, the Hub's parquet listing. */
const parquetListingSchema = z.record(z.string(), z.record(z.string(), z.array(z.string())));

/** Path segments of a repo id are URL-encoded one by one; the slash between org and name stays. */
function encodeRepo(repoId: string): string {
  return repoId.split('/').map(encodeURIComponent).join('/');
}

function encodePath(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

export class HubClient {
  readonly endpoint: string;
  readonly kind: HubRepoKind;
  private readonly token: string | undefined;
  private readonly attempts: number;

  constructor(options: HubClientOptions = {}) {
    this.endpoint = (options.endpoint ?? hubEndpoint()).replace(/\/+$/, '');
    this.kind = options.kind ?? 'dataset';
    this.token = options.token ?? hubToken();
    this.attempts = options.attempts ?? 3;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'user-agent': 'assay',
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...extra,
    };
  }

  private async request(
    url: string,
    what: string,
    repoId: string,
    headers?: Record<string, string>,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, { headers: this.headers(headers), redirect: 'follow' });
    } catch (error) {
      throw new AssayError(
        'hub_error',
        `cannot reach ${this.endpoint} for ${what} of ${this.kind} ${repoId}: ${describeNetworkError(error)}; ` +
          'set HF_HUB_OFFLINE=1 to use only the local cache',
        { cause: error, exitCode: 1 },
      );
    }
    if (response.ok || response.status === 206 || response.status === 416) return response;
    await response.body?.cancel();
    throw this.statusError(response.status, what, repoId);
  }

  private statusError(status: number, what: string, repoId: string): AssayError {
    if (status === 401 || status === 403) {
      const hint = this.token
        ? `the token in HF_TOKEN was refused (check that it can read this ${this.kind} and that you accepted its terms)`
        : `the ${this.kind} is gated or private: set HF_TOKEN to a token that can read it`;
      return new AssayError('hub_error', `${what} of ${this.kind} ${repoId}: HTTP ${status}; ${hint}`, {
        exitCode: 2,
      });
    }
    if (status === 404) {
      return new AssayError(
        'hub_error',
        `${what} of ${this.kind} ${repoId}: not found on ${this.endpoint} (HTTP 404); ${this.kind === 'dataset' ? 'check dataset_path, dataset_name and revision' : 'check the name and revision'}`,
        { exitCode: 2 },
      );
    }
    return new AssayError(
      'hub_error',
      `${what} of ${this.kind} ${repoId}: HTTP ${status} from ${this.endpoint}`,
      {
        exitCode: 1,
      },
    );
  }

  private async json(url: string, what: string, repoId: string): Promise<unknown> {
    const response = await this.request(url, what, repoId);
    try {
      return await response.json();
    } catch (error) {
      throw new AssayError('hub_error', `${what} of ${this.kind} ${repoId}: the Hub sent invalid JSON`, {
        cause: error,
        exitCode: 1,
      });
    }
  }

  /** The commit a revision points to and the files in it. */
  async revision(repoId: string, revision: string): Promise<HubRevision> {
    const url = `${this.endpoint}/api/datasets/${encodeRepo(repoId)}/revision/${encodeURIComponent(revision)}?blobs=true`;
    const parsed = revisionSchema.safeParse(await this.json(url, `revision "${revision}"`, repoId));
    if (!parsed.success) {
      throw new AssayError(
        'hub_error',
        `revision "${revision}" of dataset ${repoId}: unexpected answer from ${this.endpoint}`,
        {
          cause: parsed.error,
          exitCode: 1,
        },
      );
    }
    return {
      commit: parsed.data.sha,
      files: parsed.data.siblings.map((sibling) => ({
        path: sibling.rfilename,
        size: sibling.lfs?.size ?? sibling.size,
        sha256: sibling.lfs?.sha256,
      })),
    };
  }

  /** The Hub's parquet listing (configs → splits → file URLs) of the conversion branch. */
  async parquetListing(repoId: string): Promise<Record<string, Record<string, string[]>>> {
    const url = `${this.endpoint}/api/datasets/${encodeRepo(repoId)}/parquet`;
    const parsed = parquetListingSchema.safeParse(await this.json(url, 'parquet listing', repoId));
    if (!parsed.success) {
      throw new AssayError(
        'hub_error',
        `parquet listing of dataset ${repoId}: unexpected answer from ${this.endpoint}`,
        {
          cause: parsed.error,
          exitCode: 1,
        },
      );
    }
    return parsed.data;
  }

  resolveUrl(repoId: string, commit: string, file: string): string {
    const prefix = this.kind === 'dataset' ? '/datasets' : '';
    return `${this.endpoint}${prefix}/${encodeRepo(repoId)}/resolve/${encodeURIComponent(commit)}/${encodePath(file)}`;
  }

  /**
   * What the Hub says of one file at a revision, as huggingface_hub's get_hf_file_metadata asks it: a HEAD
   * of the resolve URL (`Accept-Encoding: identity`, so the size is the file's), following only relative
   * redirects (a renamed repo); an absolute one is the CDN, whose URL is where the bytes are. The commit
   * is `X-Repo-Commit`; the etag is `X-Linked-Etag` (an LFS file's sha256) or `ETag` (a git blob's sha1).
   * The Hub's `X-Error-Code` tells a missing file (with the commit it looked at), revision and repo apart;
   * a Hub that cannot be reached is a value too, so the caller can fall back on the cache.
   */
  async fileMetadata(repoId: string, revision: string, file: string): Promise<FileMetadata> {
    let url = this.resolveUrl(repoId, revision, file);
    for (let hop = 0; hop < 10; hop++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'HEAD',
          headers: this.headers({ 'accept-encoding': 'identity' }),
          redirect: 'manual',
        });
      } catch (error) {
        return { found: false, reason: 'unreachable', detail: describeNetworkError(error) };
      }
      const header = (name: string) => response.headers.get(name) ?? undefined;
      const location = header('location');
      if (
        response.status >= 300 &&
        response.status < 400 &&
        location &&
        !/^[a-z][a-z0-9+.-]*:/i.test(location)
      ) {
        url = new URL(location, url).toString();
        continue;
      }
      const commit = header('x-repo-commit');
      if (response.ok || (response.status >= 300 && response.status < 400)) {
        const etag = (header('x-linked-etag') ?? header('etag'))?.replace(/^W\//, '').replace(/"/g, '');
        if (!commit || !etag) {
          throw new AssayError(
            'hub_error',
            `file ${file} of ${this.kind} ${repoId}: ${this.endpoint} answered without X-Repo-Commit or ETag, so it is not a Hugging Face Hub`,
            { exitCode: 1 },
          );
        }
        const size = Number(header('x-linked-size') ?? header('content-length'));
        return {
          found: true,
          commit,
          etag,
          size: Number.isSafeInteger(size) && size >= 0 ? size : undefined,
          url: location ?? url,
        };
      }
      const code = header('x-error-code');
      if (code === 'EntryNotFound')
        return { found: false, reason: 'file', commit, detail: `HTTP ${response.status}` };
      if (code === 'RevisionNotFound')
        return { found: false, reason: 'revision', detail: `HTTP ${response.status}` };
      if (code === 'RepoNotFound' || (response.status === 404 && code === undefined))
        return { found: false, reason: 'repo', detail: `HTTP ${response.status}` };
      throw this.statusError(response.status, `file ${file}`, repoId);
    }
    throw new AssayError('hub_error', `file ${file} of ${this.kind} ${repoId}: too many redirects`, {
      exitCode: 1,
    });
  }

  /**
   * Downloads a file into `incomplete`, appending to what an earlier attempt left there (a Range
   * request), and returns its sha256, checked against `expected.sha256` when the Hub gave one. A server
   * that ignores Range gets the file rewritten from the start. The caller renames the finished file.
   */
  async download(
    repoId: string,
    commit: string,
    file: string,
    expected: { sha256?: string; size?: number },
    incomplete: string,
  ): Promise<string> {
    // Reported from the first request on: bytes on disk (a resumed download starts with what an earlier
    // attempt left) of the size the Hub gave.
    let handle: OperationHandle | undefined;
    const progress = (have: number) =>
      (handle ??= startOperation(scopedListener(), {
        id: `download:${repoId}/${file}`,
        label: `download ${repoId} ${file}`,
        unit: 'bytes',
        done: have,
        total: expected.size,
      }));
    try {
      return await this.downloadAttempts(repoId, commit, file, expected, incomplete, progress);
    } finally {
      handle?.end();
    }
  }

  private async downloadAttempts(
    repoId: string,
    commit: string,
    file: string,
    expected: { sha256?: string; size?: number },
    incomplete: string,
    progress: (have: number) => OperationHandle,
  ): Promise<string> {
    await mkdir(path.dirname(incomplete), { recursive: true });
    const url = this.resolveUrl(repoId, commit, file);
    let lastError: unknown;
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      const have = await sizeOf(incomplete);
      try {
        if (expected.size === undefined || have < expected.size) {
          const operation = progress(have);
          const response = await this.request(
            url,
            `file ${file}`,
            repoId,
            have > 0 ? { range: `bytes=${have}-` } : {},
          );
          if (response.status === 416) await response.body?.cancel();
          else {
            const append = response.status === 206 && have > 0;
            const body = response.body
              ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
              : Readable.from([]);
            let written = append ? have : 0;
            await saveBody(body, incomplete, append, (bytes) => {
              written += bytes;
              operation.progress(written);
            });
          }
        }
        const actual = await sha256OfFile(incomplete);
        if (expected.sha256 !== undefined && actual !== expected.sha256) {
          // A corrupt partial file cannot be resumed; start over on the next attempt.
          await rm(incomplete, { force: true });
          throw new AssayError(
            'hub_error',
            `file ${file} of ${this.kind} ${repoId}: sha256 ${actual} does not match the Hub's ${expected.sha256}`,
            { exitCode: 1 },
          );
        }
        return actual;
      } catch (error) {
        lastError = error;
        if (error instanceof AssayError && error.exitCode === 2) throw error;
      }
    }
    if (lastError instanceof AssayError) throw lastError;
    throw new AssayError(
      'hub_error',
      `downloading ${file} of ${this.kind} ${repoId} failed after ${this.attempts} attempts: ${describeNetworkError(lastError)}` +
        ' (the partial file is kept and the next run resumes it)',
      { cause: lastError, exitCode: 1 },
    );
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = cause && typeof cause === 'object' ? (cause as { code?: string }).code : undefined;
  return code ? `${error.message} (${code})` : error.message;
}
