import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { hubCacheDir, isCommitHash } from '../../data/hub/cache.js';
import { AssayError } from '../../errors.js';

/** The files of a local tokenizer: tokenizer.json, and tokenizer_config.json when it sits beside it. */
export interface TokenizerFiles {
  file: string;
  configFile?: string;
}

function withConfig(file: string): TokenizerFiles {
  const config = path.join(path.dirname(file), 'tokenizer_config.json');
  return existsSync(config) ? { file, configFile: config } : { file };
}

function fromFolder(folder: string, named: string): TokenizerFiles {
  const file = path.join(folder, 'tokenizer.json');
  if (!existsSync(file)) {
    const slow = ['tokenizer.model', 'vocab.txt', 'vocab.json'].filter((name) =>
      existsSync(path.join(folder, name)),
    );
    throw new AssayError(
      'not_found',
      `tokenizer=${named}: ${folder} has no tokenizer.json${slow.length ? ` (only ${slow.join(', ')}, a slow tokenizer's files)` : ''}; assay reads fast tokenizers only: write one with transformers' AutoTokenizer.from_pretrained(folder).save_pretrained(folder)`,
    );
  }
  return withConfig(file);
}

/**
 * `tokenizer=` as lm-eval takes it: a tokenizer.json file, a model folder, or a Hub id (`org/name`)
 * read from the Hugging Face cache (huggingface_hub's layout: models--org--name/refs/<revision> names a
 * commit, snapshots/<commit>/ holds its files). Nothing is downloaded, so it works offline; a Hub id not
 * in the cache is an error that says how to put it there.
 */
export function findTokenizer(
  name: string,
  revision = 'main',
  env: NodeJS.ProcessEnv = process.env,
): TokenizerFiles {
  if (existsSync(name)) {
    return statSync(name).isDirectory() ? fromFolder(name, name) : withConfig(path.resolve(name));
  }
  const looksLikeHubId = /^[\w.-]+(\/[\w.-]+)?$/.test(name) && !name.endsWith('.json');
  if (!looksLikeHubId) {
    throw new AssayError('not_found', `tokenizer=${name}: no such file or folder`);
  }
  const cache = hubCacheDir(env);
  const repo = path.join(cache, `models--${name.split('/').join('--')}`);
  let commit: string | undefined = isCommitHash(revision) ? revision : undefined;
  if (!commit) {
    const ref = path.join(repo, 'refs', ...revision.split('/'));
    if (existsSync(ref)) commit = readFileSync(ref, 'utf8').trim();
  }
  const snapshot = commit ? path.join(repo, 'snapshots', commit) : undefined;
  if (!snapshot || !existsSync(path.join(snapshot, 'tokenizer.json'))) {
    throw new AssayError(
      'not_found',
      `tokenizer=${name}: not a file or folder, and the Hugging Face cache ${cache} has no tokenizer.json for ${name} at revision ${revision}; assay does not download models: fetch it into the cache with \`hf download ${name} tokenizer.json tokenizer_config.json\` (set HF_HUB_CACHE or HF_HOME to the cache you copy), or pass tokenizer=PATH`,
    );
  }
  return fromFolder(snapshot, name);
}
