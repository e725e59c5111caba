import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AssayError } from '../../errors.js';
import type {
  BackendCapabilities,
  CallOptions,
  ChatMessage,
  ChatTemplating,
  GenerateCallOptions,
  LoglikelihoodCallOptions,
  LoglikelihoodResult,
  ModelBackend,
  ModelInfo,
  ProgressSink,
  RollingCallOptions,
  TokenizerInfo,
  TokenScoring,
  TokenWindowsCallOptions,
} from '../backend.js';
import { ChatTemplates } from '../chat-template/chat-templates.js';
import { TEMPLATE_VARIABLE_ARGS } from '../chat-template/template-variables.js';
import { batchSizeArg, integerArg, parseModelArgs, positiveInteger } from '../model-arg-values.js';
import type { PromptLogprobs, PromptLogprobsRequest, ServedModel } from '../spec/token-serving.js';
import type {
  ChatTemplated,
  EngineInfo,
  EngineOptions,
  TokenGenerateRequest,
  TokenGeneration,
} from './engine.js';
import { keepEngineProcess, takeEngineProcess } from './engine-processes.js';
import { checkGgufFile } from './model-file.js';
import type { WorkerCall, WorkerReply } from './protocol.js';
import { readTokenizerInfo } from './token-windows.js';

/** The gguf backend's model args (`modelArgs`), validated once here. */
const schema = z
  .object({
    model: z.string().optional(),
    n_ctx: positiveInteger().optional(),
    threads: positiveInteger().optional(),
    gpu: z
      .union([z.literal('auto'), z.literal(false), z.literal('false')])
      .transform((value) => (value === 'auto' ? ('auto' as const) : false))
      .default(false),
    /** Sequences evaluated concurrently (their tokens share decode batches). */
    batch_size: batchSizeArg(4, /^auto/).default(4),
    flash_attention: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
      .default(false),
    kv_cache_type: z
      .enum(['F32', 'F16', 'f32', 'f16'])
      .transform((value) => value.toUpperCase() as 'F32' | 'F16')
      .default('F32'),
    /** native: assay's addon (fails when it was not built); map: node-llama-cpp's Map; auto: native if built. */
    scorer: z.enum(['auto', 'native', 'map']).default('auto'),
    /** Accepted (lm-eval command lines pass it) and recorded; sampling takes its seed from gen_kwargs. */
    seed: integerArg().optional(),
    ...TEMPLATE_VARIABLE_ARGS,
  })
  .strict();

export type GgufModelArgs = z.output<typeof schema>;

/** The names the gguf backend's model args may use. */
export const GGUF_MODEL_ARGS = Object.keys(schema.shape);

export function parseGgufModelArgs(raw: Record<string, unknown>): GgufModelArgs {
  return parseModelArgs('gguf', schema, raw);
}

/** Rendered prompts remembered (each is a reference to a string the caller holds anyway). */
const RENDERED_KEPT = 200_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  progress?: ProgressSink;
}

/** What a cancelled call rejects with: an AbortError, as fetch's is. */
function cancelled(message: string): Error {
  const error = new Error(`gguf engine: ${message}`);
  error.name = 'AbortError';
  return error;
}

export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A GGUF model run by llama.cpp (node-llama-cpp) in a child process. Scores follow lm-eval's HFLM:
 * BOS as the model's metadata says, trailing context whitespace moved to the continuation, rolling
 * loglikelihood over disjoint windows of n_ctx tokens, greedy generation cut at stop strings.
 */
export class GgufBackend implements ModelBackend, TokenScoring, ChatTemplating, ServedModel {
  readonly specificationVersion = 'v2';
  readonly name = 'gguf';
  private nextId = 1;
  private tokenizer: Promise<TokenizerInfo> | undefined;
  private readonly pending = new Map<number, Pending>();
  private exited: Error | undefined;
  private stderrTail = '';
  private closing: Promise<void> | undefined;

  private readonly onMessage = (reply: WorkerReply) => this.onReply(reply);
  private readonly onStderr = (chunk: Buffer) => {
    this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
  };
  private readonly onExit = (code: number | null, signal: NodeJS.Signals | null) => {
    this.exited = new AssayError(
      'backend_error',
      `gguf engine process exited (${signal ?? `code ${code}`})${this.stderrTail ? `: ${this.stderrTail.trim()}` : ''}`,
    );
    for (const pending of this.pending.values()) pending.reject(this.exited);
    this.pending.clear();
  };

  /** The model's chat templates (GGUF metadata), with the run's template variables. */
  private templates: ChatTemplates | undefined;
  /**
   * Prompts this backend's chat template rendered, most recent last: their special tokens are parsed and
   * a leading BOS text is not doubled (token-requests.ts `encode`). Capped for a long-lived `assay serve`.
   */
  private readonly rendered = new Set<string>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly modelPath: string,
    private engineInfo: EngineInfo | undefined = undefined,
    private sha256 = '',
  ) {
    child.on('message', this.onMessage);
    child.stderr?.on('data', this.onStderr);
    child.on('exit', this.onExit);
  }

  /** The engine process's pid, while this backend holds it. */
  get enginePid(): number | undefined {
    return this.exited ? undefined : this.child.pid;
  }

  /** The engine process runs in a child of this one, started or kept by engine-processes.ts. */
  static async create(
    options: EngineOptions,
    /** Chat-template variables (enable_thinking, chat_template_args: template-variables.ts). */
    chat: { variables?: Record<string, unknown> } = {},
  ): Promise<GgufBackend> {
    await checkGgufFile(options.modelPath);
    const backend = new GgufBackend(takeEngineProcess(), path.resolve(options.modelPath));
    try {
      const [info, sha256] = await Promise.all([
        backend.call({ method: 'init', params: options }) as Promise<EngineInfo>,
        fileSha256(options.modelPath),
      ]);
      backend.engineInfo = info;
      backend.sha256 = sha256;
      if (info.chatTemplates) {
        const file = path.basename(options.modelPath);
        backend.templates = new ChatTemplates(
          {
            origin: `the GGUF metadata of ${file} (tokenizer.chat_template)`,
            templates: info.chatTemplates,
            specialTokens: {
              ...(info.bosString !== undefined ? { bos_token: info.bosString } : {}),
              ...(info.eosString !== undefined ? { eos_token: info.eosString } : {}),
            },
          },
          // lm-eval's gguf backend has no chat template; its hf and vllm backends retry without the system.
          { variables: chat.variables ?? {}, retryWithoutSystem: true, backend: 'hf' },
        );
      }
    } catch (error) {
      // The engine process must not outlive a failed start: the CLI would never exit.
      await backend.kill();
      throw error;
    }
    return backend;
  }

  /** Ends the engine process without a close call (it has nothing loaded to release). */
  private async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }

  private onReply(reply: WorkerReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.kind === 'progress') {
      pending.progress?.(reply.done);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.kind === 'result') pending.resolve(reply.result);
    else if (reply.code === 'cancelled') pending.reject(cancelled(reply.message));
    else if (reply.code === 'model_load') {
      pending.reject(
        new AssayError('bad_model_file', `llama.cpp cannot load the model: ${reply.message}`, {
          location: { file: this.modelPath },
        }),
      );
    } else {
      const error = new AssayError('backend_error', `gguf engine: ${reply.message}`);
      if (reply.stack) error.stack = reply.stack;
      pending.reject(error);
    }
  }

  /**
   * One call to the engine process. An aborted `signal` cancels it there (skipped if queued, stopped
   * between tokens if running); the promise settles when the engine has let go of it.
   */
  private call(
    message: Omit<WorkerCall, 'id'>,
    progress?: ProgressSink,
    signal?: AbortSignal,
  ): Promise<unknown> {
    if (this.exited) return Promise.reject(this.exited);
    // Nothing may follow the close into the engine process: it may be another backend's by then.
    if (this.closing)
      return Promise.reject(new AssayError('backend_error', 'gguf engine: the backend was closed'));
    if (signal?.aborted) return Promise.reject(cancelled('cancelled before it was sent'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (this.pending.has(id) && !this.exited)
          this.child.send({ id: this.nextId++, method: 'cancel', params: { id } } as WorkerCall);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (value) => {
          settle();
          resolve(value);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        progress,
      });
      this.child.send({ ...message, id } as WorkerCall);
    });
  }

  /** A chat template is declared when the model's metadata has one (tokenizer.chat_template). */
  get capabilities(): BackendCapabilities {
    return {
      loglikelihood: true,
      loglikelihoodRolling: true,
      generate: true,
      tokenScoring: true,
      generationLogprobs: false,
      chatTemplate: this.templates !== undefined,
      usage: false,
    };
  }

  get engine(): EngineInfo {
    if (!this.engineInfo) throw new Error('engine not initialised');
    return this.engineInfo;
  }

  /** `abortSignal` cancels the call if it is still queued in the engine process. */
  async loglikelihood({
    requests,
    onProgress,
    abortSignal,
  }: LoglikelihoodCallOptions): Promise<LoglikelihoodResult[]> {
    if (requests.length === 0) return [];
    return (await this.call(
      {
        method: 'loglikelihood',
        // A literal, not a spread: V8's spread-then-add is ~20× slower per object.
        params: this.markRendered(requests, ({ context, continuation }) => ({
          context,
          continuation,
          chatTemplated: true,
        })),
      },
      onProgress,
      abortSignal,
    )) as LoglikelihoodResult[];
  }

  async loglikelihoodRolling({ requests, onProgress, abortSignal }: RollingCallOptions): Promise<number[]> {
    if (requests.length === 0) return [];
    const texts = requests.map((request) => request.text);
    return (await this.call({ method: 'rolling', params: texts }, onProgress, abortSignal)) as number[];
  }

  /** The requests, those whose context this backend's chat template rendered marked so (copies) for the engine. */
  private markRendered<R extends { context: string }>(
    requests: R[],
    mark: (request: R) => R & ChatTemplated,
  ): R[] {
    if (this.rendered.size === 0) return requests;
    return requests.map((request) => (this.rendered.has(request.context) ? mark(request) : request));
  }

  /**
   * `abortSignal` cancels the generation between tokens (the evaluator's latency cap).
   */
  async generate({ requests, onProgress, abortSignal }: GenerateCallOptions): Promise<string[]> {
    if (requests.length === 0) return [];
    return (await this.call(
      {
        method: 'generate',
        params: this.markRendered(requests, (request) => Object.assign({ chatTemplated: true }, request)),
      },
      onProgress,
      abortSignal,
    )) as string[];
  }

  /** `special`: text spelling a special token becomes that token (as a Hugging Face tokenizer reads it). */
  async tokenize(text: string, withBos = false, special = false): Promise<number[]> {
    return (await this.call({ method: 'tokenize', params: { text, withBos, special } })) as number[];
  }

  /**
   * Generation from prompt tokens, with the generated tokens and why it stopped (assay serve);
   * `abortSignal` stops it between tokens (a client that went away).
   */
  async generateTokens({
    requests,
    abortSignal,
  }: CallOptions<TokenGenerateRequest>): Promise<TokenGeneration[]> {
    if (requests.length === 0) return [];
    return (await this.call(
      { method: 'generateTokens', params: requests },
      undefined,
      abortSignal,
    )) as TokenGeneration[];
  }

  /** `special`: special tokens spelled as their text ("<s>"), as a prompt that contains them spells them. */
  async detokenize(tokens: number[], special = false): Promise<string> {
    return (await this.call({ method: 'detokenize', params: { tokens, special } })) as string;
  }

  /** Per-token log-probabilities of whole prompts (what `assay serve` answers `echo` + `logprobs` with). */
  async promptLogprobs({
    requests,
    abortSignal,
  }: CallOptions<PromptLogprobsRequest>): Promise<PromptLogprobs[]> {
    if (requests.length === 0) return [];
    return (await this.call(
      { method: 'promptLogprobs', params: requests },
      undefined,
      abortSignal,
    )) as PromptLogprobs[];
  }

  tokenizerInfo(): Promise<TokenizerInfo> {
    this.tokenizer ??= readTokenizerInfo(this.modelPath, this.engine);
    return this.tokenizer;
  }

  async scoreTokenWindows({
    requests,
    onProgress,
    abortSignal,
  }: TokenWindowsCallOptions): Promise<number[][]> {
    if (requests.length === 0) return [];
    return (await this.call(
      { method: 'scoreTokenWindows', params: requests },
      onProgress,
      abortSignal,
    )) as number[][];
  }

  applyChatTemplate(
    messages: ChatMessage[],
    options: Parameters<ChatTemplating['applyChatTemplate']>[1],
  ): string {
    if (!this.templates) {
      throw new AssayError(
        'capability_missing',
        `${path.basename(this.modelPath)} has no tokenizer.chat_template in its metadata`,
      );
    }
    const prompt = this.templates.applyChatTemplate(messages, options);
    if (this.rendered.size >= RENDERED_KEPT)
      this.rendered.delete(this.rendered.values().next().value as string);
    this.rendered.add(prompt);
    return prompt;
  }

  chatTemplate(templateName?: string): string | undefined {
    return this.templates?.chatTemplate(templateName);
  }

  info(): ModelInfo {
    const engine = this.engine;
    return {
      name: path.basename(this.modelPath),
      path: this.modelPath,
      sha256: this.sha256,
      numericFormat: engine.quantizationTypes.join('+'),
      architecture: engine.architecture,
      quantizationTypes: engine.quantizationTypes,
      fileType: engine.fileType,
      vocabSize: engine.vocabSize,
      nCtx: engine.nCtx,
      threads: engine.threads,
      sequences: engine.sequences,
      flashAttention: engine.flashAttention,
      kvCacheType: engine.kvCacheType,
      gpu: engine.gpu,
      addBos: engine.addBos,
      engine: engine.engine,
      scorer: engine.scorer,
      ...(this.templates
        ? { chatTemplateSource: this.templates.source.origin }
        : {
            chatTemplateMissing: `${path.basename(this.modelPath)} has no tokenizer.chat_template in its GGUF metadata`,
          }),
    };
  }

  /**
   * Closes the model. The engine process, with its model released, is kept for the next backend of
   * this process (engine-processes.ts) or leaves; this backend hears nothing more from it either way,
   * and a call made meanwhile fails. Closing twice closes once.
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    if (this.exited) return;
    let closed = false;
    await this.call({ method: 'close', params: null }).then(
      () => {
        closed = true;
      },
      () => undefined,
    );
    if (this.exited) return;
    this.exited = new AssayError('backend_error', 'gguf engine: the backend was closed');
    this.child.off('message', this.onMessage);
    this.child.stderr?.off('data', this.onStderr);
    this.child.off('exit', this.onExit);
    for (const pending of this.pending.values()) pending.reject(this.exited);
    this.pending.clear();
    if (closed && keepEngineProcess(this.child)) return;
    await this.kill();
  }
}
