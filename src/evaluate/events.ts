/** Runner events: the progress bar, the sample writer and any viewer feed are listeners. */
export type RunEvent =
  | { type: 'run-start'; tasks: string[] }
  | { type: 'phase'; phase: 'loading' | 'building' | 'requests' | 'scoring' | 'writing'; detail?: string }
  | { type: 'request-batch-start'; requestType: string; total: number; unique: number }
  | { type: 'request-progress'; requestType: string; done: number; total: number }
  | { type: 'request-batch-end'; requestType: string; total: number; seconds: number }
  | { type: 'warning'; message: string }
  | { type: 'run-end'; seconds: number };

export type RunListener = (event: RunEvent) => void;
