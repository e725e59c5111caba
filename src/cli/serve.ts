import path from 'node:path';
import { createGgufBackend } from '../models/gguf/create.js';
import { startServer } from '../serve/server.js';
import { SERVE_FLAGS } from './command-flags.js';
import { reportError } from './errors.js';
import { parseFlags } from './option-table.js';

/** `assay serve [--model FILE.gguf] [--model_args …] [--host] [--port] [--concurrency]`: runs until SIGINT/SIGTERM. */
export async function serveCommand(raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(SERVE_FLAGS, raw);
    const modelArgs = { ...flags.model_args };
    if (flags.model !== undefined) modelArgs.model = flags.model;
    const { port, concurrency, queue } = flags;
    const backend = await createGgufBackend(modelArgs);
    const name = flags.served_model_name ?? path.basename(String(backend.info().path), '.gguf');
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer({
        model: backend,
        name,
        host: flags.host,
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
