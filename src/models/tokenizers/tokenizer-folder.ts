import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { HubCache, hubCacheDir, isCommitHash } from '../../data/hub/cache.js';
import { type ModelSnapshot, modelFiles } from '../../data/hub/model-files.js';
import { looksLikeHubId } from '../../data/hub/repo-id.js';
import { AssayError } from '../../errors.js';

/**
 * A tokenizer named as lm-eval (transformers' `AutoTokenizer.from_pretrained`) takes it — a
 * `tokenizer.json` file, a model folder, or a Hub id — turned into a local folder holding its files.
 * A Hub id is fetched as huggingface_hub fetches it (data/hub/model-files.ts): into the Hugging Face cache,
 * at `revision` (default `main`), honouring HF_ENDPOINT, HF_TOKEN and HF_HUB_OFFLINE=1, and read from the
 * cache when offline or when the Hub cannot be reached.
 */

/** The files transformers reads for a fast tokenizer and its chat template; only tokenizer.json is required. */
export const TOKENIZER_FILE = 'tokenizer.json';
export const OPTIONAL_TOKENIZER_FILES = [
  'tokenizer_config.json',
  'special_tokens_map.json',
  'chat_template.jinja',
] as const;

export interface TokenizerFolder {
  /** The tokenizer as named (a path or a Hub id). */
  name: string;
  /** The folder holding its files (a Hub snapshot: `<cache>/models--org--name/snapshots/<commit>`). */
  folder: string;
  /** tokenizer.json. */
  file: string;
  configFile?: string;
  specialTokensMapFile?: string;
  chatTemplateFile?: string;
  /** Where a Hub id's files came from. */
  hub?: { repo: string; revision: string; commit: string; from: ModelSnapshot['from'] };
}

export interface TokenizerFolderOptions {
  /** A Hub revision: branch, tag or commit (lm-eval's `revision`, default main). */
  revision?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * The model arg the name came from, for messages: `tokenizer` (given) or `model` (lm-eval reads the
   * model's own name when no tokenizer is given).
   */
  namedBy?: 'tokenizer' | 'model';
}

function withFiles(name: string, folder: string, file: string): TokenizerFolder {
  const beside = (named: string) => {
    const candidate = path.join(folder, named);
    return existsSync(candidate) ? candidate : undefined;
  };
  const configFile = beside('tokenizer_config.json');
  const specialTokensMapFile = beside('special_tokens_map.json');
  const chatTemplateFile = beside('chat_template.jinja');
  return {
    name,
    folder,
    file,
    ...(configFile ? { configFile } : {}),
    ...(specialTokensMapFile ? { specialTokensMapFile } : {}),
    ...(chatTemplateFile ? { chatTemplateFile } : {}),
  };
}

function noFastTokenizer(label: string, folder: string): AssayError {
  const slow = ['tokenizer.model', 'vocab.txt', 'vocab.json'].filter((name) =>
    existsSync(path.join(folder, name)),
  );
  return new AssayError(
    'not_found',
    `${label}: ${folder} has no tokenizer.json${slow.length ? ` (only ${slow.join(', ')}, a slow tokenizer's files)` : ''}; assay reads fast tokenizers only: write one with transformers' AutoTokenizer.from_pretrained(folder).save_pretrained(folder)`,
  );
}

/**
 * A local tokenizer named by a path, or undefined for a Hub id (which only the Hub or the cache can
 * answer). Throws for a path that does not exist or a folder without tokenizer.json. Reads no network, so
 * model args are checked with it before anything starts.
 */
export function localTokenizerFolder(
  name: string,
  namedBy: 'tokenizer' | 'model' = 'tokenizer',
): TokenizerFolder | undefined {
  const label = `${namedBy}=${name}`;
  if (existsSync(name)) {
    if (!statSync(name).isDirectory()) {
      const file = path.resolve(name);
      return withFiles(name, path.dirname(file), file);
    }
    const file = path.join(name, TOKENIZER_FILE);
    if (!existsSync(file)) throw noFastTokenizer(label, name);
    return withFiles(name, name, file);
  }
  if (!looksLikeHubId(name) || name.endsWith('.json')) {
    throw new AssayError('not_found', `${label}: no such file or folder`);
  }
  return undefined;
}

/**
 * A tokenizer named by a path, or by a Hub id already in the Hugging Face cache (`refs/<revision>` → the
 * snapshot holding tokenizer.json), without any network: for what must not download, such as the chat
 * template lookup of a backend made for runs that may never use one. Throws not_found when the cache
 * lacks it.
 */
export function cachedTokenizerFolder(
  name: string,
  options: { revision?: string; env?: NodeJS.ProcessEnv; namedBy?: string } = {},
): TokenizerFolder {
  const label = `${options.namedBy ?? 'tokenizer'}=${name}`;
  const local = localTokenizerFolder(name, options.namedBy === 'model' ? 'model' : 'tokenizer');
  if (local) return local;
  const revision = options.revision ?? 'main';
  const cache = new HubCache(hubCacheDir(options.env), name, 'model');
  const ref = cache.refPath(revision);
  const commit = isCommitHash(revision)
    ? revision
    : existsSync(ref)
      ? readFileSync(ref, 'utf8').trim()
      : undefined;
  const file = commit ? cache.snapshotPath(commit, TOKENIZER_FILE) : undefined;
  if (!commit || !file || !existsSync(file)) {
    throw new AssayError(
      'not_found',
      `${label}: not a file or folder, and the Hugging Face cache (${cache.folder}) has no ${TOKENIZER_FILE} at revision "${revision}"`,
    );
  }
  return {
    ...withFiles(name, cache.snapshotDir(commit), file),
    hub: { repo: name, revision, commit, from: 'cache' },
  };
}

/** Where a tokenizer's files are: a local path as it is, a Hub id downloaded (or found) in the cache. */
export async function tokenizerFolder(
  name: string,
  options: TokenizerFolderOptions = {},
): Promise<TokenizerFolder> {
  const namedBy = options.namedBy ?? 'tokenizer';
  const local = localTokenizerFolder(name, namedBy);
  if (local) return local;
  const revision = options.revision ?? 'main';
  const outcome = await modelFiles(
    { repo: name, revision, required: [TOKENIZER_FILE], optional: [...OPTIONAL_TOKENIZER_FILES] },
    { env: options.env },
  );
  if (outcome.ok) {
    const { snapshot } = outcome;
    return {
      ...withFiles(name, snapshot.folder, snapshot.files[TOKENIZER_FILE]),
      hub: { repo: name, revision, commit: snapshot.commit, from: snapshot.from },
    };
  }
  const label = `${namedBy}=${name}`;
  const ways =
    namedBy === 'model'
      ? `lm-eval's local-completions reads the tokenizer named by model= when none is given; name one with tokenizer=PATH or a Hub id, use the server's tokenizer with tokenizer_backend=remote, or send text prompts with tokenized_requests=false`
      : `pass tokenizer=PATH (a tokenizer.json or a model folder), use the server's tokenizer with tokenizer_backend=remote, or send text prompts with tokenized_requests=false`;
  const where = `the Hugging Face cache (${outcome.cacheFolder})`;
  const why: Record<typeof outcome.reason, string> = {
    repo: `not a file or folder, and not a model on the Hub (${outcome.detail}; a private or gated model needs HF_TOKEN)`,
    revision: `the Hub has no revision "${revision}" of it (${outcome.detail})`,
    file: `the Hub's ${name} at revision "${revision}" has no ${outcome.file} (${outcome.detail}); assay reads fast tokenizers only`,
    offline: `not a file or folder, and not in ${where}: ${outcome.detail}`,
    unreachable: `not a file or folder, and not in ${where}: ${outcome.detail}`,
  };
  throw new AssayError('not_found', `${label}: ${why[outcome.reason]}; ${ways}`, {
    exitCode: outcome.reason === 'unreachable' ? 1 : 2,
  });
}
