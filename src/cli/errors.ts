/** The one place that turns errors into messages and exit codes. */
export function reportError(error: unknown): number {
  const candidate = error as {
    name?: string;
    format?: () => string;
    exitCode?: number;
    message?: string;
    stack?: string;
  };
  if (candidate && candidate.name === 'AssayError' && typeof candidate.format === 'function') {
    process.stderr.write(`assay: error: ${candidate.format()}\n`);
    return candidate.exitCode ?? 2;
  }
  if (candidate && (candidate as { code?: string }).code === 'commander.error') return 2;
  const message = candidate?.message ?? String(error);
  process.stderr.write(`assay: internal error: ${message}\n`);
  if (process.env.ASSAY_DEBUG) process.stderr.write(`${candidate?.stack ?? ''}\n`);
  else process.stderr.write('assay: set ASSAY_DEBUG=1 for the stack trace\n');
  return 1;
}
