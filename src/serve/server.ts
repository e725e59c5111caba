/**
 * `assay serve`: an OpenAI-compatible HTTP server over the gguf engine. `/v1/completions` honours
 * `echo` with `logprobs` for the prompt's own tokens (vLLM's response shape: the first prompt token's
 * log-probability is null), which llama.cpp's server lacks, so assay's `local-completions` backend
 * (and lm-eval's) can score loglikelihood tasks against it. Also `/v1/chat/completions`, `/v1/models`
 * and `/tokenize`. Binds 127.0.0.1 unless told otherwise.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { AssayError } from '../errors.js';
import type { GenerateRequest } from '../models/backend.js';
import type { GgufBackend } from '../models/gguf/gguf-backend.js';
import type { Alternative, PromptLogprobs } from '../models/gguf/prompt-logprobs.js';
import { ConcurrencyLimit } from './concurrency.js';
import {
  type ChatBody,
  type CompletionsBody,
  chatBody,
  completionsBody,
  detokenizeBody,
  tokenizeBody,
} from './schemas.js';

/** What the server needs from the engine: the gguf backend's methods. */
export type ServedModel = Pick<
  GgufBackend,
  | 'tokenize'
  | 'detokenize'
  | 'tokenizerInfo'
  | 'promptLogprobs'
  | 'generate'
  | 'applyChatTemplate'
  | 'chatTemplate'
  | 'info'
> & { readonly engine: { nCtx: number } };

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

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const limit = new ConcurrencyLimit(options.concurrency ?? 4, options.queue ?? 256);
  const handler = new Handler(options, limit);
  const server = createServer((request, response) => {
    handler.handle(request, response).catch((error: unknown) => {
      // handle() answers every error itself; this is a failure while answering (a closed socket).
      if (!response.headersSent) sendJson(response, 500, errorBody(String(error), 'server_error'));
      else response.destroy();
    });
  });
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

class Handler {
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(
    private readonly options: ServeOptions,
    private readonly limit: ConcurrencyLimit,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A client that goes away gets nothing more: its queued or running engine work is cancelled.
    const controller = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) controller.abort(new Error('the client disconnected'));
    });
    const work: Work = { signal: controller.signal };
    try {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
      const route = `${request.method} ${path}`;
      if (route === 'GET /v1/models') return sendJson(response, 200, this.models());
      if (route === 'GET /health') return sendJson(response, 200, { status: 'ok' });
      if (route === 'GET /tokenizer_info') return sendJson(response, 200, await this.tokenizerInfo());
      const handlers: Record<string, (body: unknown) => Promise<unknown>> = {
        'POST /v1/completions': (body) => this.completions(parse(completionsBody, body), work),
        'POST /v1/chat/completions': (body) => this.chat(parse(chatBody, body), work),
        'POST /tokenize': (body) => this.tokenize(parse(tokenizeBody, body)),
        'POST /detokenize': (body) => this.detokenize(parse(detokenizeBody, body)),
      };
      const run = handlers[route];
      if (!run) {
        const known =
          Object.keys(handlers).some((key) => key.endsWith(` ${path}`)) ||
          path === '/v1/models' ||
          path === '/tokenizer_info';
        throw new HttpError(known ? 405 : 404, `${request.method} ${path} is not served here`);
      }
      const body = await readJson(request);
      const outcome = await this.limit.run(() => run(body), work.signal);
      if (!outcome) {
        response.setHeader('Retry-After', '1');
        throw new HttpError(429, 'too many requests are waiting; retry later', 'rate_limit_error');
      }
      sendJson(response, 200, outcome.value);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof HttpError) sendJson(response, error.status, errorBody(error.message, error.type));
      else {
        const message = error instanceof Error ? error.message : String(error);
        sendJson(response, 500, errorBody(message, 'server_error'));
      }
    }
  }

  private models() {
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

  private async tokenize(body: z.output<typeof tokenizeBody>) {
    this.checkModel(body.model);
    const tokens = await this.options.model.tokenize(body.prompt, body.add_special_tokens ?? true);
    return { tokens, count: tokens.length, max_model_len: this.options.model.engine.nCtx };
  }

  /** vLLM's `/detokenize`: `{tokens}` → `{prompt}`, no special tokens skipped or added. */
  private async detokenize(body: z.output<typeof detokenizeBody>) {
    this.checkModel(body.model);
    const vocab = Number(this.options.model.info().vocabSize);
    const bad = body.tokens.find((token) => token >= vocab);
    if (bad !== undefined) throw new HttpError(400, `token id ${bad} is outside the vocabulary (${vocab})`);
    return { prompt: await this.options.model.detokenize(body.tokens) };
  }

  /**
   * vLLM's `/tokenizer_info` answers with the tokenizer config (tokenizer_class, special tokens); this one
   * also gives the vocabulary's size and sha256, so a client's perplexity results can name the exact
   * token space, as the in-process gguf backend's do.
   */
  private async tokenizerInfo() {
    const info = await this.options.model.tokenizerInfo();
    return {
      tokenizer_class: info.name,
      vocab_size: info.vocabSize,
      vocab_sha256: info.vocabSha256,
      bos_token_id: info.bos,
      add_bos_token: info.addBos,
      model_max_length: this.options.model.engine.nCtx,
    };
  }

  private async completions(body: CompletionsBody, work: Work) {
    this.checkModel(body.model);
    const model = this.options.model;
    const prompts = await this.promptsOf(body.prompt);
    const maxTokens = body.max_tokens ?? this.options.defaultMaxTokens ?? 16;
    const temperature = body.temperature ?? 1;
    const wantLogprobs = body.logprobs != null;
    const topK = body.logprobs ?? 0;
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
      let generated: { text: string; tokens: number[] };
      let scored: PromptLogprobs | undefined;
      if (maxTokens === 1 && temperature === 0 && body.stop.length === 0) {
        // The scoring shape (echo, logprobs, max_tokens 1, greedy): the generated token is the
        // argmax after the prompt, which the prompt's own pass already gives.
        [scored] = await model.promptLogprobs([{ tokens: prompt.tokens, topK }], work);
        generated = { text: scored.next.piece, tokens: [scored.next.token] };
      } else {
        generated = await this.generate(
          prompt,
          { maxTokens, temperature, stop: body.stop, seed: body.seed, topP: body.top_p },
          work,
        );
      }
      promptTokens += prompt.tokens.length;
      completionTokens += generated.tokens.length;
      let logprobs: CompletionLogprobs | null = null;
      if (wantLogprobs) {
        const all = [...prompt.tokens, ...generated.tokens];
        if (!scored || generated.tokens.length !== 1) {
          [scored] = await model.promptLogprobs([{ tokens: all, topK }], work);
        }
        logprobs = completionLogprobs(scored, prompt.tokens.length, all.length, body.echo === true, topK);
      }
      choices.push({
        index,
        text: body.echo ? prompt.text + generated.text : generated.text,
        logprobs,
        finish_reason: generated.tokens.length >= maxTokens ? 'length' : 'stop',
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

  private async chat(body: ChatBody, work: Work) {
    this.checkModel(body.model);
    const model = this.options.model;
    if (!model.chatTemplate()) {
      throw new HttpError(
        400,
        'the model has no tokenizer.chat_template in its metadata; use /v1/completions',
      );
    }
    const text = model.applyChatTemplate(body.messages, { addGenerationPrompt: true });
    const prompt = { text, tokens: await model.tokenize(text, true) };
    const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? this.options.defaultMaxTokens ?? 256;
    const generated = await this.generate(
      prompt,
      { maxTokens, temperature: body.temperature ?? 1, stop: body.stop, seed: body.seed, topP: body.top_p },
      work,
    );
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: this.options.name,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: generated.text },
          finish_reason: generated.tokens.length >= maxTokens ? 'length' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: prompt.tokens.length,
        completion_tokens: generated.tokens.length,
        total_tokens: prompt.tokens.length + generated.tokens.length,
      },
    };
  }

  /** Text prompts get BOS as the model's metadata says; token prompts are used as given (as vLLM does). */
  private async promptsOf(
    prompt: CompletionsBody['prompt'],
  ): Promise<Array<{ text: string; tokens: number[] }>> {
    const model = this.options.model;
    const list: Array<string | number[]> =
      typeof prompt === 'string'
        ? [prompt]
        : typeof prompt[0] === 'number'
          ? [prompt as number[]]
          : (prompt as Array<string | number[]>);
    const vocab = Number(model.info().vocabSize);
    return Promise.all(
      list.map(async (item) => {
        if (typeof item === 'string') {
          const tokens = await model.tokenize(item, true);
          if (tokens.length === 0)
            throw new HttpError(400, 'the prompt is empty and the model adds no BOS token');
          return { text: item, tokens };
        }
        const bad = item.find((token) => token >= vocab);
        if (bad !== undefined)
          throw new HttpError(400, `token id ${bad} is outside the vocabulary (${vocab})`);
        return { text: await model.detokenize(item), tokens: item };
      }),
    );
  }

  /**
   * Generation through the engine (greedy, or seeded sampling when temperature > 0), cut at stop
   * strings. The engine returns text; the generated tokens are recovered by tokenizing prompt + text
   * and keeping what follows the prompt, which holds whenever the text re-tokenizes the same way.
   */
  private async generate(
    prompt: { text: string; tokens: number[] },
    settings: {
      maxTokens: number;
      temperature: number;
      stop: string[];
      seed?: number | null;
      topP?: number | null;
    },
    work: Work,
  ): Promise<{ text: string; tokens: number[] }> {
    if (settings.maxTokens === 0) return { text: '', tokens: [] };
    const request: GenerateRequest = {
      context: prompt.text,
      until: settings.stop,
      maxGenToks: settings.maxTokens,
      temperature: settings.temperature,
      doSample: settings.temperature > 0,
      extra: {
        ...(settings.seed != null ? { seed: settings.seed } : {}),
        ...(settings.topP != null ? { top_p: settings.topP } : {}),
      },
    };
    const [text] = await this.options.model.generate([request], undefined, work);
    if (typeof text !== 'string') throw new Error(`generation failed: ${String(text)}`);
    if (text === '') return { text, tokens: [] };
    const whole = await this.options.model.tokenize(prompt.text + text, true);
    const head = whole.slice(0, prompt.tokens.length);
    const tokens = head.every((token, i) => token === prompt.tokens[i])
      ? whole.slice(prompt.tokens.length)
      : await this.options.model.tokenize(text, false);
    return { text, tokens };
  }
}

interface CompletionLogprobs {
  tokens: string[];
  token_logprobs: Array<number | null>;
  top_logprobs: Array<Record<string, number> | null>;
  text_offset: number[];
}

/**
 * The legacy OpenAI `logprobs` object over the returned tokens: the prompt's (with echo) and the
 * generated ones. Offsets count UTF-16 code units from the start of the prompt's text.
 */
function completionLogprobs(
  scored: PromptLogprobs,
  promptLength: number,
  totalLength: number,
  echo: boolean,
  topK: number,
): CompletionLogprobs {
  const from = echo ? 0 : promptLength;
  const result: CompletionLogprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  const alternatives = (list: Alternative[] | null): Record<string, number> | null => {
    if (!list) return null;
    const record: Record<string, number> = {};
    for (const [, logprob, piece] of list.slice(0, Math.max(topK, 1))) {
      if (!(piece in record)) record[piece] = logprob;
    }
    return record;
  };
  for (let i = from; i < totalLength; i++) {
    if (i < scored.pieces.length) {
      result.tokens.push(scored.pieces[i]);
      result.token_logprobs.push(scored.logprobs[i]);
      result.top_logprobs.push(alternatives(scored.top[i]));
      result.text_offset.push(scored.offsets[i]);
    } else {
      // The one generated token of the scoring shape: the argmax after the prompt.
      const last = scored.pieces.length - 1;
      result.tokens.push(scored.next.piece);
      result.token_logprobs.push(scored.next.logprob);
      result.top_logprobs.push(alternatives(scored.next.top));
      result.text_offset.push(scored.offsets[last] + scored.pieces[last].length);
    }
  }
  return result;
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  }
  return parsed.data;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
}

function errorBody(message: string, type: string) {
  return { error: { message, type } };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
