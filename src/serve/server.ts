/**
 * `assay serve`: an OpenAI-compatible HTTP server over a token-level model (`ServedModel`, the seam in
 * models/spec/token-serving.ts, which the gguf backend implements) that answers as vLLM's does.
 * `/v1/completions` honours `echo` with `logprobs` for the prompt's own tokens and vLLM's
 * `prompt_logprobs` (shapes in logprobs.ts), which llama.cpp's server lacks, so assay's
 * `local-completions` and `vllm` backends (and lm-eval's) can score loglikelihood tasks against it. Also
 * `/v1/chat/completions` (the GGUF's chat template), `/v1/models`, `/tokenize`, `/detokenize` and
 * `/tokenizer_info`. Binds 127.0.0.1 unless told otherwise.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { AssayError } from '../errors.js';
import type { PromptLogprobs, ServedModel, TokenGeneration } from '../models/spec/token-serving.js';
import { ConcurrencyLimit } from './concurrency.js';
import {
  completionLogprobs,
  nextPosition,
  promptLogprobsList,
  type ScoredPosition,
  scoredPositions,
} from './logprobs.js';
import {
  type ChatBody,
  type CompletionsBody,
  chatBody,
  completionsBody,
  detokenizeBody,
  type TokenizeBody,
  tokenizeBody,
} from './schemas.js';
import { spellPrompt } from './token-texts.js';

export type { ServedModel };

/** The work of one HTTP request, cancelled when its client disconnects before the answer. */
type Work = { signal: AbortSignal };

export interface ServeOptions {
  model: ServedModel;
  /** The id clients put in `model`; requests naming another model get 404. */
  name: string;
  host?: string;
  /** 0: any free port (see the returned url). */
  port?: number;
  /** Requests using the engine at once (default 4); `queue` more wait (default 256), the rest get 429. */
  concurrency?: number;
  queue?: number;
  /** Default max_tokens when a request gives none (OpenAI's is 16). */
  defaultMaxTokens?: number;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8000 (no trailing slash). */
  url: string;
  server: Server;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * The server's routes as a Hono app: what `startServer` listens with, and what tests call in process
 * through `app.request()`. Paths match without their trailing slashes; a known path asked with another
 * method gets 405, any other 404; every error is OpenAI's `{error: {message, type}}`.
 */
export function serveApp(options: ServeOptions): Hono {
  const limit = new ConcurrencyLimit(options.concurrency ?? 4, options.queue ?? 256);
  const handler = new Handler(options);
  const app = new Hono({ getPath: (request) => new URL(request.url).pathname.replace(/\/+$/, '') });
  const getRoutes: Record<string, () => Promise<unknown> | unknown> = {
    '/v1/models': () => handler.models(),
    '/health': () => ({ status: 'ok' }),
    '/tokenizer_info': () => handler.tokenizerInfo(),
  };
  const postRoutes: Record<string, (body: unknown, work: Work) => Promise<unknown>> = {
    '/v1/completions': (body, work) => handler.completions(parse(completionsBody, body), work),
    '/v1/chat/completions': (body, work) => handler.chat(parse(chatBody, body), work),
    '/tokenize': (body) => handler.tokenize(parse(tokenizeBody, body)),
    '/detokenize': (body) => handler.detokenize(parse(detokenizeBody, body)),
  };
  const notServed = (c: Context): Response => {
    const path = c.req.path;
    // /health answers GET only, and is not listed among the paths another method is refused on.
    const known = path in postRoutes || path === '/v1/models' || path === '/tokenizer_info';
    return sendJson(
      c,
      known ? 405 : 404,
      errorBody(`${c.req.method} ${path} is not served here`, 'invalid_request_error'),
    );
  };
  // Hono answers HEAD as GET; this server serves GET and POST only.
  app.use(async (c, next) => (c.req.method === 'HEAD' ? notServed(c) : next()));
  for (const [path, answer] of Object.entries(getRoutes)) {
    app.get(path, async (c) => sendJson(c, 200, await answer()));
  }
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      sendJson(c, 413, errorBody(`the body is over ${MAX_BODY_BYTES} bytes`, 'invalid_request_error')),
  });
  for (const [path, run] of Object.entries(postRoutes)) {
    app.post(path, limitBody, async (c) => {
      // A client that goes away gets nothing more: its queued or running engine work is cancelled.
      const work: Work = { signal: c.req.raw.signal };
      const body = await readJson(c.req.raw);
      const outcome = await limit.run(() => run(body, work), work.signal);
      if (!outcome) {
        c.header('Retry-After', '1');
        throw new HttpError(429, 'too many requests are waiting; retry later', 'rate_limit_error');
      }
      return sendJson(c, 200, outcome.value);
    });
  }
  app.notFound(notServed);
  app.onError((error, c) => {
    // The client is gone: nothing is sent.
    if (c.req.raw.signal.aborted) return new Response(null, { status: 499 });
    if (error instanceof HttpError) return sendJson(c, error.status, errorBody(error.message, error.type));
    return sendJson(c, 500, errorBody(error.message, 'server_error'));
  });
  return app;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const app = serveApp(options);
  // Global Request/Response stay Node's own (the adapter would otherwise replace them process-wide).
  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new AssayError('io_error', `cannot listen on ${host}:${options.port ?? 8000}: ${error.message}`, {
          cause: error,
        }),
      ),
    );
    server.listen(options.port ?? 8000, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The answers of the server's routes, over the served model. */
class Handler {
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(private readonly options: ServeOptions) {}

  models() {
    return {
      object: 'list',
      data: [
        {
          id: this.options.name,
          object: 'model',
          created: this.created,
          owned_by: 'assay',
          max_model_len: this.options.model.engine.nCtx,
        },
      ],
    };
  }

  private checkModel(model: string | undefined): void {
    if (model !== undefined && model !== this.options.name) {
      throw new HttpError(
        404,
        `model "${model}" is not served here; this server serves "${this.options.name}"`,
      );
    }
  }

  /**
   * vLLM's `/tokenize`: a text, with special tokens unless `add_special_tokens` is false, or a chat
   * rendered with the model's template, without them unless it is true. Text that spells a special token
   * becomes that token, as a Hugging Face tokenizer reads it.
   */
  async tokenize(body: TokenizeBody) {
    this.checkModel(body.model);
    if (body.return_token_strs) {
      throw new HttpError(400, 'return_token_strs is not supported here: the token strings are not served');
    }
    const model = this.options.model;
    const tokens =
      body.messages === undefined
        ? await model.tokenize(body.prompt ?? '', body.add_special_tokens ?? true, true)
        : await model.tokenize(
            this.renderChat({ ...body, messages: body.messages }),
            body.add_special_tokens ?? false,
            true,
          );
    return { count: tokens.length, max_model_len: model.engine.nCtx, tokens, token_strs: null };
  }

  /** vLLM's `/detokenize`: `{tokens}` → `{prompt}`, no special tokens skipped or added. */
  async detokenize(body: z.output<typeof detokenizeBody>) {
    this.checkModel(body.model);
    this.checkVocabulary(body.tokens);
    return { prompt: await this.options.model.detokenize(body.tokens) };
  }

  /**
   * vLLM's `/tokenizer_info` answers with the tokenizer config (tokenizer_class, special tokens, the chat
   * template); this one also gives the vocabulary's size and sha256, so a client's perplexity results can
   * name the exact token space, as the in-process gguf backend's do.
   */
  async tokenizerInfo() {
    const model = this.options.model;
    const info = await model.tokenizerInfo();
    const template = model.chatTemplate();
    const { bosString, eosString } = model.engine;
    return {
      tokenizer_class: info.name,
      vocab_size: info.vocabSize,
      vocab_sha256: info.vocabSha256,
      bos_token_id: info.bos,
      add_bos_token: info.addBos,
      model_max_length: model.engine.nCtx,
      ...(bosString !== undefined ? { bos_token: bosString } : {}),
      ...(eosString !== undefined ? { eos_token: eosString } : {}),
      ...(template !== undefined ? { chat_template: template } : {}),
    };
  }

  async completions(body: CompletionsBody, work: Work) {
    this.checkModel(body.model);
    const model = this.options.model;
    const prompts = await this.promptsOf(body.prompt, body.add_special_tokens ?? true);
    const maxTokens = body.max_tokens ?? this.options.defaultMaxTokens ?? 16;
    const temperature = body.temperature ?? 1;
    const echo = body.echo === true;
    // vLLM: the generated tokens get `logprobs` alternatives; the prompt's tokens `prompt_logprobs`, or
    // with echo `logprobs`; the prompt's tokens are scored when either asks for them.
    const sampleK = body.logprobs ?? null;
    const promptK = body.prompt_logprobs ?? (echo ? sampleK : null);
    const topK = Math.max(sampleK ?? 0, promptK ?? 0);
    const choices = [];
    let promptTokens = 0;
    let completionTokens = 0;
    for (const [index, prompt] of prompts.entries()) {
      work.signal.throwIfAborted();
      if (prompt.tokens.length + maxTokens > model.engine.nCtx + 1) {
        throw new HttpError(
          400,
          `the prompt (${prompt.tokens.length} tokens) plus max_tokens (${maxTokens}) exceeds the context of ${model.engine.nCtx} tokens`,
        );
      }
      const n = prompt.tokens.length;
      let scored: PromptLogprobs | undefined;
      let generation: TokenGeneration;
      let generated: ScoredPosition[] = [];
      if (maxTokens === 1 && temperature === 0 && body.stop.length === 0) {
        // The scoring shape (max_tokens 1, greedy): the generated token is the argmax after the prompt,
        // which the prompt's own pass already gives.
        [scored] = await model.promptLogprobs({
          requests: [{ tokens: prompt.tokens, topK }],
          abortSignal: work.signal,
        });
        const next = scored.next;
        generation = {
          text: next.special ? '' : next.piece,
          tokens: [next.token],
          finish: next.special ? 'stop' : 'length',
        };
        generated = [nextPosition(scored, sampleK ?? 0)];
      } else {
        generation =
          maxTokens === 0
            ? { text: '', tokens: [], finish: 'length' }
            : await this.generate(prompt.tokens, maxTokens, body, work);
        if (sampleK !== null || promptK !== null) {
          const all = [...prompt.tokens, ...generation.tokens];
          [scored] = await model.promptLogprobs({
            requests: [{ tokens: all, topK }],
            abortSignal: work.signal,
          });
          generated = scoredPositions(
            scored,
            all,
            { from: n, to: all.length, k: sampleK ?? 0 },
            scored.pieces,
          );
        }
      }
      const texts = scored ? promptTexts(scored.pieces.slice(0, n), prompt) : undefined;
      const ownPositions =
        scored && texts
          ? scoredPositions(
              scored,
              prompt.tokens,
              { from: 0, to: n, k: promptK ?? 0 },
              texts.texts,
              texts.dropped,
            )
          : [];
      promptTokens += n;
      completionTokens += generation.tokens.length;
      choices.push({
        index,
        text: echo ? prompt.text + generation.text : generation.text,
        logprobs:
          sampleK === null
            ? null
            : completionLogprobs([...(echo ? ownPositions : []), ...generated], sampleK),
        finish_reason: generation.finish,
        stop_reason: generation.stop ?? null,
        prompt_logprobs: promptK === null ? null : promptLogprobsList(ownPositions),
      });
    }
    return {
      id: `cmpl-${randomUUID()}`,
      object: 'text_completion',
      created: Math.floor(Date.now() / 1000),
      model: this.options.name,
      choices,
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    };
  }

  /**
   * vLLM's chat completions: the messages rendered with the model's chat template (the generation prompt
   * added unless `add_generation_prompt` is false), tokenized without special tokens unless
   * `add_special_tokens` is true (the template writes its own), generated from those tokens.
   */
  async chat(body: ChatBody, work: Work) {
    this.checkModel(body.model);
    const model = this.options.model;
    const tokens = await model.tokenize(this.renderChat(body), body.add_special_tokens ?? false, true);
    if (tokens.length === 0) throw new HttpError(400, 'the rendered chat is empty');
    const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? this.options.defaultMaxTokens ?? 256;
    if (tokens.length + maxTokens > model.engine.nCtx + 1) {
      throw new HttpError(
        400,
        `the rendered chat (${tokens.length} tokens) plus max_tokens (${maxTokens}) exceeds the context of ${model.engine.nCtx} tokens`,
      );
    }
    const generation =
      maxTokens === 0
        ? { text: '', tokens: [], finish: 'length' as const }
        : await this.generate(tokens, maxTokens, body, work);
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: this.options.name,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: generation.text },
          finish_reason: generation.finish,
          stop_reason: generation.stop ?? null,
        },
      ],
      usage: {
        prompt_tokens: tokens.length,
        completion_tokens: generation.tokens.length,
        total_tokens: tokens.length + generation.tokens.length,
      },
    };
  }

  /** The model's chat template over `body.messages`, as vLLM renders a chat request. */
  private renderChat(body: {
    messages: ChatBody['messages'];
    add_generation_prompt?: boolean;
    continue_final_message?: boolean;
    chat_template_kwargs?: Record<string, unknown> | null;
  }): string {
    const model = this.options.model;
    if (!model.chatTemplate()) {
      throw new HttpError(
        400,
        'the model has no tokenizer.chat_template in its metadata; use /v1/completions',
      );
    }
    // vLLM's request fields: the two flags are independent (lm-eval's default ties them), and
    // chat_template_kwargs are template variables.
    return model.applyChatTemplate(body.messages, {
      addGenerationPrompt: body.add_generation_prompt ?? true,
      continueFinalMessage: body.continue_final_message ?? false,
      variables: body.chat_template_kwargs ?? undefined,
    });
  }

  /**
   * Text prompts are tokenized as vLLM's Hugging Face tokenizer does: with the model's special tokens
   * (its BOS) unless `add_special_tokens` is false, and text spelling a special token read as that token.
   * Token prompts are used as given.
   */
  private async promptsOf(
    prompt: CompletionsBody['prompt'],
    addSpecialTokens: boolean,
  ): Promise<ServedPrompt[]> {
    const model = this.options.model;
    const list: Array<string | number[]> =
      typeof prompt === 'string'
        ? [prompt]
        : typeof prompt[0] === 'number'
          ? [prompt as number[]]
          : (prompt as Array<string | number[]>);
    const added = addSpecialTokens && model.engine.addBos ? 1 : 0;
    return Promise.all(
      list.map(async (item): Promise<ServedPrompt> => {
        if (typeof item === 'string') {
          const tokens = await model.tokenize(item, addSpecialTokens, true);
          if (tokens.length === 0) throw new HttpError(400, 'the prompt is empty and no BOS token is added');
          return { text: item, tokens, added };
        }
        this.checkVocabulary(item);
        // The prompt's decoding, special tokens spelled, as its echoed tokens spell it.
        return { text: await model.detokenize(item, true), tokens: item };
      }),
    );
  }

  private checkVocabulary(tokens: number[]): void {
    const vocab = this.options.model.engine.vocabSize;
    const bad = tokens.find((token) => token >= vocab);
    if (bad !== undefined) throw new HttpError(400, `token id ${bad} is outside the vocabulary (${vocab})`);
  }

  /** Generation from the prompt's tokens: greedy at temperature 0, else seeded sampling; cut at stop strings. */
  private async generate(
    tokens: number[],
    maxTokens: number,
    body: { temperature?: number | null; stop: string[]; seed?: number | null; top_p?: number | null },
    work: Work,
  ): Promise<TokenGeneration> {
    const temperature = body.temperature ?? 1;
    const [generation] = await this.options.model.generateTokens({
      requests: [
        {
          tokens,
          until: body.stop,
          maxGenToks: maxTokens,
          temperature,
          doSample: temperature > 0,
          extra: {
            ...(body.seed != null ? { seed: body.seed } : {}),
            ...(body.top_p != null ? { top_p: body.top_p } : {}),
          },
        },
      ],
      abortSignal: work.signal,
    });
    return generation;
  }
}

/** A completion prompt: its text, its tokens, and how many leading tokens the server added (its BOS). */
interface ServedPrompt {
  text: string;
  tokens: number[];
  /** Undefined for token prompts: their text is their decoding. */
  added?: number;
}

/**
 * The prompt tokens' texts: for a text prompt, spelling its text exactly (token-texts.ts); for a token
 * prompt, or a text its tokens do not decode to, the tokens' decoded texts.
 */
function promptTexts(pieces: string[], prompt: ServedPrompt): { texts: string[]; dropped?: string[] } {
  if (prompt.added === undefined) return { texts: pieces };
  return spellPrompt(pieces, prompt.added, prompt.text) ?? { texts: pieces };
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The body as JSON; its size was checked by the body limit. */
async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
}

function errorBody(message: string, type: string) {
  return { error: { message, type } };
}

function sendJson(c: Context, status: number, body: unknown): Response {
  return c.body(JSON.stringify(body), status as 200, { 'content-type': 'application/json' });
}
