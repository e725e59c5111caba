import { AssayError } from '../errors.js';
import { type ExportRequest, exportRun } from '../export/export-run.js';
import { hubSettingsFromArgs } from '../export/hub.js';
import { mlflowSettingsFromEnv } from '../export/mlflow.js';
import { loadExportSource } from '../export/source.js';
import { EXPORT_TARGETS, type ExportLogger, type ExportTargetName } from '../export/target.js';
import { wandbRefusal } from '../export/wandb.js';
import { parseKeyValueArgs } from '../util/key-value-args.js';
import { reportError } from './errors.js';

export const consoleExportLogger: ExportLogger = {
  info: (message) => process.stderr.write(`assay: ${message}\n`),
  warn: (message) => process.stderr.write(`assay: warning: ${message}\n`),
};

/** `--hf_hub_log_args` (lm-eval's k=v list) into the Hub target's settings; HF_TOKEN from the environment. */
export function hubRequest(text: string, flag = '--hf_hub_log_args'): ExportRequest {
  return { to: 'hub', hub: hubSettingsFromArgs(parseKeyValueArgs(text, flag), process.env, flag) };
}

function exportRequest(run: string, flags: Record<string, unknown>): ExportRequest {
  const to = String(flags.to ?? '');
  if (!EXPORT_TARGETS.includes(to as ExportTargetName))
    throw new AssayError('bad_argument', `--to must be one of ${EXPORT_TARGETS.join(', ')}, got "${to}"`);
  if (to === 'wandb' || flags.wandb_args !== undefined)
    throw wandbRefusal(to === 'wandb' ? '--to wandb' : '--wandb_args');
  if (to === 'hub') {
    if (typeof flags.hf_hub_log_args === 'string') return hubRequest(flags.hf_hub_log_args);
    // Without the flag: the results, and the sample logs when the run has them.
    const samples = loadExportSource(run).sampleFiles.size > 0;
    return hubRequest(`push_results_to_hub=True,push_samples_to_hub=${samples ? 'True' : 'False'}`);
  }
  if (flags.hf_hub_log_args !== undefined)
    throw new AssayError('bad_argument', '--hf_hub_log_args goes with --to hub');
  return {
    to: 'mlflow',
    mlflow: mlflowSettingsFromEnv(process.env, {
      experimentName: flags.experiment_name === undefined ? undefined : String(flags.experiment_name),
      runName: flags.run_name === undefined ? undefined : String(flags.run_name),
      artifacts: flags.no_artifacts !== true,
    }),
  };
}

export async function exportCommand(run: string, flags: Record<string, unknown>): Promise<number> {
  try {
    const report = await exportRun(run, exportRequest(run, flags), { logger: consoleExportLogger });
    process.stdout.write(`${report.summary}\n${report.url}\n`);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
