import { statSync } from 'node:fs';
import os from 'node:os';
import {
  type ControlledEvaluateInputItem,
  getModuleVersion,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
  type Token as LlamaToken,
} from 'node-llama-cpp';
import type { GenerateRequest, LoglikelihoodRequest, LoglikelihoodResult } from '../backend.js';
import type { TokenGenerateRequest, TokenGeneration } from '../spec/token-serving.js';
import { llamaErrors } from './llama-errors.js';
import { scoreNative } from './native-schedule.js';
import { loadNativeAddon, type NativeAddon, type NativeHandle, type ScorerChoice } from './native-scorer.js';
import { processLlama } from './process-llama.js';
import {
  cutAtStops,
  encode,
  encodePair,
  rollingScoringInputs,
  type Schedule,
  type ScoringInput,
  scoringInput,
  type Token,
  type Tokenizer,
} from './token-requests.js';

/**
 * The llama.cpp engine behind the gguf backend. It runs inside the worker process (see
 * engine-worker.ts): node-llama-cpp's scoring on several sequences at once is only correct with
 * UV_THREADPOOL_SIZE=1, which must be set before the process starts.
 */

export interface EngineOptions {
  modelPath: string;
  /** Tokens per sequence; default min(2048, the model's training context). */
  nCtx?: number;
  /** CPU threads; default os.availableParallelism(), or 1 for models under 64 MiB (see defaultThreads). */
  threads?: number;
  gpu?: 'auto' | false;
  /** Parallel sequences: requests on different sequences share one llama_decode batch. */
  sequences?: number;
  /** Explicit, never "auto": it shifts log-probabilities by about 1e-3. */
  flashAttention?: boolean;
  /**
   * KV cache element type. F32 by default: with llama.cpp's usual F16 cache, a batched prompt and the
   * same tokens decoded one at a time differ by up to 3e-3 nats per token (measured on stories260K),
   * so scores would depend on batching and prefix sharing. F32 brings that under 1e-5.
   */
  kvCacheType?: 'F32' | 'F16';
  /**
   * How scoring inputs are scheduled; anything but the default exists only to measure what the
   * default saves (bench/gguf.ts). 'shared' (default): identical inputs and common prefixes are
   * evaluated once and inputs are batched across sequences. 'packed': every input from scratch, still
   * batched across sequences. 'alone': every input from scratch in its own evaluation.
   */
  schedule?: Schedule;
  /**
   * Scoring path: 'native' (assay's addon, target log-probabilities only), 'map' (node-llama-cpp's
   * full-vocabulary probabilities Map), or 'auto' (native when it was built, else map). Default auto.
   */
  scorer?: 'auto' | 'native' | 'map';
}

/** A request whose context the backend's chat template rendered (token-requests.ts `encode`'s `special`). */
export interface ChatTemplated {
  chatTemplated?: boolean;
}

export interface EngineInfo {
  architecture: string;
  name?: string;
  fileType?: number;
  quantizationTypes: string[];
  vocabSize: number;
  nCtx: number;
  trainContextSize: number;
  threads: number;
  sequences: number;
  flashAttention: boolean;
  kvCacheType: 'F32' | 'F16';
  gpu: string | false;
  addBos: boolean;
  engine: { name: 'node-llama-cpp'; version: string; llamaCpp: string; binary: 'prebuilt' | 'localBuild' };
  chatTemplate?: string;
  /** Named templates (`tokenizer.chat_template.NAME`), and `tokenizer.chat_template` as `default`. */
  chatTemplates?: Record<string, string>;
  bosString?: string;
  eosString?: string;
  /** The scoring path in use, and why the native one is not (when it is not). */
  scorer: ScorerChoice;
}

export type { TokenGenerateRequest, TokenGeneration } from '../spec/token-serving.js';

/** Log-probabilities of targets and whether each was the argmax, per scoring input. */
export interface ScoredInput {
  logprobs: number[];
  greedy: boolean[];
  /** With topK > 0: per target, the topK most likely tokens and their log-probabilities. */
  top?: Array<Array<[Token, number]>>;
  /** With topK > 0: per target, its rank as vLLM counts it (tokens at least as likely, itself included). */
  ranks?: number[];
}

type GgmlTypeNames = Record<number, string>;

/** A call stopped by its AbortSignal; the message says how far it got. */
export class CancelledError extends Error {
  readonly code = 'cancelled';
  constructor(message: string) {
    super(message);
    this.name = 'AbortError';
  }
}

/** The model file could not be loaded; the message is llama.cpp's reason. */
export class ModelLoadError extends Error {
  readonly code = 'model_load';
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'ModelLoadError';
  }
}

export class GgufEngine {
  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly sequences: LlamaContextSequence[],
    readonly tokenizer: Tokenizer,
    readonly info: EngineInfo,
    private readonly schedule: Schedule,
    private readonly native?: { addon: NativeAddon; handle: NativeHandle; sequences: number; cells: number },
  ) {}

  static async load(options: EngineOptions): Promise<GgufEngine> {
    const threads = options.threads ?? defaultThreads(statSync(options.modelPath).size);
    const errors = llamaErrors;
    const llama = await processLlama({ gpu: options.gpu ?? false, maxThreads: threads });
    let model: LlamaModel;
    try {
      errors.clear();
      model = await llama.loadModel({
        modelPath: options.modelPath,
        gpuLayers: options.gpu === 'auto' ? 'auto' : 0,
      });
    } catch (error) {
      throw new ModelLoadError(await errors.reason((error as Error).message), error);
    }
    const trainContextSize = model.trainContextSize;
    const nCtx = options.nCtx ?? Math.min(2048, trainContextSize);
    const sequenceCount = options.sequences ?? 4;
    const flashAttention = options.flashAttention ?? false;
    const kvCacheType = options.kvCacheType ?? 'F32';
    const context = await model.createContext({
      // One spare cell: node-llama-cpp shifts the context (erasing its start) when a sequence is filled
      // to the last cell, which would corrupt a scoring window of exactly n_ctx tokens.
      contextSize: nCtx + 1,
      sequences: sequenceCount,
      threads,
      flashAttention,
      experimentalKvCacheKeyType: kvCacheType,
      experimentalKvCacheValueType: kvCacheType,
      batchSize: Math.max(512, Math.min(nCtx, 2048)),
    });
    const sequences = Array.from({ length: sequenceCount }, () => context.getSequence());
    const metadata = model.fileInfo.metadata;
    const ggml = metadata.tokenizer.ggml as { add_bos_token?: boolean; tokens: readonly string[] };
    const bos = model.tokens.bos;
    const addBos = ggml.add_bos_token ?? model.tokens.shouldPrependBosToken;
    const prefixToken = bos ?? model.tokens.eos;
    if (prefixToken === null)
      throw new Error('the model has neither a BOS nor an EOS token to start scoring from');
    const tokenizer: Tokenizer = {
      tokenize: (text) => (text === '' ? [] : [...model.tokenize(text, false)]),
      tokenizeSpecial: (text) => (text === '' ? [] : [...model.tokenize(text, true)]),
      bosText: model.tokens.bosString ?? undefined,
      addBos: addBos && bos !== null,
      prefixToken,
      bos,
    };
    const { GgmlType } = await import('node-llama-cpp');
    const typeNames = GgmlType as unknown as GgmlTypeNames;
    const quantizationTypes = [
      ...new Set(
        (model.fileInfo.tensorInfo ?? []).map(
          (tensor) => typeNames[tensor.ggmlType] ?? String(tensor.ggmlType),
        ),
      ),
    ].sort();
    const general = metadata.general as { architecture: string; name?: string; file_type?: number };
    const scorer = openNativeScorer(options, {
      nCtx: Math.min(nCtx, sequences[0].contextSize - 1),
      sequenceCount,
      threads,
      flashAttention,
      kvCacheType,
    });
    const info: EngineInfo = {
      architecture: general.architecture,
      name: general.name,
      fileType: general.file_type,
      quantizationTypes,
      vocabSize: ggml.tokens.length,
      nCtx: Math.min(nCtx, sequences[0].contextSize - 1),
      trainContextSize,
      threads: context.idealThreads,
      sequences: sequenceCount,
      flashAttention: context.flashAttention === true,
      kvCacheType,
      gpu: llama.gpu,
      addBos: tokenizer.addBos,
      engine: {
        name: 'node-llama-cpp',
        version: await getModuleVersion(),
        llamaCpp: llama.llamaCppRelease.release,
        binary: llama.buildType,
      },
      ...chatTemplatesOf(metadata.tokenizer as Record<string, unknown>),
      bosString: model.tokens.bosString ?? undefined,
      eosString: model.tokens.eosString ?? undefined,
      scorer: scorer.choice,
    };
    return new GgufEngine(
      model,
      context,
      sequences,
      tokenizer,
      info,
      options.schedule ?? 'shared',
      scorer.native,
    );
  }

  get maxLength(): number {
    return this.info.nCtx;
  }

  /**
   * `special`: text spelling a special token ("<s>", "<|im_start|>") becomes that token, as Hugging Face
   * tokenizers (and so vLLM) and llama.cpp's server read prompts; assay's own requests keep it as text.
   */
  tokenize(text: string, withBos: boolean, special = false): Token[] {
    if (!special) return withBos ? encode(this.tokenizer, text) : this.tokenizer.tokenize(text);
    const tokens = text === '' ? [] : [...this.model.tokenize(text, true)];
    return withBos && this.tokenizer.addBos && this.tokenizer.bos !== null
      ? [this.tokenizer.bos, ...tokens]
      : tokens;
  }

  detokenize(tokens: Token[]): string {
    return this.model.detokenize(llamaTokens(tokens), false);
  }

  /** Special tokens spelled as their text ("<s>", "<|im_start|>"), as a prompt that contains them spells them. */
  detokenizeSpecial(tokens: Token[]): string {
    return this.model.detokenize(llamaTokens(tokens), true);
  }

  /** A control or end-of-generation token: a generation's text omits it. */
  isSpecialToken(token: Token): boolean {
    return this.model.isSpecialToken(token as LlamaToken);
  }

  /**
   * Scores many inputs. Identical inputs (e.g. single-token choices of one question) are evaluated
   * once; inputs sharing a prefix run on the same sequence one after another, so the prefix stays in
   * the KV cache and only each suffix is evaluated; sequences run concurrently, so their tokens share
   * decode batches.
   */
  async score(inputs: ScoringInput[], onDone?: (index: number) => void, topK = 0): Promise<ScoredInput[]> {
    const results: ScoredInput[] = inputs.map((input) => ({
      logprobs: new Array(input.targets.length),
      greedy: new Array(input.targets.length),
    }));
    if (this.native) {
      inputs.forEach((item, index) => {
        if (item.targets.length === 0) onDone?.(index);
      });
      const { addon, handle, sequences, cells } = this.native;
      await scoreNative(
        addon,
        handle,
        inputs,
        { sequences, cells, schedule: this.schedule },
        results,
        onDone,
        topK,
      );
      return results;
    }
    // Groups of identical inputs; each group is scored from the earliest position any member needs.
    const groups = new Map<string, { input: Token[]; scoredFrom: number; members: number[] }>();
    inputs.forEach((item, index) => {
      // Nothing to score (empty continuation): log-probability 0, trivially greedy.
      if (item.targets.length === 0) {
        onDone?.(index);
        return;
      }
      const key = this.schedule === 'shared' ? item.input.join(',') : String(index);
      const group = groups.get(key);
      if (group) {
        group.members.push(index);
        group.scoredFrom = Math.min(group.scoredFrom, item.scoredFrom);
      } else groups.set(key, { input: item.input, scoredFrom: item.scoredFrom, members: [index] });
    });
    // Clusters of groups with the same unscored prefix go to one sequence, in token order.
    const clusters = new Map<
      string,
      { prefix: Token[]; groups: Array<{ input: Token[]; scoredFrom: number; members: number[] }> }
    >();
    for (const group of groups.values()) {
      const prefix = group.input.slice(0, group.scoredFrom);
      const key = this.schedule === 'shared' ? prefix.join(',') : `${clusters.size}`;
      const cluster = clusters.get(key);
      if (cluster) cluster.groups.push(group);
      else clusters.set(key, { prefix, groups: [group] });
    }
    const queue = [...clusters.values()].sort((a, b) => compareTokens(a.prefix, b.prefix));
    const worker = async (sequence: LlamaContextSequence) => {
      for (let cluster = queue.shift(); cluster; cluster = queue.shift()) {
        for (const group of cluster.groups) {
          const outputs = await this.evaluateFrom(sequence, group.input, group.scoredFrom);
          for (const member of group.members) {
            const item = inputs[member];
            item.targets.forEach((target, j) => {
              const probabilities = outputs[item.scoredFrom + j - group.scoredFrom];
              const probability = probabilities.get(target) ?? 0;
              results[member].logprobs[j] = Math.log(probability);
              results[member].greedy[j] = probabilities.keys().next().value === target;
              if (topK > 0) {
                // The Map is ordered by probability, most likely first.
                const top: Array<[Token, number]> = [];
                let rank = 0;
                for (const [token, other] of probabilities) {
                  if (top.length < topK) top.push([token, Math.log(other)]);
                  if (other >= probability) rank++;
                  else if (top.length === topK) break;
                }
                const tops = results[member].top ?? [];
                tops[j] = top;
                results[member].top = tops;
                const ranks = results[member].ranks ?? [];
                ranks[j] = rank;
                results[member].ranks = ranks;
              }
            });
            onDone?.(member);
          }
        }
      }
    };
    await Promise.all((this.schedule === 'alone' ? this.sequences.slice(0, 1) : this.sequences).map(worker));
    return results;
  }

  /**
   * Brings the sequence to `input`, reusing the longest cached prefix (but never past `scoredFrom`,
   * whose outputs we need), and returns the next-token distribution at each position from scoredFrom.
   */
  private async evaluateFrom(
    sequence: LlamaContextSequence,
    input: Token[],
    scoredFrom: number,
  ): Promise<Array<Map<Token, number>>> {
    const keep =
      this.schedule === 'shared'
        ? Math.min(commonPrefixLength(sequence.contextTokens, input), scoredFrom)
        : 0;
    if (sequence.nextTokenIndex > keep) {
      await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    }
    const items: ControlledEvaluateInputItem[] = llamaTokens(input)
      .slice(keep)
      .map((token, j) =>
        keep + j >= scoredFrom ? [token, { generateNext: { probabilities: true } }] : token,
      );
    const outputs = await sequence.controlledEvaluate(items);
    const maps: Array<Map<Token, number>> = [];
    for (let position = scoredFrom; position < input.length; position++) {
      const probabilities = outputs[position - keep]?.next.probabilities;
      if (!probabilities) throw new Error(`no probabilities returned at position ${position}`);
      maps.push(probabilities);
    }
    return maps;
  }

  async loglikelihood(
    requests: Array<LoglikelihoodRequest & ChatTemplated>,
    onDone?: (index: number) => void,
  ): Promise<LoglikelihoodResult[]> {
    const inputs = requests.map((request) => {
      const pair = encodePair(this.tokenizer, request.context, request.continuation, request.chatTemplated);
      return scoringInput(pair.context, pair.continuation, this.maxLength);
    });
    const scored = await this.score(inputs, onDone);
    return scored.map((result) => ({
      logprob: sum(result.logprobs),
      isGreedy: result.greedy.every(Boolean),
    }));
  }

  /** Sum over lm-eval's disjoint rolling windows (context_len = 1, max_length = n_ctx). */
  async loglikelihoodRolling(texts: string[], onDone?: (index: number) => void): Promise<number[]> {
    const owners: number[] = [];
    const inputs: ScoringInput[] = [];
    const remaining = texts.map(() => 0);
    texts.forEach((text, index) => {
      for (const window of rollingScoringInputs(this.tokenizer, text, this.maxLength)) {
        owners.push(index);
        inputs.push(window);
        remaining[index] += 1;
      }
    });
    const totals = texts.map(() => 0);
    texts.forEach((_, index) => {
      if (remaining[index] === 0) onDone?.(index);
    });
    const scored = await this.score(inputs, (windowIndex) => {
      const owner = owners[windowIndex];
      remaining[owner] -= 1;
      if (remaining[owner] === 0) onDone?.(owner);
    });
    scored.forEach((result, windowIndex) => {
      totals[owners[windowIndex]] += sum(result.logprobs);
    });
    return totals;
  }

  /** Greedy (or seeded sampling when doSample) generation until a stop string, EOS or maxGenToks. */
  /** `signal` stops the generation between tokens (with a CancelledError), leaving the engine usable. */
  async generate(
    requests: Array<GenerateRequest & ChatTemplated>,
    onDone?: (index: number) => void,
    signal?: AbortSignal,
  ): Promise<string[]> {
    const results: string[] = new Array(requests.length);
    const queue = requests.map((_, index) => index);
    const worker = async (sequence: LlamaContextSequence) => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        results[index] = await this.generateOne(sequence, requests[index], signal);
        onDone?.(index);
      }
    };
    // Every sequence finishes its step before the call returns, so the next call never shares one.
    const settled = await Promise.allSettled(this.sequences.map(worker));
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return results;
  }

  /**
   * Generation from the given prompt tokens (assay serve's token-id prompts and its own tokenization),
   * with the generated tokens and why it stopped: 'length' at maxGenToks, else 'stop' (EOS, a stop
   * string, or the context's end).
   */
  async generateTokens(requests: TokenGenerateRequest[], signal?: AbortSignal): Promise<TokenGeneration[]> {
    const results: TokenGeneration[] = [];
    for (const request of requests) {
      if (request.tokens.length === 0) throw new Error('generation needs at least one prompt token');
      if (request.tokens.length > this.maxLength) {
        throw new Error(
          `the prompt has ${request.tokens.length} tokens; the context holds ${this.maxLength}`,
        );
      }
      results.push(await this.generateFrom(this.sequences[0], request.tokens, request, signal));
    }
    return results;
  }

  private async generateOne(
    sequence: LlamaContextSequence,
    request: GenerateRequest & ChatTemplated,
    signal?: AbortSignal,
  ): Promise<string> {
    const maxGenToks = Math.max(0, Math.min(request.maxGenToks, this.maxLength - 1));
    const contextTokens = encode(this.tokenizer, request.context, request.chatTemplated).slice(
      -(this.maxLength - maxGenToks),
    );
    if (contextTokens.length === 0) contextTokens.push(this.tokenizer.prefixToken);
    return (await this.generateFrom(sequence, contextTokens, request, signal)).text;
  }

  private async generateFrom(
    sequence: LlamaContextSequence,
    contextTokens: Token[],
    request: Omit<GenerateRequest, 'context'>,
    signal?: AbortSignal,
  ): Promise<TokenGeneration> {
    const maxGenToks = Math.max(0, Math.min(request.maxGenToks, this.maxLength - 1));
    if (maxGenToks === 0) return { text: '', tokens: [], finish: 'length' };
    const keep = Math.min(
      commonPrefixLength(sequence.contextTokens, contextTokens),
      contextTokens.length - 1,
    );
    if (sequence.nextTokenIndex > keep) {
      await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    }
    const sampling = request.doSample
      ? {
          temperature: request.temperature > 0 ? request.temperature : 1,
          seed: Number(request.extra.seed ?? 1234),
          topP: typeof request.extra.top_p === 'number' ? request.extra.top_p : undefined,
          topK: typeof request.extra.top_k === 'number' ? request.extra.top_k : undefined,
        }
      : { temperature: 0 };
    const tail = llamaTokens(contextTokens.slice(-16));
    const generated: LlamaToken[] = [];
    let pending = llamaTokens(contextTokens.slice(keep));
    let finish: TokenGeneration['finish'] = 'length';
    let eog: LlamaToken | undefined;
    let stop: string | undefined;
    while (generated.length < maxGenToks) {
      if (signal?.aborted) {
        throw new CancelledError(`generation cancelled after ${generated.length} of ${maxGenToks} tokens`);
      }
      const items: ControlledEvaluateInputItem[] = pending.map((token, j) =>
        j === pending.length - 1 ? [token, { generateNext: { token: true, options: sampling } }] : token,
      );
      const outputs = await sequence.controlledEvaluate(items);
      const next = outputs[pending.length - 1]?.next.token;
      if (next === undefined || next === null || this.model.isEogToken(next)) {
        finish = 'stop';
        // The end-of-generation token was generated, as vLLM counts it, though the text omits it.
        if (next !== undefined && next !== null) eog = next;
        break;
      }
      generated.push(next);
      const text = this.model.detokenize(generated, false, tail);
      const cut = cutAtStops(text, request.until);
      if (cut !== text) {
        finish = 'stop';
        stop = request.until.find((candidate) => candidate !== '' && text.indexOf(candidate) === cut.length);
        break;
      }
      // The context is full: vLLM caps max_tokens at the context, so this is a 'length' finish too.
      if (sequence.nextTokenIndex + 1 >= this.maxLength) break;
      pending = [next];
    }
    return {
      text: cutAtStops(this.model.detokenize(generated, false, tail), request.until),
      tokens: eog === undefined ? [...generated] : [...generated, eog],
      finish,
      ...(stop !== undefined ? { stop } : {}),
    };
  }

  async close(): Promise<void> {
    if (this.native) this.native.addon.close(this.native.handle);
    await this.context.dispose();
    await this.model.dispose();
  }
}

/**
 * Opens the native scorer on the same model file unless the Map path was asked for. With 'auto' a
 * missing or failing addon is not an error: the Map path is exact too, only slower, and the reason is
 * recorded. The model's weights are mmapped, so a second llama.cpp model costs little memory.
 */
function openNativeScorer(
  options: EngineOptions,
  shape: {
    nCtx: number;
    sequenceCount: number;
    threads: number;
    flashAttention: boolean;
    kvCacheType: 'F32' | 'F16';
  },
): {
  choice: ScorerChoice;
  native?: { addon: NativeAddon; handle: NativeHandle; sequences: number; cells: number };
} {
  const wanted = options.scorer ?? 'auto';
  if (wanted === 'map') return { choice: { path: 'map', reason: 'scorer=map was asked for' } };
  const loaded = loadNativeAddon();
  let reason: string;
  if (loaded.addon) {
    try {
      const batchSize = Math.max(512, Math.min(shape.nCtx, 2048));
      const handle = loaded.addon.open(options.modelPath, {
        // Room for every sequence's full window, as the Map path's context has.
        nCtx: shape.nCtx * shape.sequenceCount + 1,
        batchSize,
        sequences: NATIVE_SEQUENCE_SLOTS,
        threads: shape.threads,
        flashAttention: shape.flashAttention,
        kvF32: shape.kvCacheType === 'F32',
        gpuLayers: options.gpu === 'auto' ? 999 : 0,
        backendDir: loaded.bins,
      });
      return {
        choice: { path: 'native', llamaCppCommit: loaded.llamaCppCommit },
        // Batches are packed up to 256 KV cells (or one full window): every token of a unified cache
        // attends over all occupied cells, so bigger batches only add masked work. On bench/gguf.ts's
        // multiple choice, 256 cells took 1.12 s, 512 took 1.64 s and 1024 took 2.22 s.
        native: {
          addon: loaded.addon,
          handle,
          sequences: NATIVE_SEQUENCE_SLOTS,
          cells: Math.min(shape.nCtx * shape.sequenceCount, Math.max(shape.nCtx, 256)),
        },
      };
    } catch (error) {
      reason = `native scorer failed to open the model: ${error instanceof Error ? error.message : String(error)}`;
    }
  } else reason = loaded.reason;
  if (wanted === 'native') throw new Error(`scorer=native: ${reason}`);
  return { choice: { path: 'map', reason } };
}

/** The addon takes sequence sets as 32-bit masks. */
const NATIVE_SEQUENCE_SLOTS = 32;

/**
 * All cores for real models; one thread for tiny ones, where ggml's per-op thread barriers cost more
 * than the arithmetic: a 32-wide test model took 0.4 ms per decoded token on 1 thread and
 * 90–330 ms on 2 threads of a loaded 2-core machine.
 */
export function defaultThreads(modelBytes: number): number {
  return modelBytes < 64 * 1024 * 1024 ? 1 : os.availableParallelism();
}

/** node-llama-cpp brands its token type; ours are the same plain numbers. */
function llamaTokens(tokens: readonly Token[]): LlamaToken[] {
  return tokens as LlamaToken[];
}

function sum(values: number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a[i] === b[i]) i++;
  return i;
}

function compareTokens(a: readonly Token[], b: readonly Token[]): number {
  const limit = Math.min(a.length, b.length);
  for (let i = 0; i < limit; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * The chat templates in GGUF metadata: `tokenizer.chat_template`, and llama.cpp's named ones,
 * `tokenizer.chat_template.NAME` (node-llama-cpp nests keys by their dots and keeps `chat_template.NAME`
 * whole beside a string `chat_template`).
 */
function chatTemplatesOf(
  tokenizer: Record<string, unknown>,
): Pick<EngineInfo, 'chatTemplate' | 'chatTemplates'> {
  const templates: Record<string, string> = {};
  const main = tokenizer.chat_template;
  if (typeof main === 'string') templates.default = main;
  const nested = main && typeof main === 'object' ? Object.entries(main as Record<string, unknown>) : [];
  const flat = Object.entries(tokenizer)
    .filter(([key]) => key.startsWith('chat_template.'))
    .map(([key, value]) => [key.slice('chat_template.'.length), value] as const);
  for (const [name, value] of [...nested, ...flat]) if (typeof value === 'string') templates[name] = value;
  return Object.keys(templates).length ? { chatTemplate: templates.default, chatTemplates: templates } : {};
}
