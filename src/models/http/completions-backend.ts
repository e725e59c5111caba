import type { ResponseCache } from '../../cache/response-cache.js';
import { AssayError } from '../../errors.js';
import {
  type Answer,
  type BackendCapabilities,
  type ChatMessage,
  type ChatTemplating,
  type GenerateCallOptions,
  type GenerateRequest,
  type Generation,
  type GenerationLogprobs,
  type LoglikelihoodCallOptions,
  type LoglikelihoodRequest,
  type LoglikelihoodResult,
  type ModelBackend,
  type ModelInfo,
  type ProgressSink,
  RequestError,
  type RollingCallOptions,
  type TokenizerInfo,
  type TokenScoring,
  type TokenWindowsCallOptions,
  type UsageReporting,
  type UsageSummary,
} from '../backend.js';
import { type ChatTemplateLookup, chatTemplateInfo } from '../chat-template/chat-templates.js';
import { thinkEndText } from '../thinking.js';
import type { Tokenizer, TokenizerIdentity } from '../tokenizers/tokenizer.js';
import {
  type ChoiceReader,
  completionsGeneration,
  parseScoringResponse,
  readLoglikelihood,
  readWindow,
  type ScoredAnswers,
  type ScoredPrompt,
  scoringPayload,
} from './completions-endpoint.js';
import { codePoints, NoPromptLogprobs } from './completions-response.js';
import { HttpClient, type HttpClientOptions, type PostOutcome } from './http-client.js';
import type { HttpModelArgs } from './model-args.js';
import { RateLimiter } from './rate-limiter.js';
import { RemoteTokenizer, serverUrl, tokenizeUrl } from './remote-tokenizer.js';
import { batchesOf } from './request-batches.js';
import { rollingWindows } from './rolling-windows.js';
import { clientSettings, servedClient } from './served-client.js';
import { describeBatch, generateServed } from './served-loop.js';
import { emptyContextPair, encodePrompt } from './special-tokens.js';
import { streamJobs } from './stream-jobs.js';
import { UsageRecorder } from './usage-recorder.js';

/** What the backend is told besides its model args, by whoever builds it. */
export interface CompletionsSettings {
  /**
   * Where the task's stop strings apply with `think_end_token`: only `after` the thinking is removed, the
   * server getting none (lm-eval's vllm backend, as stops like "\n\n" occur inside thinking; the default),
   * or on the `server` as well (lm-eval's sglang backend sends them).
   */
  stopsWithThinking?: 'after' | 'server';
}

/**
 * `local-completions` / `openai-completions`: /v1/completions as vLLM and SGLang serve it. Loglikelihood
 * asks for the prompt's own log-probabilities (`echo: true, logprobs: 1, max_tokens: 1`) and sums the
 * continuation's; generation sends `prompt, max_tokens, temperature, stop, seed`.
 */
export class CompletionsBackend
  implements ModelBackend, TokenScoring, GenerationLogprobs, UsageReporting, ChatTemplating
{
  readonly specificationVersion = 'v2';
  readonly capabilities: BackendCapabilities;
  private readonly client: HttpClient;
  private readonly usageRecorder: UsageRecorder;
  private readonly tokenizer?: Tokenizer;
  private tokenizerClient?: HttpClient;
  private detokenizeClient?: HttpClient;
  private tokenizerIdentity?: Promise<TokenizerInfo>;
  /** vLLM's prompt_logprobs: true or false once known; undefined until the first answer settles it. */
  private promptLogprobsSupport: boolean | undefined;
  /** A local tokenizer's identity, recorded in the manifest. */
  private localIdentity?: TokenizerIdentity;
  /** think_end_token's text, read once (a token id through the tokenizer). */
  private thinkEnd?: Promise<string>;
  private readonly stopsWithThinking: 'after' | 'server';
  /** `num_concurrent`: requests in flight at once. */
  readonly concurrency: number;

  constructor(
    readonly name: string,
    private readonly args: HttpModelArgs,
    private readonly cache?: ResponseCache,
    /** tokenizer_backend=huggingface: the local tokenizer, loaded by the caller. */
    localTokenizer?: Tokenizer & { describe(): TokenizerIdentity },
    /** Injected into its HTTP clients (tests: a sleep that records waits; see HttpClientOptions), and settings. */
    options: Pick<HttpClientOptions, 'sleep'> & CompletionsSettings = {},
    /** The model's chat templates (its tokenizer's), or where they were looked for. */
    private readonly chatTemplates: ChatTemplateLookup = { missing: 'no tokenizer folder was given' },
  ) {
    const { stopsWithThinking = 'after', ...clientOptions } = options;
    this.stopsWithThinking = stopsWithThinking;
    // Token windows go out as token ids, so token-level scoring needs a tokenizer.
    this.capabilities = {
      loglikelihood: true,
      loglikelihoodRolling: true,
      generate: true,
      tokenScoring: args.tokenized_requests,
      generationLogprobs: true,
      chatTemplate: 'templates' in chatTemplates,
      usage: true,
    };
    this.concurrency = args.num_concurrent;
    const promptLogprobs = args.prompt_logprobs ?? (name === 'openai-completions' ? false : 'auto');
    this.promptLogprobsSupport = promptLogprobs === 'auto' ? undefined : promptLogprobs;
    ({ client: this.client, usage: this.usageRecorder } = servedClient(name, args, cache, clientOptions));
    const common = clientSettings(name, args, clientOptions);
    if (args.tokenizerBackend === 'auto')
      throw new Error('unreachable: tokenizer_backend=auto is settled by openHttpBackend');
    if (args.tokenized_requests && args.tokenizerBackend === 'huggingface') {
      if (!localTokenizer) throw new Error('unreachable: tokenizer_backend=huggingface without a tokenizer');
      this.tokenizer = localTokenizer;
      this.localIdentity = localTokenizer.describe();
    } else if (args.tokenized_requests) {
      this.tokenizerClient = new HttpClient({
        ...common,
        urls: args.baseUrls.map(tokenizeUrl),
        rateLimiter: new RateLimiter(undefined, undefined),
        usage: new UsageRecorder(),
      });
      this.detokenizeClient = new HttpClient({
        ...common,
        urls: args.baseUrls.map((url) => serverUrl(url, '/detokenize')),
        rateLimiter: new RateLimiter(undefined, undefined),
        usage: new UsageRecorder(),
      });
      this.tokenizer = new RemoteTokenizer(this.tokenizerClient, args.model, this.detokenizeClient, {
        baseUrl: args.baseUrls[0],
        headers: {
          ...args.headerMap,
          ...(args.apiKey ? { authorization: `Bearer ${args.apiKey}` } : {}),
        },
        timeoutMs: args.timeout * 1000,
      });
    }
  }

  async loglikelihood({
    requests,
    onProgress,
    abortSignal,
  }: LoglikelihoodCallOptions): Promise<Answer<LoglikelihoodResult>[]> {
    return this.score(
      requests.length,
      (index) => this.promptFor(requests[index]),
      onProgress,
      (index) => requests[index].context + requests[index].continuation,
      undefined,
      abortSignal,
    );
  }

  async loglikelihoodRolling({
    requests,
    onProgress,
    abortSignal,
  }: RollingCallOptions): Promise<Answer<number>[]> {
    if (!this.tokenizer) {
      // Text mode: the whole text is one prompt scored from its first token (the server's BOS is its context).
      const answers = await this.score(
        requests.length,
        (index) => ({ prompt: requests[index].text, contextLength: 0 }),
        onProgress,
        (index) => requests[index].text,
        undefined,
        abortSignal,
      );
      return answers.map((answer) => (answer instanceof RequestError ? answer : answer.logprob));
    }
    // Token mode: lm-eval's disjoint rolling windows of max_length tokens, summed per text. The text is
    // encoded as every prompt is (lm-eval's loglikelihood_rolling calls tok_encode(string)), so under a
    // BOS rule its first scored token is the BOS itself, after the prefix token, as in lm-eval.
    const windows: Array<{ owner: number; prompt: ScoredPrompt }> = [];
    const prefix = await this.prefix();
    const tokenizer = this.tokenizer;
    for (let owner = 0; owner < requests.length; owner++) {
      const tokens = await encodePrompt(tokenizer, requests[owner].text, this.args.bos.add);
      for (const window of rollingWindows(tokens, prefix, this.args.max_length)) {
        windows.push({ owner, prompt: this.truncate(window.context, window.continuation) });
      }
    }
    const totals: Answer<number>[] = new Array(requests.length).fill(0);
    const answers = await this.score(
      windows.length,
      async (index) => windows[index].prompt,
      undefined,
      (index) => requests[windows[index].owner].text,
      undefined,
      abortSignal,
    );
    answers.forEach((answer, index) => {
      const owner = windows[index].owner;
      const total = totals[owner];
      if (total instanceof RequestError) return;
      totals[owner] = answer instanceof RequestError ? answer : (total as number) + answer.logprob;
    });
    onProgress?.(requests.length);
    return totals;
  }

  async generate(options: GenerateCallOptions): Promise<Answer<string>[]> {
    const generations = await this.generateWithLogprobs(options);
    return generations.map((generation) =>
      generation instanceof RequestError ? generation : generation.text,
    );
  }

  /**
   * With `gen_logprobs` (local-completions' default) each request also asks for `logprobs: 1`. With
   * `think_end_token` each answer is what follows the thinking, cut at the stop strings there (see
   * CompletionsSettings), and the generation as sent is kept beside it.
   */
  async generateWithLogprobs({
    requests,
    onProgress,
    abortSignal,
  }: GenerateCallOptions): Promise<Answer<Generation>[]> {
    const thinkEnd = requests.length ? await this.thinkEndText() : undefined;
    const endpoint = completionsGeneration({
      model: this.args.model,
      seed: this.args.seed,
      batchSize: this.args.batch_size,
      logprobs: this.args.gen_logprobs ?? this.name !== 'openai-completions',
      thinkEnd,
      serverStops: thinkEnd === undefined || this.stopsWithThinking === 'server',
      prompt: (request) => this.generationPrompt(request),
    });
    return generateServed(this.client, endpoint, requests, {
      concurrency: this.args.num_concurrent,
      progress: onProgress,
      signal: abortSignal,
    });
  }

  /** think_end_token's text, or undefined without one; a token id is decoded once by the run's tokenizer. */
  private thinkEndText(): Promise<string> | undefined {
    const value = this.args.think_end_token;
    if (value === undefined) return undefined;
    this.thinkEnd ??= thinkEndText(value, this.name, (ids) => this.requireTokenizer().decode(ids));
    return this.thinkEnd;
  }

  /** Text to token ids, without BOS, by the run's tokenizer (capability tokenScoring; refused without one). */
  async tokenize(text: string): Promise<number[]> {
    return this.requireTokenizer().encode(text);
  }

  async detokenize(tokens: number[]): Promise<string> {
    return this.requireTokenizer().decode(tokens);
  }

  /**
   * The run's tokenizer: a local tokenizer.json with its file and vocabulary hashes, or the served one as
   * far as the server shows it (the vocabulary only when /tokenizer_info carries it, as assay serve's does).
   */
  tokenizerInfo(): Promise<TokenizerInfo> {
    this.tokenizerIdentity ??= this.readTokenizerInfo();
    return this.tokenizerIdentity;
  }

  /**
   * Each window goes out as a token-id prompt with echo (or vLLM's prompt_logprobs) and max_tokens 1, and
   * the log-probabilities at its scored positions come back. Windows are independent requests, batched
   * and sent concurrently like loglikelihood requests. A window that fails for good fails the call: a
   * perplexity with a window missing would be wrong, not partial.
   */
  async scoreTokenWindows({ requests: windows, onProgress }: TokenWindowsCallOptions): Promise<number[][]> {
    this.requireTokenizer();
    windows.forEach((window, index) => {
      if (window.scoreFrom < 1 || window.scoreFrom > window.tokens.length) {
        throw new Error(
          `window ${index}: scoreFrom ${window.scoreFrom} is outside [1, ${window.tokens.length}]`,
        );
      }
    });
    const answers = await this.score(
      windows.length,
      (index) => ({ prompt: windows[index].tokens, contextLength: windows[index].scoreFrom }),
      onProgress,
      (index) => `token window of ${windows[index].tokens.length} tokens`,
      readWindow,
    );
    return answers.map((answer, index) => {
      if (answer instanceof RequestError) {
        throw new AssayError(
          'backend_error',
          `${this.name}: perplexity window ${index} failed after retries: ${answer.message}`,
          { exitCode: 1 },
        );
      }
      return answer;
    });
  }

  info(): ModelInfo {
    const identity = this.localIdentity;
    return {
      name: this.args.model,
      endpoint: new URL(this.args.baseUrls[0]).pathname,
      replicas: this.args.baseUrls.length,
      tokenizer: identity
        ? {
            backend: identity.backend,
            name: identity.name,
            file: identity.source,
            sha256: identity.sha256,
            vocab_size: identity.vocabSize,
            vocab_sha256: identity.vocabSha256,
            ...(identity.hub ? { hub: identity.hub } : {}),
          }
        : { backend: this.tokenizer ? 'remote' : 'none' },
      add_bos_token: this.tokenizer
        ? { value: this.args.bos.add, source: this.args.bos.source, rule: this.args.bos.rule }
        : {
            value: null,
            source: 'server',
            rule: 'text prompts: the server tokenizes them with its default special tokens (vLLM and SGLang add BOS where the tokenizer does)',
          },
      ...chatTemplateInfo(this.chatTemplates),
    };
  }

  applyChatTemplate(
    messages: ChatMessage[],
    options: { addGenerationPrompt: boolean; templateName?: string; warn?: (message: string) => void },
  ): string {
    if (!('templates' in this.chatTemplates)) {
      throw new AssayError(
        'capability_missing',
        `${this.name} has no chat template: ${this.chatTemplates.missing}`,
      );
    }
    return this.chatTemplates.templates.applyChatTemplate(messages, options);
  }

  chatTemplate(templateName?: string): string | undefined {
    return 'templates' in this.chatTemplates
      ? this.chatTemplates.templates.chatTemplate(templateName)
      : undefined;
  }

  usage(): UsageSummary {
    return this.usageRecorder.summary();
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.tokenizerClient?.close();
    await this.detokenizeClient?.close();
    this.cache?.close();
  }

  /**
   * Streams batches of prompts through the client with bounded concurrency; answers land by index. While
   * it is unknown whether the server has vLLM's `prompt_logprobs`, the first batch goes alone and asks for
   * both it and echo; the answer settles which one every later request asks for.
   */
  private async score<T = LoglikelihoodResult>(
    count: number,
    promptAt: (index: number) => Promise<ScoredPrompt> | ScoredPrompt,
    progress: ProgressSink | undefined,
    textAt: (index: number) => string,
    read: ChoiceReader<T> = readLoglikelihood as ChoiceReader<T>,
    signal?: AbortSignal,
  ): Promise<Answer<T>[]> {
    const results: Answer<T>[] = new Array(count);
    let done = 0;
    const runBatch = async (batch: number[]): Promise<void> => {
      const prompts = await Promise.all(batch.map((index) => promptAt(index)));
      const probing = this.promptLogprobsSupport === undefined;
      const outcome = await this.sendScoring(batch, prompts, textAt, read, signal);
      if (probing && !outcome.ok && (outcome.cause === 'HTTP 400' || outcome.cause === 'HTTP 422')) {
        // A server that rejects the unknown field: echo it is. Other failures settle nothing; the next
        // batch asks again.
        this.promptLogprobsSupport = false;
        return runBatch(batch);
      }
      batch.forEach((index, position) => {
        results[index] = outcome.ok
          ? outcome.value.values[position]
          : new RequestError(outcome.error, outcome.cause);
      });
      done += batch.length;
      progress?.(done);
    };
    const batches = batchesOf(count, this.args.batch_size);
    if (this.promptLogprobsSupport === undefined) {
      const first = batches.next();
      if (!first.done) await runBatch(first.value);
    }
    await streamJobs(batches, this.args.num_concurrent, runBatch);
    return results;
  }

  private async sendScoring<T>(
    batch: number[],
    prompts: ScoredPrompt[],
    textAt: (index: number) => string,
    read: ChoiceReader<T>,
    signal?: AbortSignal,
  ): Promise<PostOutcome<ScoredAnswers<T>>> {
    const support = this.promptLogprobsSupport;
    const payload = scoringPayload({ model: this.args.model, seed: this.args.seed }, prompts, support);
    const describe = () => describeBatch('loglikelihood', batch, textAt);
    try {
      const outcome = await this.client.post(payload, {
        cacheable: true,
        prompts: batch.length,
        describe,
        parse: (json) => parseScoringResponse(json, prompts, support, read),
        tokens: (answers) => ({ in: answers.tokensIn, out: answers.tokensOut }),
        signal,
      });
      if (support === undefined && outcome.ok) this.promptLogprobsSupport = outcome.value.promptLogprobs;
      return outcome;
    } catch (error) {
      if (error instanceof NoPromptLogprobs) throw this.noPromptLogprobs(error.message, describe());
      throw error;
    }
  }

  private async promptFor(request: LoglikelihoodRequest): Promise<ScoredPrompt> {
    if (!this.tokenizer) {
      return { prompt: request.context + request.continuation, contextLength: codePoints(request.context) };
    }
    // lm-eval's _encode_pair: trailing spaces of the context move to the continuation.
    let { context, continuation } = request;
    const trimmed = context.trimEnd();
    if (trimmed.length < context.length) {
      continuation = context.slice(trimmed.length) + continuation;
      context = trimmed;
    }
    if (context === '') {
      const pair = await emptyContextPair(this.tokenizer, continuation, await this.prefix());
      return this.truncate(pair.context, pair.continuation);
    }
    // Both encodings under the backend's BOS rule (lm-eval's _encode_pair over tok_encode): with BOS, both
    // start with it, and it stays with the context.
    const add = this.args.bos.add;
    const whole = await encodePrompt(this.tokenizer, context + continuation, add);
    const contextTokens = await encodePrompt(this.tokenizer, context, add);
    return this.truncate(contextTokens, whole.slice(contextTokens.length));
  }

  /**
   * A generation's prompt: its text, or with a tokenizer (tokenized_requests) its token ids under the BOS
   * rule, left-truncated to leave max_gen_toks of max_length, as lm-eval's generate_until sends them.
   */
  private async generationPrompt(request: GenerateRequest): Promise<string | number[]> {
    if (!this.tokenizer) return request.context;
    const tokens = await encodePrompt(this.tokenizer, request.context, this.args.bos.add);
    const room = Math.max(1, this.args.max_length - request.maxGenToks);
    return tokens.length > room ? tokens.slice(tokens.length - room) : tokens;
  }

  /** lm-eval: keep the last max_length tokens; the context loses what overflows. */
  private truncate(context: number[], continuation: number[]): ScoredPrompt {
    const whole = [...context, ...continuation];
    const overflow = Math.max(0, whole.length - this.args.max_length);
    return { prompt: whole.slice(overflow), contextLength: Math.max(0, context.length - overflow) };
  }

  private requireTokenizer(): Tokenizer {
    if (!this.tokenizer) {
      throw new AssayError(
        'capability_missing',
        `${this.name}: token-level scoring needs a tokenizer; pass \`modelArgs\` tokenized_requests=true (the server's /tokenize) or tokenizer=PATH (a local tokenizer.json)`,
      );
    }
    return this.tokenizer;
  }

  private async readTokenizerInfo(): Promise<TokenizerInfo> {
    const tokenizer = this.requireTokenizer();
    const [identity, bos, prefixToken] = await Promise.all([
      tokenizer.identity(),
      tokenizer.bos(),
      tokenizer.prefixToken(),
    ]);
    return {
      name: identity.backend === 'remote' ? this.args.model : identity.name,
      vocabSize: identity.vocabSize,
      vocabSha256: identity.vocabSha256,
      ...(identity.note ? { note: identity.note } : {}),
      bos,
      addBos: bos !== null,
      prefixToken,
      maxWindowTokens: this.args.max_length,
    };
  }

  /** The token an empty context is conditioned on (lm-eval's prefix_token_id). */
  private prefix(): Promise<number> {
    const tokenizer = this.tokenizer;
    if (!tokenizer) throw new Error('unreachable: prefix token without a tokenizer');
    return tokenizer.prefixToken().catch((error: unknown) => {
      if (error instanceof AssayError && error.code === 'backend_error')
        throw new AssayError('backend_error', `${this.name}: ${error.message}`, {
          exitCode: 1,
          cause: error,
        });
      throw error;
    });
  }

  private noPromptLogprobs(detail: string, request: string): AssayError {
    return new AssayError(
      'capability_missing',
      `${this.name} at ${this.args.baseUrls[0]} returned no prompt log-probabilities (${request}: ${detail}). ` +
        'Loglikelihood and multiple-choice tasks need the log-probabilities of the prompt itself, which OpenAI-style servers give only with ' +
        "`echo: true` + `logprobs`. llama.cpp's server silently ignores `echo`, and Ollama has no `echo`, so their scores would be chance. " +
        'Fix: serve the model with vLLM or SGLang (both honour echo with logprobs), or evaluate generate_until tasks only against this server.',
      { exitCode: 1 },
    );
  }
}
