/**
 * Local Hugging Face tokenizers: token ids checked against the documented algorithms of the format
 * (byte-level BPE merges by rank, WordPiece's greedy longest match, SentencePiece's best-scoring merge
 * with byte fallback), against `assay serve`'s /tokenize for the GGUF whose vocabulary the tokenizer.json
 * was written from, and through local-completions, whose scores must then equal the in-process backend's.
 */

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Manifest, readResultsFile } from 'assay/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  byteLevelBpe,
  spmFromVocab,
  wordPiece,
  writeTokenizerFolder,
} from '../../../test/fixtures/tokenizer-json.js';
import { runCliAsync } from '../../../test/support/cli.js';
import { findOne } from '../../../test/support/helpers.js';
import { textPerplexity } from '../../evaluate/perplexity/text-perplexity.js';
import { type RunningServer, startServer } from '../../serve/server.js';
import { runTokenizerConformance } from '../../testing/tokenizer-conformance.js';
import { GgufBackend } from '../gguf/gguf-backend.js';
import { asciiCharPieces, buildSpmVocab, randomLlamaGguf, SPM_SPACE } from '../gguf/llama-model.js';
import { writeGguf } from '../gguf/writer.js';
import type { CompletionsBackend } from '../http/completions-backend.js';
import { openHttpBackend, validateHttpModelArgs } from '../http/create.js';
import { HttpClient } from '../http/http-client.js';
import { RateLimiter } from '../http/rate-limiter.js';
import { RemoteTokenizer, serverUrl } from '../http/remote-tokenizer.js';
import { UsageRecorder } from '../http/usage-recorder.js';
import { HfTokenizer } from './hf-tokenizer.js';
import { localTokenizerFolder, type TokenizerFolder, tokenizerFolder } from './tokenizer-folder.js';

/** A tokenizer folder on disk, loaded under `name`. */
const loadLocal = (folder: string, name: string) =>
  HfTokenizer.load({ ...(localTokenizerFolder(folder) as TokenizerFolder), name });

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-tokenizers-'));
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

// Pieces in merge order (earlier scores higher), each reachable from two shorter pieces.
const MERGED = [
  'th',
  'he',
  'the',
  `${SPM_SPACE}t`,
  `${SPM_SPACE}the`,
  'in',
  'ng',
  'ing',
  'an',
  'and',
  `${SPM_SPACE}a`,
  `${SPM_SPACE}and`,
  'qu',
  'ck',
];
const vocab = buildSpmVocab([
  ...asciiCharPieces(),
  ...MERGED.map((piece, rank) => ({ piece, score: -(rank + 1) })),
]);
const spmFolder = writeTokenizerFolder(path.join(directory, 'spm'), spmFromVocab(vocab));
const bpeFolder = writeTokenizerFolder(path.join(directory, 'bpe'), byteLevelBpe());
const modelPath = path.join(directory, 'spm.gguf');
await writeFile(modelPath, writeGguf(randomLlamaGguf({ seed: 5, vocab, contextLength: 96 })));

const TEXTS = [
  'the thing and the quick brown fox',
  'Singing and dancing: thanks, then the end.',
  'tabs\tand\nnewlines, digits 0123 and (brackets)!',
];

let engine: GgufBackend;
let server: RunningServer;
beforeAll(async () => {
  engine = await GgufBackend.create({ modelPath, threads: 1, sequences: 2, nCtx: 96 });
  server = await startServer({ model: engine, name: 'spm', port: 0, concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
  await rm(directory, { recursive: true, force: true });
});

async function post(route: string, body: unknown) {
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies checked field by field
  return (await response.json()) as any;
}

function remoteTokenizer(): RemoteTokenizer {
  const client = (route: string) =>
    new HttpClient({
      model: 'spm',
      urls: [serverUrl(`${server.url}/v1/completions`, route)],
      headers: {},
      numConcurrent: 2,
      maxAttempts: 1,
      timeoutMs: 10_000,
      retryBackoffMs: 0,
      maxRetryWaitMs: 0,
      rateLimiter: new RateLimiter(undefined, undefined),
      usage: new UsageRecorder(),
    });
  return new RemoteTokenizer(client('/tokenize'), 'spm', client('/detokenize'), {
    baseUrl: `${server.url}/v1/completions`,
    headers: {},
    timeoutMs: 10_000,
  });
}

describe('the documented behaviour of each tokenizer model', () => {
  it('byte-level BPE (GPT-2) applies merges by rank and adds no special tokens', async () => {
    const tokenizer = await loadLocal(bpeFolder, 'bpe');
    // "low" then "Ġlower": l-o (rank 0), lo-w (1), e-r (2); "Ġ lo" (3) never applies, lo already became low.
    expect(await tokenizer.encode('low lower')).toEqual([7, 5, 7, 8]);
    expect(await tokenizer.encode('lowest')).toEqual([7, 3, 11, 12]);
    expect(await tokenizer.encode('low lower', true)).toEqual([7, 5, 7, 8]);
    expect(await tokenizer.decode([7, 5, 7, 8])).toBe('low lower');
    // GPT-2: no BOS is added, and lm-eval's prefix_token_id is bos_token_id, <|endoftext|>.
    expect(await tokenizer.bos()).toBeNull();
    expect(await tokenizer.prefixToken()).toBe(13);
    const bytes = readFileSync(path.join(bpeFolder, 'tokenizer.json'));
    expect(tokenizer.describe()).toEqual({
      backend: 'huggingface',
      name: 'bpe',
      source: path.join(bpeFolder, 'tokenizer.json'),
      sha256: sha256(bytes),
      vocabSize: 14,
      vocabSha256: sha256(
        JSON.stringify([
          'l',
          'o',
          'w',
          'e',
          'r',
          'Ġ',
          'lo',
          'low',
          'er',
          'Ġlo',
          'n',
          's',
          't',
          '<|endoftext|>',
        ]),
      ),
    });
  });

  it('WordPiece (BERT) takes the longest vocabulary match, continues with ##, and wraps in [CLS] … [SEP]', async () => {
    const folder = writeTokenizerFolder(path.join(directory, 'wordpiece'), wordPiece());
    const tokenizer = await loadLocal(folder, 'wp');
    // The BERT paper's example: "unaffable" → un ##aff ##able (after lowercasing).
    expect(await tokenizer.encode('UnAffable!')).toEqual([4, 5, 6, 8]);
    expect(await tokenizer.encode('UnAffable!', true)).toEqual([2, 4, 5, 6, 8, 3]);
    // A word with no full segmentation is one [UNK]; "runs" is in the vocabulary whole.
    expect(await tokenizer.encode('xyz runs')).toEqual([1, 9]);
    expect(await tokenizer.decode([2, 10, 11, 4, 5, 6, 3])).toBe('runs unaffable');
  });

  it('SentencePiece-style BPE merges the best-scoring pair first and falls back to bytes', async () => {
    const tokenizer = await loadLocal(spmFolder, 'spm');
    const id = (piece: string) => vocab.tokens.indexOf(piece);
    // ▁ t h e: t-h (score -1) beats h-e (-2), then th-e (-3), then ▁-the (-5): one piece.
    expect(await tokenizer.encode(' the')).toEqual([id(`${SPM_SPACE}the`)]);
    expect(await tokenizer.encode('thing')).toEqual([id('th'), id('ing')]);
    // é is not a piece: its UTF-8 bytes C3 A9 become <0xC3> <0xA9> (ids 3 + byte).
    expect(await tokenizer.encode('é')).toEqual([3 + 0xc3, 3 + 0xa9]);
    expect(await tokenizer.decode([3 + 0xc3, 3 + 0xa9])).toBe('é');
    expect(await tokenizer.encode('the', true)).toEqual([1, id('the')]);
  });
});

describe('a tokenizer.json written from a GGUF vocabulary tokenizes as assay serve does', () => {
  it('has the same ids as /tokenize, the same text as /detokenize and the same vocabulary hash', async () => {
    const tokenizer = await loadLocal(spmFolder, 'spm');
    for (const text of [...TEXTS, ' leading space', 'the  double  spaces', 'ünïcödé and emoji 🙂']) {
      for (const special of [false, true]) {
        const served = await post('/tokenize', { model: 'spm', prompt: text, add_special_tokens: special });
        expect(await tokenizer.encode(text, special), `${text} ${special}`).toEqual(served.tokens);
      }
      const ids = await tokenizer.encode(text);
      expect(await tokenizer.decode(ids)).toBe(
        (await post('/detokenize', { model: 'spm', tokens: ids })).prompt,
      );
    }
    const info = await (await fetch(`${server.url}/tokenizer_info`)).json();
    expect(tokenizer.describe().vocabSha256).toBe(info.vocab_sha256);
    expect(tokenizer.describe().vocabSize).toBe(info.vocab_size);
  });
});

runTokenizerConformance({
  name: 'huggingface (SentencePiece-style tokenizer.json)',
  backend: 'huggingface',
  create: () => loadLocal(spmFolder, 'spm'),
  texts: TEXTS,
});
runTokenizerConformance({
  name: 'huggingface (byte-level BPE tokenizer.json)',
  backend: 'huggingface',
  create: () => loadLocal(bpeFolder, 'bpe'),
  texts: ['low lower', 'lowest slower'],
});
runTokenizerConformance({
  name: "remote (assay serve's /tokenize)",
  backend: 'remote',
  create: () => remoteTokenizer(),
  texts: TEXTS,
});

describe('tokenizer= as lm-eval takes it', () => {
  it('finds a tokenizer.json, a model folder, and a Hub id in the Hugging Face cache without a network', async () => {
    const file = path.join(spmFolder, 'tokenizer.json');
    const config = path.join(spmFolder, 'tokenizer_config.json');
    expect(localTokenizerFolder(file)).toEqual({ name: file, folder: spmFolder, file, configFile: config });
    expect(localTokenizerFolder(spmFolder)).toEqual({
      name: spmFolder,
      folder: spmFolder,
      file,
      configFile: config,
    });
    // huggingface_hub's layout: refs/main names the commit; snapshot files are symlinks to blobs.
    const cache = path.join(directory, 'hf-cache');
    const repo = path.join(cache, 'models--org--tiny-llama');
    const commit = 'a'.repeat(40);
    mkdirSync(path.join(repo, 'blobs'), { recursive: true });
    mkdirSync(path.join(repo, 'refs'), { recursive: true });
    mkdirSync(path.join(repo, 'snapshots', commit), { recursive: true });
    writeFileSync(path.join(repo, 'refs', 'main'), commit);
    for (const name of ['tokenizer.json', 'tokenizer_config.json']) {
      const bytes = readFileSync(path.join(spmFolder, name));
      writeFileSync(path.join(repo, 'blobs', sha256(bytes)), bytes);
      symlinkSync(path.join('..', '..', 'blobs', sha256(bytes)), path.join(repo, 'snapshots', commit, name));
    }
    const snapshot = path.join(repo, 'snapshots', commit);
    const expected = (revision: string) => ({
      name: 'org/tiny-llama',
      folder: snapshot,
      file: path.join(snapshot, 'tokenizer.json'),
      configFile: path.join(snapshot, 'tokenizer_config.json'),
      hub: { repo: 'org/tiny-llama', revision, commit, from: 'cache' },
    });
    // HF_HUB_OFFLINE: read from the cache alone (the Hub download is tested in tokenizer-folder.e2e.test.ts).
    const offline = { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: '1' };
    expect(await tokenizerFolder('org/tiny-llama', { env: offline })).toEqual(expected('main'));
    expect(
      await tokenizerFolder('org/tiny-llama', {
        revision: commit,
        env: { ...offline, HF_HOME: path.dirname(cache) },
      }),
    ).toEqual(expected(commit));
    await expect(tokenizerFolder('org/tiny-llama', { revision: 'v2', env: offline })).rejects.toThrow(
      `tokenizer=org/tiny-llama: not a file or folder, and not in the Hugging Face cache (${repo}): HF_HUB_OFFLINE is set; the cache has no revision "v2"; pass tokenizer=PATH (a tokenizer.json or a model folder), use the server's tokenizer with tokenizer_backend=remote, or send text prompts with tokenized_requests=false`,
    );
  });

  it('names what a folder without tokenizer.json has, and a path that does not exist', () => {
    const slow = path.join(directory, 'slow');
    mkdirSync(slow);
    writeFileSync(path.join(slow, 'tokenizer.model'), 'x');
    expect(() => localTokenizerFolder(slow)).toThrow(
      `tokenizer=${slow}: ${slow} has no tokenizer.json (only tokenizer.model, a slow tokenizer's files); assay reads fast tokenizers only`,
    );
    expect(() => localTokenizerFolder('./no/such/tokenizer.json')).toThrow(
      'tokenizer=./no/such/tokenizer.json: no such file or folder',
    );
  });

  it('checks tokenizer_backend against tokenizer and tokenized_requests before anything is read', () => {
    const base = { model: 'spm', base_url: 'http://127.0.0.1:9/v1/completions' };
    const check = (extra: Record<string, unknown>) => () =>
      validateHttpModelArgs('local-completions', { ...base, ...extra });
    expect(check({ tokenizer: spmFolder })).not.toThrow();
    expect(check({ tokenizer_backend: 'remote', tokenized_requests: true })).not.toThrow();
    expect(check({ tokenizer_backend: null })).not.toThrow();
    expect(check({ tokenizer_backend: null, tokenized_requests: true })).toThrow(
      'tokenizer_backend=none sends text prompts, so tokenized_requests=true has no tokenizer',
    );
    expect(check({ tokenizer: spmFolder, tokenizer_backend: 'remote' })).toThrow(
      "names a local tokenizer, but tokenizer_backend=remote uses the server's /tokenize",
    );
    expect(check({ tokenizer: spmFolder, tokenized_requests: false })).toThrow(
      'tokenized_requests=false sends text; drop one',
    );
    // A path is checked before anything starts; a Hub id (the model's own name, as lm-eval's
    // AutoTokenizer(model)) only the Hub or the cache can answer, when the backend is opened.
    expect(check({ tokenizer: './no/such/tokenizer.json' })).toThrow(
      'tokenizer=./no/such/tokenizer.json: no such file or folder',
    );
    expect(check({ tokenizer_backend: 'huggingface', model: 'org/not-cached' })).not.toThrow();
    expect(check({ tokenizer_backend: 'sentencepiece' })).toThrow('tokenizer_backend');
  });
});

describe('local-completions with a local tokenizer', () => {
  let client: CompletionsBackend;
  beforeAll(async () => {
    client = await openHttpBackend('local-completions', {
      model: 'spm',
      base_url: `${server.url}/v1/completions`,
      tokenizer: spmFolder,
      // The GGUF adds BOS in process; lm-eval's API backends add it only with add_bos_token.
      add_bos_token: true,
      max_length: 96,
      batch_size: 2,
    });
  });
  afterAll(() => client?.close?.());

  it('sends token ids and scores as the in-process backend does, and records the tokenizer', async () => {
    expect(client.capabilities.tokenScoring).toBe(true);
    const requests = [
      { context: 'the thing and', continuation: ' the end' },
      { context: 'Singing ', continuation: 'and dancing' },
      { context: '', continuation: 'the quick' },
    ];
    const [remote, local] = await Promise.all([
      client.loglikelihood({ requests }),
      engine.loglikelihood({ requests }),
    ]);
    remote.forEach((answer, index) => {
      const expected = local[index] as { logprob: number; isGreedy: boolean };
      expect((answer as { logprob: number }).logprob).toBeCloseTo(expected.logprob, 4);
      expect((answer as { isGreedy: boolean }).isGreedy).toBe(expected.isGreedy);
    });
    const file = path.join(spmFolder, 'tokenizer.json');
    expect(client.info().tokenizer).toEqual({
      backend: 'huggingface',
      name: spmFolder,
      file,
      sha256: sha256(readFileSync(file)),
      vocab_size: vocab.tokens.length,
      vocab_sha256: sha256(JSON.stringify(vocab.tokens)),
    });
    const served = await client.tokenizerInfo();
    expect(served).toEqual({ ...(await engine.tokenizerInfo()), name: spmFolder, maxWindowTokens: 96 });
  });

  it('truncates to max_length as the server tokenizer does: the same prompts, the same scores', async () => {
    const common = {
      model: 'spm',
      base_url: `${server.url}/v1/completions`,
      max_length: 6,
      add_bos_token: true,
    };
    const local = await openHttpBackend('local-completions', { ...common, tokenizer: spmFolder });
    // remote named rather than left to lm-eval's auto default (utils.py check_remote_tokenizer_support).
    const remote = await openHttpBackend('local-completions', { ...common, tokenizer_backend: 'remote' });
    try {
      const requests = [
        { context: 'Singing and dancing: thanks, then', continuation: ' the end.' },
        { context: 'the quick brown fox and the', continuation: ' thing' },
      ];
      const [fromLocal, fromRemote] = await Promise.all([
        local.loglikelihood({ requests }),
        remote.loglikelihood({ requests }),
      ]);
      expect(fromLocal).toEqual(fromRemote);
      // Truncated: the whole context would score differently.
      const whole = await engine.loglikelihood({ requests });
      expect((fromLocal[0] as { logprob: number }).logprob).not.toBeCloseTo(
        (whole[0] as { logprob: number }).logprob,
        3,
      );
    } finally {
      await local.close?.();
      await remote.close?.();
    }
  });

  it("gives rolling perplexity over lm-eval's token list, and strided perplexity equal to the in-process backend", async () => {
    const text = TEXTS.join(' ');
    const [rolling] = await client.loglikelihoodRolling({ requests: [{ text }] });
    // lm-eval's TemplateAPI.loglikelihood_rolling windows tok_encode(string), which with add_bos_token=True
    // starts with BOS, after the prefix token BOS (api_models.py): llama.cpp's scores of that sequence.
    const tokens = await engine.tokenize(text, true);
    const [scores] = await engine.scoreTokenWindows({
      requests: [{ tokens: [tokens[0], ...tokens], scoreFrom: 1 }],
    });
    expect(rolling as number).toBeCloseTo(
      scores.reduce((a, b) => a + b, 0),
      3,
    );
    const options = { mode: 'strided', maxLength: 32, stride: 8 } as const;
    const source = { file: 'text', sha256: '' };
    const [remote, local] = await Promise.all([
      textPerplexity(client, text, options, source),
      textPerplexity(engine, text, options, source),
    ]);
    expect(remote.scored_tokens).toBe(local.scored_tokens);
    expect(Math.abs(remote.loglikelihood - local.loglikelihood)).toBeLessThan(1e-4);
  });
});

describe('assay run with tokenizer=FOLDER (CLI)', () => {
  it('evaluates with token ids from the local tokenizer and records its sha256 in the manifest', async () => {
    const taskDir = path.join(directory, 'task');
    mkdirSync(taskDir);
    const docs = ['the thing', 'and the end', 'Singing quick'].map((question, i) =>
      JSON.stringify({ question, choices: [' and', ' the', ' ing'], answer: i % 3 }),
    );
    writeFileSync(path.join(taskDir, 'test.jsonl'), `${docs.join('\n')}\n`);
    writeFileSync(
      path.join(taskDir, 'tok_mc.yaml'),
      [
        'task: tok_mc',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        `    test: ${path.join(taskDir, 'test.jsonl')}`,
        'test_split: test',
        'output_type: multiple_choice',
        'doc_to_text: "{{question}}"',
        'doc_to_choice: "{{choices}}"',
        'doc_to_target: answer',
        '',
      ].join('\n'),
    );
    const output = path.join(directory, 'cli-out');
    const args = [
      'run',
      '--model',
      'local-completions',
      '--model_args',
      `model=spm,base_url=${server.url}/v1/completions,tokenizer=${spmFolder},tokenizer_backend=huggingface`,
      '--tasks',
      path.join(taskDir, 'tok_mc.yaml'),
      '--output_path',
      output,
    ];
    // The server lives in this process, so the CLI runs asynchronously.
    const { status, stderr } = await runCliAsync(args);
    expect(status, stderr).toBe(0);
    const results = readResultsFile(findOne(path.join(output, 'spm'), /^results_.*\.json$/));
    // The manifest and the run's model_args are assay's blocks, typed as the contract writes them.
    const manifest = results.manifest as Manifest;
    const modelArgs = results.config.model_args as Manifest['model']['model_args'];
    const file = path.join(spmFolder, 'tokenizer.json');
    expect(manifest.model.info.tokenizer).toEqual({
      backend: 'huggingface',
      name: spmFolder,
      file,
      sha256: sha256(readFileSync(file)),
      vocab_size: vocab.tokens.length,
      vocab_sha256: sha256(JSON.stringify(vocab.tokens)),
    });
    expect(modelArgs.tokenizer).toBe(spmFolder);
    // The BOS rule applied, as lm-eval's local-completions (api_models.py TemplateAPI add_bos_token=False).
    expect(manifest.model.info.add_bos_token).toEqual({
      value: false,
      source: 'default',
      rule: "lm-eval's local-completions (TemplateAPI add_bos_token=False): no special tokens",
    });
  });
});
