/**
 * The export seam: each target (mlflow.ts, hub.ts, wandb.ts) takes a located run (source.ts) and its
 * own typed settings, and answers with what it wrote where. Progress goes through the injected logger;
 * errors are AssayErrors with every credential redacted (util/secrets.ts).
 */
import type { RunListener } from '../events.js';

export type ExportTargetName = 'mlflow' | 'wandb' | 'hub';

export const EXPORT_TARGETS: readonly ExportTargetName[] = ['mlflow', 'wandb', 'hub'];

export interface ExportLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface ExportContext {
  logger?: ExportLogger;
  /** Progress of the uploads (files sent of the files to send). */
  listener?: RunListener;
  /** Milliseconds since the epoch (tests fix it). */
  now?: () => number;
}

export interface ExportReport {
  target: ExportTargetName;
  /** Where to see the export: the MLflow run's page, the Hub repo. */
  url: string;
  /** One line for the console. */
  summary: string;
  /** The files uploaded (names as on disk, or paths in the repo). */
  files: string[];
}
