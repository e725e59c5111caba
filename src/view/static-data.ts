/**
 * The shape of `assay view --export`'s data files, shared by the exporter and the app's static client.
 * Pure types: the app imports this file too.
 */
import type { RunsResponse, StarsResponse, SuitesResponse } from './api.js';

export type StaticCompareKey = `${string}..${string}`;

/** Set as window.__ASSAY_STATIC__ by data/site.js; every other data file is loaded on demand. */
export interface StaticSite {
  runs: RunsResponse;
  /** Each task column's ★, computed at export. */
  stars: StarsResponse;
  /** run id → data file with its RunDetail */
  runFiles: Record<string, string>;
  /** `<run id>/<task>` → data file with its StaticSampleIndex */
  sampleIndexFiles: Record<string, string>;
  /** `<baseline>..<candidate>` → data file with their CompareResponse */
  compareFiles: Record<StaticCompareKey, string>;
  suites: SuitesResponse;
  /** suite id → data file with its SuiteDetail */
  suiteFiles: Record<string, string>;
  /** `<suite id>/<scope>/<name>` → data file with that HeadToHead matrix */
  headToHeadFiles: Record<string, string>;
}

/** The per-line facts the server's SampleIndex keeps, for filtering in the browser. */
export interface StaticSampleIndex {
  key: string;
  docIds: number[];
  filterIds: number[];
  filters: string[];
  correct: number[];
  metrics: string[];
  /** metric position → per-line value, null where the line has none */
  metricValues: (number | null)[][];
  chunkSize: number;
  /** Each holds SampleView[] for lines [i·chunkSize, (i+1)·chunkSize). */
  chunkFiles: string[];
}
