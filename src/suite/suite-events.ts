/**
 * What `runSuite` reports, cell by cell: a listener draws progress over the cells (the CLI's lines with
 * an ETA); each cell's own run reports its runner events (requests, phases) to the run listener.
 */
export type SuiteEvent =
  | { type: 'suite-start'; cells: number; toRun: number; skipped: number }
  | { type: 'cell-skipped'; model: string; taskSet: string; reason: string }
  /** A cell that finished before but runs again: its settings or its tasks' content changed since. */
  | { type: 'cell-changed'; model: string; taskSet: string; reasons: string[] }
  | {
      type: 'cell-start';
      model: string;
      taskSet: string;
      position: number;
      toRun: number;
      /** A shard's doc slice of the cell; absent: the whole cell. */
      slice?: { index: number; count: number };
    }
  | {
      type: 'cell-end';
      model: string;
      taskSet: string;
      position: number;
      toRun: number;
      seconds: number;
      resultsFile: string;
      erroredSamples: number;
    }
  | { type: 'cell-failed'; model: string; taskSet: string; position: number; toRun: number; message: string }
  | { type: 'model-start'; model: string }
  | { type: 'model-end'; model: string; backendsStarted: number }
  | { type: 'suite-end'; ran: number; skipped: number; failed: number; seconds: number };

export type SuiteListener = (event: SuiteEvent) => void;
