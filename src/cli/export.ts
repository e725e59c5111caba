import { AssayError } from '../errors.js';
import { type ExportRequest, exportRun } from '../export/export-run.js';
import { hubSettingsFromArgs } from '../export/hub-settings.js';
import { mlflowSettingsFromEnv } from '../export/mlflow.js';
import { loadExportSource } from '../export/source.js';
import { EXPORT_TARGETS, type ExportLogger, type ExportTargetName } from '../export/target.js';
import { WANDB_REASON } from '../export/wandb.js';
import { EXPORT_FLAGS } from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { type FlagValues, parseFlags } from './option-table.js';
import { type ConsoleProgress, progressListener } from './progress.js';

export const consoleExportLogger: ExportLogger = {
  info: (message) => process.stderr.write(`assay: ${message}\n`),
  warn: (message) => process.stderr.write(`assay: warning: ${withFlagNames(message)}\n`),
};

/** lm-eval's `--hf_hub_log_args` keys into the Hub target's settings; HF_TOKEN from the environment. */
function hubRequest(args: Record<string, unknown>, flag = '--hf_hub_log_args'): ExportRequest {
  return { to: 'hub', hub: hubSettingsFromArgs(args, process.env, flag) };
}

function exportRequest(run: string, flags: FlagValues<typeof EXPORT_FLAGS>): ExportRequest {
  const to = String(flags.to ?? '');
  if (!EXPORT_TARGETS.includes(to as ExportTargetName))
    throw new AssayError('bad_option', `--to must be one of ${EXPORT_TARGETS.join(', ')}, got "${to}"`);
  if (to === 'wandb' || flags.wandb_args !== undefined)
    throw new AssayError(
      'not_supported',
      `${to === 'wandb' ? '--to wandb' : '--wandb_args'}: ${WANDB_REASON}; export to MLflow instead (MLFLOW_TRACKING_URI=… assay export RUN --to mlflow), or to a Hugging Face dataset (assay export RUN --to hub, or --hf_hub_log_args on assay run)`,
    );
  if (to === 'hub') {
    if (flags.hf_hub_log_args !== undefined) return hubRequest(flags.hf_hub_log_args);
    // Without the flag: the results, and the sample logs when the run has them.
    const samples = loadExportSource(run).sampleFiles.size > 0;
    return hubRequest({ push_results_to_hub: true, push_samples_to_hub: samples });
  }
  if (flags.hf_hub_log_args !== undefined)
    throw new AssayError('bad_option', '--hf_hub_log_args goes with --to hub');
  return {
    to: 'mlflow',
    mlflow: mlflowSettingsFromEnv(process.env, {
      experimentName: flags.experiment_name,
      runName: flags.run_name,
      artifacts: flags.no_artifacts !== true,
    }),
  };
}

export async function exportCommand(run: string, raw: Record<string, unknown>): Promise<number> {
  let progress: ConsoleProgress | undefined;
  try {
    const flags = parseFlags(EXPORT_FLAGS, raw);
    const request = exportRequest(run, flags);
    progress = progressListener(process.stderr, { progress: flags.quiet !== true, warnings: true });
    const report = await exportRun(run, request, {
      logger: flags.quiet ? { ...consoleExportLogger, info: () => {} } : consoleExportLogger,
      listener: progress,
    });
    progress.stop();
    process.stdout.write(`${report.summary}\n${report.url}\n`);
    return 0;
  } catch (error) {
    progress?.stop();
    return reportError(error);
  }
}
