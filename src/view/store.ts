import { AssayError } from '../errors.js';
import type {
  CompareResponse,
  HeadToHead,
  RunDetail,
  RunsResponse,
  SampleQuery,
  SamplesPage,
  StarsResponse,
  SuiteDetail,
  SuitesResponse,
} from './api.js';
import { VIEW_API_VERSION } from './api.js';
import { taskStars } from './best-runs.js';
import { compareRuns } from './compare.js';
import { type DiscoveredRun, type Discovery, discoverRuns } from './discover.js';
import { runDetail } from './run-detail.js';
import { SampleIndex } from './sample-index.js';
import {
  type DiscoveredSuite,
  discoverSuites,
  SummaryReader,
  suiteDetail,
  suiteHeadToHead,
} from './suites.js';

const REDISCOVER_AFTER_MS = 2000;

/**
 * What the viewer knows about the directories it was given: the runs found there and the sample-log
 * indexes built so far. The HTTP server and the static export both answer from one of these.
 */
export class ViewerStore {
  private discovery: Discovery | null = null;
  private discoveredAt = 0;
  private readonly indexes = new Map<string, SampleIndex>();
  /** The ★s of the last set of runs: rediscovery every few seconds does not redo the paired tests. */
  private starsFor: { key: string; stars: Promise<StarsResponse> } | null = null;
  private readonly summaries = new SummaryReader();

  constructor(readonly roots: string[]) {}

  async refresh(force = false): Promise<Discovery> {
    if (force || !this.discovery || Date.now() - this.discoveredAt > REDISCOVER_AFTER_MS) {
      this.discovery = await discoverRuns(this.roots);
      this.discoveredAt = Date.now();
    }
    return this.discovery;
  }

  async runs(): Promise<RunsResponse> {
    const { runs, problems } = await this.refresh();
    return { version: VIEW_API_VERSION, runs: runs.map((run) => run.summary), problems };
  }

  async run(id: string): Promise<DiscoveredRun> {
    let run = (await this.refresh()).runs.find((candidate) => candidate.summary.id === id);
    if (!run) run = (await this.refresh(true)).runs.find((candidate) => candidate.summary.id === id);
    if (!run) throw new AssayError('not_found', `no run with id ${id}`);
    return run;
  }

  async detail(id: string): Promise<RunDetail> {
    return runDetail(await this.run(id));
  }

  indexFor = (run: DiscoveredRun, task: string): SampleIndex => {
    const file = run.sampleFiles.get(task);
    if (!file)
      throw new AssayError('missing_sample_logs', `run ${run.summary.id} has no sample log for ${task}`);
    let index = this.indexes.get(file);
    if (!index || index.failure) {
      index = SampleIndex.open(file);
      this.indexes.set(file, index);
    }
    return index;
  };

  async samples(id: string, task: string, query: SampleQuery): Promise<SamplesPage> {
    return this.indexFor(await this.run(id), task).page(task, query);
  }

  async stars(): Promise<StarsResponse> {
    const { runs } = await this.refresh();
    // A run's id is its results file; a rewritten file has a new name, so ids say what changed.
    const key = runs.map((run) => `${run.summary.id}:${run.summary.sampleTasks.join(',')}`).join(';');
    if (this.starsFor?.key !== key) {
      const stars = taskStars(runs);
      this.starsFor = { key, stars };
      // A failure is reported to this request and not kept: the next one tries again.
      stars.catch(() => {
        if (this.starsFor?.stars === stars) this.starsFor = null;
      });
    }
    return this.starsFor.stars;
  }

  /** The suites under the roots (folders with a suite.json), found by the same walk as the runs. */
  async discoveredSuites(): Promise<{ suites: DiscoveredSuite[]; problems: SuitesResponse['problems'] }> {
    return discoverSuites(this.roots, await this.refresh(), this.summaries);
  }

  async suites(): Promise<SuitesResponse> {
    const { suites, problems } = await this.discoveredSuites();
    return { suites: suites.map((suite) => suite.listing), problems };
  }

  private async findSuite(id: string): Promise<DiscoveredSuite> {
    let suite = (await this.discoveredSuites()).suites.find((candidate) => candidate.listing.id === id);
    if (!suite) {
      await this.refresh(true);
      suite = (await this.discoveredSuites()).suites.find((candidate) => candidate.listing.id === id);
    }
    if (!suite) throw new AssayError('not_found', `no suite with id ${id}`);
    return suite;
  }

  async suite(id: string): Promise<SuiteDetail> {
    return suiteDetail(await this.findSuite(id), (await this.refresh()).runs, this.summaries);
  }

  async headToHead(id: string, scope: string, name: string): Promise<HeadToHead> {
    return suiteHeadToHead(await this.findSuite(id), scope, name, this.summaries);
  }

  async compare(ids: string[]): Promise<CompareResponse> {
    if (ids.length < 2) throw new AssayError('bad_option', 'compare needs at least two runs');
    const runs = await Promise.all(ids.map((id) => this.run(id)));
    return compareRuns(runs, this.indexFor);
  }
}
