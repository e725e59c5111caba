import { z } from 'zod';
import type { ResponseCache } from '../../cache/response-cache.js';
import { AssayError } from '../../errors.js';
import {
  type Answer,
  type BackendCapabilities,
  type CallOptions,
  type ChatMessage,
  type ChatTemplating,
  type GenerateRequest,
  type Generation,
  type GenerationLogprobs,
  type GenerationThinking,
  type ModelBackend,
  type ModelInfo,
  type ProgressSink,
  RequestError,
  type UsageReporting,
  type UsageSummary,
} from '../backend.js';
import { postprocessGeneratedText } from '../stop-strings.js';
import { endsInThinking } from '../thinking.js';
import { badAnswer } from './answer-checks.js';
import { describeBatch } from './completions-backend.js';
import { usageSchema, usageTokens } from './completions-response.js';
import { fromChatLogprobs, trimToText } from './generated-logprobs.js';
import { HttpClient, type HttpClientOptions, ResponseShapeError } from './http-client.js';
import type { HttpModelArgs } from './model-args.js';
import { RateLimiter } from './rate-limiter.js';
import { streamJobs } from './stream-jobs.js';
import { UsageRecorder } from './usage-recorder.js';

const chatResponseSchema = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().int().optional(),
        message: z.object({
          content: z.string().nullable().optional(),
          // A reasoning parser's output (vLLM, SGLang): `reasoning_content` as DeepSeek named it, `reasoning`
          // as OpenAI's guidance and newer vLLM do.
          reasoning_content: z.string().nullable().optional(),
          reasoning: z.string().nullable().optional(),
        }),
        finish_reason: z.string().nullable().optional(),
        logprobs: z
          .object({
            content: z
              .array(z.object({ token: z.string(), logprob: z.number() }))
              .nullable()
              .optional(),
          })
          .nullable()
          .optional(),
      }),
    )
    .length(1, 'expected exactly 1 choice'),
  usage: usageSchema,
});

type ChatResponse = z.output<typeof chatResponseSchema>;
type ChatChoice = ChatResponse['choices'][number];

/** The reasoning a server returned beside the answer; an empty or null field is none. */
function reasoningOf(choice: ChatChoice): string | undefined {
  const { reasoning, reasoning_content: reasoningContent } = choice.message;
  return reasoning || reasoningContent || undefined;
}

const messagesSchema = z.array(
  z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }),
);

/**
 * `local-chat-completions` / `openai-chat-completions`: /v1/chat/completions, where the server applies the
 * model's chat template. Generation only: chat endpoints give no prompt log-probabilities, so the backend
 * declares no loglikelihood capability and such tasks stop at planning with a clear message.
 */
export class ChatBackend implements ModelBackend, GenerationLogprobs, ChatTemplating, UsageReporting {
  readonly specificationVersion = 'v1';
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
    this.usageRecorder = new UsageRecorder({
      inputPerMillion: args.price_input_per_million,
      outputPerMillion: args.price_output_per_million,
    });
    this.client = new HttpClient({
      model: args.model,
      urls: args.baseUrls,
      apiKey: args.apiKey,
      headers: args.headerMap,
      numConcurrent: args.num_concurrent,
      maxAttempts: args.max_retries,
      timeoutMs: args.timeout * 1000,
      retryBackoffMs: args.retry_backoff * 1000,
      maxRetryWaitMs: args.max_retry_wait * 1000,
      label: `${name} at ${args.baseUrls[0]}`,
      cache,
      rateLimiter: new RateLimiter(args.max_requests_per_minute, args.max_tokens_per_minute),
      usage: this.usageRecorder,
      ...clientOptions,
    });
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

  async generate(
    requests: GenerateRequest[],
    progress?: ProgressSink,
    options: CallOptions = {},
  ): Promise<Answer<string>[]> {
    const generations = await this.generateWithLogprobs(requests, progress, options);
    return generations.map((generation) =>
      generation instanceof RequestError ? generation : generation.text,
    );
  }

  /** With `gen_logprobs` (local-chat-completions' default) each request also asks for `logprobs: true`. */
  async generateWithLogprobs(
    requests: GenerateRequest[],
    progress?: ProgressSink,
    options: CallOptions = {},
  ): Promise<Answer<Generation>[]> {
    const results: Answer<Generation>[] = new Array(requests.length);
    const wantLogprobs = this.args.gen_logprobs ?? this.name !== 'openai-chat-completions';
    let done = 0;
    const indices = (function* () {
      for (let index = 0; index < requests.length; index++) yield index;
    })();
    const openai = this.name === 'openai-chat-completions';
    await streamJobs(indices, this.args.num_concurrent, async (index) => {
      const request = requests[index];
      const { do_sample: _doSample, ...extra } = request.extra;
      const payload: Record<string, unknown> = {
        model: this.args.model,
        messages: toMessages(request.context),
        [openai ? 'max_completion_tokens' : 'max_tokens']: request.maxGenToks,
        temperature: request.temperature,
        // OpenAI accepts at most 4 stop strings; the rest are applied here after the answer arrives.
        ...(request.until.length ? { stop: request.until.slice(0, 4) } : {}),
        seed: this.args.seed,
        ...(wantLogprobs ? { logprobs: true } : {}),
        ...extra,
      };
      const outcome = await this.client.post(payload, {
        cacheable: !request.doSample,
        prompts: 1,
        describe: () => describeBatch('generate_until (chat)', [index], () => request.context),
        parse: (json) => {
          const parsed = chatResponseSchema.safeParse(json);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            throw new ResponseShapeError(
              `malformed chat response: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
            );
          }
          const choice = parsed.data.choices[0];
          // Null content beside reasoning: the thinking used every token (lm-eval answers "" then).
          if (typeof choice.message.content !== 'string' && reasoningOf(choice) === undefined) {
            throw badAnswer(
              `message.content is ${JSON.stringify(choice.message.content ?? null)}, not a string: the server generated no text`,
            );
          }
          return parsed.data;
        },
        tokens: usageTokens,
        signal: options.signal,
      });
      if (outcome.ok) {
        results[index] = this.answer(outcome.value, request);
      } else {
        results[index] = new RequestError(outcome.error, outcome.cause);
      }
      progress?.(++done);
    });
    return results;
  }

  /**
   * The answer is `content`, past `think_end_token` when given, cut at the stop strings (the server was
   * sent at most 4); a reasoning field goes to the sample log beside it, never into the answer.
   */
  private answer(response: ChatResponse, request: GenerateRequest): Generation {
    const choice = response.choices[0];
    const content = choice.message.content ?? '';
    const reasoning = reasoningOf(choice);
    // A server that hides the reasoning (OpenAI's o-series) still counts its tokens.
    const hidden = reasoning === undefined && (usageTokens(response).reasoning ?? 0) > 0;
    const thinkEnd = this.args.think_end_token as string | undefined;
    const text = postprocessGeneratedText(content, request.until, thinkEnd);
    const logprobs = fromChatLogprobs(choice.logprobs?.content);
    if (reasoning === undefined && !hidden && thinkEnd === undefined)
      return { text, logprobs: trimToText(logprobs, text) };
    const length = choice.finish_reason === 'length';
    // The reasoning was apart from the answer (a reasoning field): it ended inside it when no answer
    // followed. Inline thinking (think_end_token given, whether or not the server also counts reasoning
    // tokens): the end token tells; the prompt the server rendered is not seen here. Hidden reasoning
    // alone: no answer followed.
    const truncated =
      length &&
      (reasoning !== undefined
        ? content.trim() === ''
        : thinkEnd !== undefined
          ? endsInThinking(content, thinkEnd, undefined)
          : content.trim() === '');
    const thinking: GenerationThinking = {
      ...(thinkEnd === undefined ? {} : { raw: content }),
      ...(reasoning === undefined ? {} : { reasoning }),
      truncated,
    };
    return { text, logprobs, thinking };
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

/** A context rendered by `applyChatTemplate` is a JSON message list; any other context is one user turn. */
function toMessages(context: string): ChatMessage[] {
  if (context.startsWith('[')) {
    try {
      const parsed = messagesSchema.safeParse(JSON.parse(context));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: a plain prompt that happens to start with "["
    }
  }
  return [{ role: 'user', content: context }];
}
