import { exportSite } from '../view/export.js';
import { startViewerServer } from '../view/server.js';
import { VIEW_FLAGS } from './command-flags.js';
import { reportError } from './errors.js';
import { parseFlags } from './option-table.js';

/** `assay view [DIR…]`: serve the viewer until interrupted, or write a static copy with --export. */
export async function viewCommand(directories: string[], raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(VIEW_FLAGS, raw);
    const roots = directories.length ? directories : ['.'];
    if (flags.export !== undefined) {
      const summary = await exportSite({ roots, outDirectory: flags.export });
      process.stdout.write(
        `assay: exported ${summary.suites ? `${summary.suites} suite(s), ` : ''}${summary.runs} run(s), ${summary.sampleLogs} sample log(s), ${summary.comparisons} comparison(s) to ${summary.directory}/index.html\n`,
      );
      return 0;
    }
    const { host, port } = flags;
    const server = await startViewerServer({ roots, host, port });
    const runs = await server.store.runs();
    const { suites } = await server.store.suites();
    for (const suite of suites)
      if (suite.summary !== 'ready')
        process.stderr.write(
          `assay: suite ${suite.name} (${suite.label}) has ${suite.summary === 'absent' ? 'no summary.json' : 'a summary.json that cannot be read'}: make it with \`assay suite summarize ${suite.name}\`\n`,
        );
    process.stdout.write(
      `assay: viewing ${suites.length ? `${suites.length} suite(s), ` : ''}${runs.runs.length} run(s) from ${roots.join(', ')} at ${server.url}\n`,
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
