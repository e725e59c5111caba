import path from 'node:path';
import { AssayError } from '../errors.js';
import { createGgufBackend } from '../models/gguf/create.js';
import { startServer } from '../serve/server.js';
import { parseKeyValueArgs } from '../util/key-value-args.js';
import { reportError } from './errors.js';

function positiveInteger(flags: Record<string, unknown>, name: string, fallback: number, min = 1): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new AssayError('bad_argument', `--${name} must be an integer ≥ ${min}, got "${String(raw)}"`);
  }
  return value;
}

/** `assay serve [--model FILE.gguf] [--model_args …] [--host] [--port] [--concurrency]`: runs until SIGINT/SIGTERM. */
export async function serveCommand(flags: Record<string, unknown>): Promise<number> {
  try {
    const modelArgs =
      typeof flags.model_args === 'string' ? parseKeyValueArgs(flags.model_args, '--model_args') : {};
    if (typeof flags.model === 'string') modelArgs.model = flags.model;
    const port = positiveInteger(flags, 'port', 8000, 0);
    const concurrency = positiveInteger(flags, 'concurrency', 4);
    const queue = positiveInteger(flags, 'queue', 256, 0);
    const backend = await createGgufBackend(modelArgs);
    const name =
      typeof flags.served_model_name === 'string'
        ? flags.served_model_name
        : path.basename(String(backend.info().path), '.gguf');
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer({
        model: backend,
        name,
        host: typeof flags.host === 'string' ? flags.host : '127.0.0.1',
        port,
        concurrency,
        queue,
      });
    } catch (error) {
      await backend.close();
      throw error;
    }
    const scorer = backend.info().scorer as { path: string; reason?: string };
    process.stderr.write(
      `assay: serving "${name}" at ${server.url}/v1 (concurrency ${concurrency}, ${scorer.path} scorer${scorer.reason ? `: ${scorer.reason}` : ''})\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    await backend.close();
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
