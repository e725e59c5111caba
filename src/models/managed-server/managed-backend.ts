import os from 'node:os';
import path from 'node:path';
import { AssayError } from '../../errors.js';
import type { RunListener } from '../../events.js';
import { fileTimestamp } from '../../util/file-timestamp.js';
import type {
  Answer,
  BackendCapabilities,
  ChatMessage,
  ChatTemplating,
  GenerateCallOptions,
  Generation,
  GenerationLogprobs,
  LoglikelihoodCallOptions,
  LoglikelihoodResult,
  ModelBackend,
  ModelInfo,
  RollingCallOptions,
  TokenizerInfo,
  TokenScoring,
  TokenWindowsCallOptions,
  UsageReporting,
  UsageSummary,
} from '../backend.js';
import type { CompletionsSettings } from '../http/completions-backend.js';
import { openHttpBackend, validateHttpModelArgs } from '../http/create.js';
import { tokenizerFolder } from '../tokenizers/tokenizer-folder.js';
import { managedBosDefault } from './bos-default.js';
import { type ManagedServerArgs, parseManagedServerArgs, type ServerKind } from './server-args.js';
import { gpuSummary, localGpus, servedModels, serverVersion } from './server-facts.js';
import { commandLine, freeLoopbackPort, ServerProcess } from './server-process.js';

/**
 * `--model vllm` / `--model sglang`: assay starts the server on a free loopback port, waits for it, and
 * evaluates through the local-completions backend with token ids (and vLLM's prompt_logprobs); the
 * server is stopped when the backend closes, and by the process guard if assay ends first. With
 * `base_url=` nothing is started: the server named is used as it is.
 */
export interface ManagedContext {
  cachePath?: string;
  /** The run's output folder: the server log goes there. */
  outputDirectory?: string;
  listener?: RunListener;
  warn?: (message: string) => void;
}

/** What the manifest records about the server (model.info.server). */
export interface ServerRecord {
  kind: ServerKind;
  started_by_assay: boolean;
  url: string;
  version: string | null;
  command: string | null;
  pid: number | null;
  log: string | null;
  gpus: string[];
}

const HEALTH: Record<ServerKind, string> = { vllm: '/health', sglang: '/health' };

/**
 * The server's args and the client's, checked before a server spends minutes loading a model; a local
 * tokenizer named by a Hub id (tokenizer_backend=huggingface) is fetched into the cache now, for the same
 * reason.
 */
export async function checkManagedArgs(kind: ServerKind, raw: Record<string, unknown>): Promise<void> {
  const args = parseManagedServerArgs(kind, raw);
  validateHttpModelArgs(
    'local-completions',
    {
      ...args.client,
      model: args.servedModel ?? 'served',
      base_url: args.baseUrl ?? 'http://127.0.0.1:1/v1/completions',
    },
    kind,
  );
  if (args.client.tokenizer_backend === 'huggingface' && typeof args.client.tokenizer === 'string') {
    const revision = typeof args.client.revision === 'string' ? args.client.revision : undefined;
    await tokenizerFolder(args.client.tokenizer, { revision });
  }
}

/**
 * With think_end_token, lm-eval's vllm backend sends the server no task stop strings (they occur inside
 * thinking) and cuts the answer at them after; its sglang backend sends them to the server as well.
 */
function clientSettings(kind: ServerKind): CompletionsSettings {
  return { stopsWithThinking: kind === 'sglang' ? 'server' : 'after' };
}

export async function createManagedBackend(
  kind: ServerKind,
  raw: Record<string, unknown>,
  context: ManagedContext = {},
): Promise<ModelBackend> {
  const args = parseManagedServerArgs(kind, raw);
  for (const message of args.ignored) context.warn?.(message);
  if (args.baseUrl) return attachToRunningServer(args, context);

  const port = await freeLoopbackPort();
  const root = `http://127.0.0.1:${port}`;
  const serverArgs = [...args.serverArgs, '--host', '127.0.0.1', '--port', String(port)];
  const label = kind === 'vllm' ? 'vllm serve' : 'sglang.launch_server';
  const logFile = context.outputDirectory
    ? path.join(context.outputDirectory, `${kind}_server_${fileTimestamp(new Date())}.log`)
    : path.join(os.tmpdir(), `assay-${kind}-server-${process.pid}-${port}.log`);
  const timeoutSeconds = args.startTimeoutSeconds;
  const server = await ServerProcess.start({
    label,
    executable: args.executable,
    args: serverArgs,
    logFile,
    url: root,
    healthPath: HEALTH[kind],
    timeoutMs: timeoutSeconds * 1000,
    onWait: (seconds) =>
      context.listener?.({
        type: 'phase',
        phase: 'loading',
        detail: `starting ${label} ${args.pretrained} on ${root}: ${seconds} s of at most ${timeoutSeconds} s (log: ${logFile})`,
      }),
  });
  try {
    const [served, version, gpus] = await Promise.all([servedModels(root), serverVersion(root), localGpus()]);
    const model = args.servedModel as string;
    if (served && !served.ids.includes(model)) {
      throw server.failure(
        `serves ${served.ids.map((id) => JSON.stringify(id)).join(', ')}, not ${JSON.stringify(model)} as asked`,
      );
    }
    const inner = await openHttpBackend(
      'local-completions',
      {
        ...args.client,
        max_length: args.client.max_length ?? served?.maxModelLen.get(model),
        model,
        base_url: `${root}/v1/completions`,
      },
      context.cachePath,
      {
        backend: kind,
        bosDefault: managedBosDefault(kind, args.pretrained),
        settings: clientSettings(kind),
        templates: { candidates: args.templateFrom, rule: kind },
      },
    );
    const record: ServerRecord = {
      kind,
      started_by_assay: true,
      url: root,
      version,
      command: commandLine(args.executable, serverArgs),
      pid: server.pid,
      log: logFile,
      gpus,
    };
    return new ManagedServerBackend(kind, inner, record, server);
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function attachToRunningServer(
  args: ManagedServerArgs,
  context: ManagedContext,
): Promise<ModelBackend> {
  const baseUrl = args.baseUrl as string;
  const root = new URL(baseUrl).origin;
  const [served, version] = await Promise.all([servedModels(root), serverVersion(root)]);
  const model = args.servedModel ?? (served?.ids.length === 1 ? served.ids[0] : undefined);
  if (!model) {
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${args.kind}: base_url=${baseUrl}: ${served ? `the server serves ${served.ids.join(', ') || 'no model'}; name one with pretrained=` : 'GET /v1/models gave no model list; name the served model with pretrained='}`,
    );
  }
  const inner = await openHttpBackend(
    'local-completions',
    {
      ...args.client,
      max_length: args.client.max_length ?? served?.maxModelLen.get(model),
      model,
      base_url: baseUrl,
    },
    context.cachePath,
    {
      backend: args.kind,
      bosDefault: managedBosDefault(args.kind, args.pretrained ?? model),
      settings: clientSettings(args.kind),
      templates: {
        candidates: args.templateFrom.length ? args.templateFrom : [{ name: model, namedBy: 'pretrained' }],
        rule: args.kind,
      },
    },
  );
  return new ManagedServerBackend(args.kind, inner, {
    kind: args.kind,
    started_by_assay: false,
    url: root,
    version,
    command: null,
    pid: null,
    log: null,
    gpus: [],
  });
}

type ClientMethods = TokenScoring & GenerationLogprobs & UsageReporting & ChatTemplating;

/** The local-completions backend, raced against the server's death, which ends the run with its log. */
class ManagedServerBackend
  implements ModelBackend, TokenScoring, GenerationLogprobs, UsageReporting, ChatTemplating
{
  readonly specificationVersion = 'v2';
  readonly capabilities: BackendCapabilities;

  constructor(
    readonly name: ServerKind,
    private readonly inner: ModelBackend,
    private readonly record: ServerRecord,
    private readonly server?: ServerProcess,
  ) {
    this.capabilities = inner.capabilities;
  }

  get concurrency(): number | undefined {
    return this.inner.concurrency;
  }

  loglikelihood(options: LoglikelihoodCallOptions): Promise<Answer<LoglikelihoodResult>[]> {
    return this.watch(this.inner.loglikelihood(options));
  }

  loglikelihoodRolling(options: RollingCallOptions): Promise<Answer<number>[]> {
    return this.watch(this.inner.loglikelihoodRolling(options));
  }

  generate(options: GenerateCallOptions): Promise<Answer<string>[]> {
    return this.watch(this.inner.generate(options));
  }

  generateWithLogprobs(options: GenerateCallOptions): Promise<Answer<Generation>[]> {
    return this.watch(this.required('generateWithLogprobs')(options));
  }

  tokenize(text: string): Promise<number[]> {
    return this.watch(this.required('tokenize')(text));
  }

  detokenize(tokens: number[]): Promise<string> {
    return this.watch(this.required('detokenize')(tokens));
  }

  tokenizerInfo(): Promise<TokenizerInfo> {
    return this.watch(this.required('tokenizerInfo')());
  }

  scoreTokenWindows(options: TokenWindowsCallOptions): Promise<number[][]> {
    return this.watch(this.required('scoreTokenWindows')(options));
  }

  usage(): UsageSummary {
    return this.required('usage')();
  }

  applyChatTemplate(
    messages: ChatMessage[],
    options: { addGenerationPrompt: boolean; templateName?: string; warn?: (message: string) => void },
  ): string {
    return this.required('applyChatTemplate')(messages, options);
  }

  chatTemplate(templateName?: string): string | undefined {
    return this.required('chatTemplate')(templateName);
  }

  info(): ModelInfo {
    const summary = gpuSummary(this.record.gpus);
    return { ...this.inner.info(), server: this.record, ...(summary ? { gpu: summary } : {}) };
  }

  async close(): Promise<void> {
    try {
      await this.inner.close?.();
    } finally {
      await this.server?.stop();
    }
  }

  /**
   * The client's own method: local-completions has every one (its token-scoring methods refuse with
   * capability_missing when it has no tokenizer, and the capabilities copied from it say so).
   */
  private required<K extends keyof ClientMethods>(key: K): ClientMethods[K] {
    const method = (this.inner as Partial<ClientMethods>)[key];
    if (typeof method !== 'function') throw new Error(`unreachable: local-completions has ${key}`);
    return (method as (...values: unknown[]) => unknown).bind(this.inner) as ClientMethods[K];
  }

  /** A call that ends when it does, or when the server dies first (with the end of the server's log). */
  private watch<T>(call: Promise<T>): Promise<T> {
    const server = this.server;
    if (!server) return call;
    if (!server.running) return Promise.reject(server.failure(`${server.exitDescription()} during the run`));
    let settled = false;
    const died = server.exited.then(() => {
      if (settled) return new Promise<never>(() => {});
      throw server.failure(`${server.exitDescription()} during the run`);
    });
    return Promise.race([call.finally(() => (settled = true)), died]);
  }
}
