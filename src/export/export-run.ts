/**
 * `assay export` and the export at the end of `assay run`: one located run (source.ts) to one target.
 * The registry is exhaustive over the target names; W&B answers with its refusal (wandb.ts).
 */
import { exportToHub } from './hub.js';
import type { HubSettings } from './hub-settings.js';
import { exportToMlflow, type MlflowSettings } from './mlflow.js';
import { type ExportSource, loadExportSource } from './source.js';
import type { ExportContext, ExportReport, ExportTargetName } from './target.js';
import { wandbRefusal } from './wandb.js';

export type ExportRequest =
  | { to: 'mlflow'; mlflow: MlflowSettings }
  | { to: 'hub'; hub: HubSettings }
  | { to: 'wandb' };

const TARGETS: Record<
  ExportTargetName,
  (source: ExportSource, request: ExportRequest, context: ExportContext) => Promise<ExportReport>
> = {
  mlflow: (source, request, context) =>
    exportToMlflow(source, (request as Extract<ExportRequest, { to: 'mlflow' }>).mlflow, context),
  hub: (source, request, context) =>
    exportToHub(source, (request as Extract<ExportRequest, { to: 'hub' }>).hub, context),
  wandb: async () => {
    throw wandbRefusal();
  },
};

/** Where each target records that a run is partial. */
const PARTIAL_MARK: Record<Exclude<ExportTargetName, 'wandb'>, string> = {
  mlflow:
    'MLflow tags assay.partial and assay.partial_reason, and per-task errored_samples and timed_out_samples metrics',
  hub: 'a "Partial run" section in the dataset card and the commit description',
};

/** Exports the run at `location` (a results file, its folder, or the --output_path above it). */
export async function exportRun(
  location: string,
  request: ExportRequest,
  context: ExportContext = {},
): Promise<ExportReport> {
  if (request.to === 'wandb') throw wandbRefusal();
  const source = loadExportSource(location);
  if (source.ignoredResultsFiles.length) {
    context.logger?.warn(
      `${source.ignoredResultsFiles.length} older results files in the folder are not exported; exporting the newest, ${source.resultsFile}`,
    );
  }
  if (source.partial.partial) {
    context.logger?.warn(
      `the run is partial: ${source.partial.reasons.join('; ')}. Its numbers cover only part of its docs; the export says so (${PARTIAL_MARK[request.to]})`,
    );
  }
  return TARGETS[request.to](source, request, context);
}
