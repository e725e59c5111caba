import { AssayError } from '../errors.js';
import { exportSite } from '../view/export.js';
import { DEFAULT_VIEW_HOST, startViewerServer } from '../view/server.js';
import { reportError } from './errors.js';

export const DEFAULT_VIEW_PORT = 8711;

function portFlag(value: unknown): number {
  if (value === undefined) return DEFAULT_VIEW_PORT;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new AssayError('bad_argument', `--port must be 0-65535, got "${text}"`);
  return Number(text);
}

/** `assay view [DIR…]`: serve the viewer until interrupted, or write a static copy with --export. */
export async function viewCommand(directories: string[], flags: Record<string, unknown>): Promise<number> {
  try {
    const roots = directories.length ? directories : ['.'];
    if (typeof flags.export === 'string') {
      const summary = await exportSite({ roots, outDirectory: flags.export });
      process.stdout.write(
        `assay: exported ${summary.runs} run(s), ${summary.sampleLogs} sample log(s), ${summary.comparisons} comparison(s) to ${summary.directory}/index.html\n`,
      );
      return 0;
    }
    const host = typeof flags.host === 'string' ? flags.host : DEFAULT_VIEW_HOST;
    const server = await startViewerServer({ roots, host, port: portFlag(flags.port) });
    const runs = await server.store.runs();
    process.stdout.write(
      `assay: viewing ${runs.runs.length} run(s) from ${roots.join(', ')} at ${server.url}\n`,
    );
    if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
      process.stderr.write(
        `assay: warning: listening on ${host}: anyone who can reach this address can read these results\n`,
      );
    }
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        server.close().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
