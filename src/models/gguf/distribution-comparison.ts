import type { ChildProcess } from 'node:child_process';
import { AssayError, type ErrorCode } from '../../errors.js';
import type {
  ComparedPositions,
  DistributionComparison,
  DistributionComparisonOptions,
} from '../spec/distribution-comparison.js';
import type { ComparisonFiles, PreparedComparison } from './distributions.js';
import { keepEngineProcess, takeEngineProcess } from './engine-processes.js';
import type { WorkerCall, WorkerReply } from './protocol.js';

/**
 * Capability `distributionComparison` over two GGUF files, run in an engine process (engine-worker.ts,
 * distributions.ts) as every gguf model is: llama.cpp never runs in this process.
 */
export class GgufDistributionComparison implements DistributionComparison {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private exited: Error | undefined;
  private stderrTail = '';
  private prepared: PreparedComparison | undefined;

  private readonly onMessage = (reply: WorkerReply) => {
    const pending = this.pending.get(reply.id);
    if (!pending || reply.kind === 'progress') return;
    this.pending.delete(reply.id);
    if (reply.kind === 'result') pending.resolve(reply.result);
    else if (reply.assay) {
      pending.reject(
        new AssayError(reply.assay.code as ErrorCode, reply.message, {
          exitCode: reply.assay.exitCode,
          ...(reply.assay.file ? { location: { file: reply.assay.file } } : {}),
        }),
      );
    } else pending.reject(new AssayError('backend_error', `gguf engine: ${reply.message}`, { exitCode: 1 }));
  };
  private readonly onStderr = (chunk: Buffer) => {
    this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
  };
  private readonly onExit = (code: number | null, signal: NodeJS.Signals | null) => {
    this.exited = new AssayError(
      'backend_error',
      `gguf engine process exited (${signal ?? `code ${code}`})${this.stderrTail ? `: ${this.stderrTail.trim()}` : ''}`,
      { exitCode: 1 },
    );
    for (const pending of this.pending.values()) pending.reject(this.exited);
    this.pending.clear();
  };

  constructor(
    private readonly files: ComparisonFiles,
    private readonly child: ChildProcess = takeEngineProcess(),
  ) {
    child.on('message', this.onMessage);
    child.stderr?.on('data', this.onStderr);
    child.on('exit', this.onExit);
  }

  get engine(): { scorer: 'native'; llamaCppCommit?: string; threads: number } {
    if (!this.prepared) throw new Error('unreachable: the engine is known once the text is tokenized');
    const { llamaCppCommit, threads } = this.prepared;
    return { scorer: 'native', llamaCppCommit, threads };
  }

  async tokenize(text: string): Promise<{ tokens: number[]; bos: number | null; addBos: boolean }> {
    this.prepared = (await this.call({
      method: 'prepareComparison',
      params: { files: this.files, text },
    })) as PreparedComparison;
    const { tokens, bos, addBos } = this.prepared;
    return { tokens, bos, addBos };
  }

  async compare(windows: Array<{ tokens: number[]; scoreFrom: number }>): Promise<ComparedPositions> {
    const threads = this.prepared?.threads;
    if (threads === undefined) throw new Error('unreachable: compare before tokenize');
    return (await this.call({
      method: 'compareWindows',
      params: { files: { ...this.files, threads }, windows },
    })) as ComparedPositions;
  }

  /** Gives the engine process back (kept for the next model) or ends it. */
  async close(): Promise<void> {
    if (this.exited) return;
    const closed = await this.call({ method: 'close', params: null }).then(
      () => true,
      () => false,
    );
    if (this.exited) return;
    this.exited = new AssayError('backend_error', 'gguf engine: the comparison was closed');
    this.child.off('message', this.onMessage);
    this.child.stderr?.off('data', this.onStderr);
    this.child.off('exit', this.onExit);
    if (closed && keepEngineProcess(this.child)) return;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await gone;
  }

  private call(message: Omit<WorkerCall, 'id'>): Promise<unknown> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...message, id } as WorkerCall);
    });
  }
}

/** Opens the capability over two GGUF files (assay kld). */
export function openGgufDistributionComparison(
  options: DistributionComparisonOptions,
): DistributionComparison {
  const { basePath, modelPath, nCtx, threads } = options;
  return new GgufDistributionComparison({
    basePath,
    modelPath,
    nCtx,
    ...(threads !== undefined ? { threads } : {}),
  });
}
