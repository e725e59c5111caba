import type { ResponseCache } from '../../cache/response-cache.js';
import { AssayError } from '../../errors.js';
import {
  type Answer,
  type BackendCapabilities,
  type ChatMessage,
  type ChatTemplating,
  type GenerateCallOptions,
  type Generation,
  type GenerationLogprobs,
  type ModelBackend,
  type ModelInfo,
  RequestError,
  type UsageReporting,
  type UsageSummary,
} from '../backend.js';
import { chatGeneration } from './chat-endpoint.js';
import type { HttpClient, HttpClientOptions } from './http-client.js';
import type { HttpModelArgs } from './model-args.js';
import { servedClient } from './served-client.js';
import { generateServed } from './served-loop.js';
import type { UsageRecorder } from './usage-recorder.js';

/**
 * `local-chat-completions` / `openai-chat-completions`: /v1/chat/completions, where the server applies the
 * model's chat template. Generation only: chat endpoints give no prompt log-probabilities, so the backend
 * declares no loglikelihood capability and such tasks stop at planning with a clear message.
 */
export class ChatBackend implements ModelBackend, GenerationLogprobs, ChatTemplating, UsageReporting {
  readonly specificationVersion = 'v2';
  readonly capabilities: BackendCapabilities = {
    loglikelihood: false,
    loglikelihoodRolling: false,
    generate: true,
    tokenScoring: false,
    generationLogprobs: true,
    chatTemplate: true,
    usage: true,
  };
  private readonly client: HttpClient;
  private readonly usageRecorder: UsageRecorder;
  /** `num_concurrent`: requests in flight at once. */
  readonly concurrency: number;

  constructor(
    readonly name: string,
    private readonly args: HttpModelArgs,
    private readonly cache?: ResponseCache,
    /** Injected into its HTTP client (tests: a sleep that records waits); see HttpClientOptions. */
    clientOptions: Pick<HttpClientOptions, 'sleep'> = {},
  ) {
    this.concurrency = args.num_concurrent;
    ({ client: this.client, usage: this.usageRecorder } = servedClient(name, args, cache, clientOptions));
  }

  /**
   * As lm-eval's API models do, "rendering" keeps the messages as JSON: the server owns the template.
   * `generate` turns the JSON back into messages.
   */
  applyChatTemplate(messages: ChatMessage[]): string {
    return JSON.stringify(messages);
  }

  /** The server holds the template; results record none. */
  chatTemplate(): undefined {
    return undefined;
  }

  async loglikelihood(): Promise<never> {
    throw new AssayError(
      'capability_missing',
      `${this.name} cannot compute log-likelihoods; use local-completions`,
    );
  }

  async loglikelihoodRolling(): Promise<never> {
    throw new AssayError(
      'capability_missing',
      `${this.name} cannot compute log-likelihoods; use local-completions`,
    );
  }

  async generate(options: GenerateCallOptions): Promise<Answer<string>[]> {
    const generations = await this.generateWithLogprobs(options);
    return generations.map((generation) =>
      generation instanceof RequestError ? generation : generation.text,
    );
  }

  /** With `gen_logprobs` (local-chat-completions' default) each request also asks for `logprobs: true`. */
  async generateWithLogprobs({
    requests,
    onProgress,
    abortSignal,
  }: GenerateCallOptions): Promise<Answer<Generation>[]> {
    const endpoint = chatGeneration({
      model: this.args.model,
      seed: this.args.seed,
      logprobs: this.args.gen_logprobs ?? this.name !== 'openai-chat-completions',
      openai: this.name === 'openai-chat-completions',
      thinkEnd: this.args.think_end_token as string | undefined,
    });
    return generateServed(this.client, endpoint, requests, {
      concurrency: this.args.num_concurrent,
      progress: onProgress,
      signal: abortSignal,
    });
  }

  info(): ModelInfo {
    return {
      name: this.args.model,
      endpoint: new URL(this.args.baseUrls[0]).pathname,
      replicas: this.args.baseUrls.length,
    };
  }

  usage(): UsageSummary {
    return this.usageRecorder.summary();
  }

  async close(): Promise<void> {
    await this.client.close();
    this.cache?.close();
  }
}
