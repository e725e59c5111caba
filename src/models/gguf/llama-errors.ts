import { LlamaLogLevel } from 'node-llama-cpp';

/** The line llama.cpp ends every failed load with; it says nothing the lines before it don't. */
const GENERIC = /^llama_model_load_from_file_impl: failed to load model$/;

/**
 * Collects llama.cpp's error log lines, so a model that fails to load is reported with llama.cpp's
 * own reason ("tensor 'output.weight' data is not within the file bounds") instead of node-llama-cpp's
 * "Failed to load model". node-llama-cpp sends llama.cpp's log to the logger of the first Llama of a
 * process only, so there is one log per process (`llamaErrors`): processLlama gives its `logger` to
 * every instance; call `clear()` before a load and `reason()` after it fails.
 */
export class LlamaErrorLog {
  private lines: string[] = [];

  readonly logger = (level: LlamaLogLevel, message: string): void => {
    if (level !== LlamaLogLevel.error && level !== LlamaLogLevel.fatal) return;
    const line = message.trim();
    if (line && !GENERIC.test(line) && !this.lines.includes(line)) this.lines.push(line);
  };

  clear(): void {
    this.lines = [];
  }

  /** llama.cpp's lines since `clear()`, or `fallback`. Logs from native code arrive a tick late. */
  async reason(fallback: string): Promise<string> {
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
    return this.lines.length ? this.lines.join('; ') : fallback;
  }
}

/** The process's llama.cpp error log (see LlamaErrorLog). */
export const llamaErrors = new LlamaErrorLog();
