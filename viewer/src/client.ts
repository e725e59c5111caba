import type {
  CompareResponse,
  HeadToHead,
  RunDetail,
  RunsResponse,
  SampleQuery,
  SamplesPage,
  SampleView,
  StarsResponse,
  SuiteDetail,
  SuitesResponse,
} from '../../src/view/api.js';
import { isFilteredQuery, sampleQueryString } from '../../src/view/api.js';
import { searchableText } from '../../src/view/search-text.js';
import type { StaticCompareKey, StaticSampleIndex, StaticSite } from '../../src/view/static-data.js';

/** Where the app's data comes from: the `assay view` server, or files written by `assay view --export`. */
export interface ApiClient {
  readonly mode: 'server' | 'static';
  runs(): Promise<RunsResponse>;
  stars(): Promise<StarsResponse>;
  run(id: string): Promise<RunDetail>;
  samples(id: string, task: string, query: SampleQuery): Promise<SamplesPage>;
  compare(ids: string[]): Promise<CompareResponse>;
  suites(): Promise<SuitesResponse>;
  suite(id: string): Promise<SuiteDetail>;
  headToHead(id: string, scope: HeadToHead['scope'], name: string): Promise<HeadToHead>;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

export class HttpClient implements ApiClient {
  readonly mode = 'server';
  runs() {
    return getJson<RunsResponse>('api/runs');
  }
  stars() {
    return getJson<StarsResponse>('api/stars');
  }
  run(id: string) {
    return getJson<RunDetail>(`api/runs/${encodeURIComponent(id)}`);
  }
  samples(id: string, task: string, query: SampleQuery) {
    return getJson<SamplesPage>(
      `api/runs/${encodeURIComponent(id)}/samples/${encodeURIComponent(task)}?${sampleQueryString(query)}`,
    );
  }
  compare(ids: string[]) {
    return getJson<CompareResponse>(`api/compare?runs=${ids.map(encodeURIComponent).join(',')}`);
  }
  suites() {
    return getJson<SuitesResponse>('api/suites');
  }
  suite(id: string) {
    return getJson<SuiteDetail>(`api/suites/${encodeURIComponent(id)}`);
  }
  headToHead(id: string, scope: HeadToHead['scope'], name: string) {
    return getJson<HeadToHead>(
      `api/suites/${encodeURIComponent(id)}/head-to-head/${scope}/${encodeURIComponent(name)}`,
    );
  }
}

declare global {
  interface Window {
    __ASSAY_STATIC__?: StaticSite;
    __assayData?: (key: string, value: unknown) => void;
  }
}

/**
 * The exported copy: data files are classic scripts that hand their value to `__assayData`, because a
 * page opened from file:// may load scripts but not fetch() files. Filtering runs here, over the same
 * per-line index the server keeps.
 */
export class StaticClient implements ApiClient {
  readonly mode = 'static';
  private readonly loaded = new Map<string, Promise<unknown>>();
  private readonly pending = new Map<string, (value: unknown) => void>();

  constructor(private readonly site: StaticSite) {
    window.__assayData = (key, value) => {
      this.pending.get(key)?.(value);
      this.pending.delete(key);
    };
  }

  private load<T>(key: string, file: string): Promise<T> {
    let promise = this.loaded.get(key);
    if (!promise) {
      promise = new Promise((resolve, reject) => {
        this.pending.set(key, resolve);
        const script = document.createElement('script');
        script.src = `data/${file}`;
        script.onerror = () => reject(new Error(`cannot load data/${file}`));
        document.head.append(script);
      });
      this.loaded.set(key, promise);
    }
    return promise as Promise<T>;
  }

  async runs() {
    return this.site.runs;
  }

  async stars() {
    return this.site.stars;
  }

  async suites() {
    return this.site.suites;
  }

  suite(id: string) {
    const file = this.site.suiteFiles[id];
    if (!file) return Promise.reject(new Error(`no suite ${id}`));
    return this.load<SuiteDetail>(`suite:${id}`, file);
  }

  headToHead(id: string, scope: HeadToHead['scope'], name: string) {
    const key = `${id}/${scope}/${name}`;
    const file = this.site.headToHeadFiles[key];
    if (!file)
      return Promise.reject(new Error(`this export has no head-to-head matrix for ${scope} ${name}`));
    return this.load<HeadToHead>(`head-to-head:${key}`, file);
  }

  run(id: string) {
    const file = this.site.runFiles[id];
    if (!file) return Promise.reject(new Error(`no run ${id}`));
    return this.load<RunDetail>(`run:${id}`, file);
  }

  private async chunk(index: StaticSampleIndex, chunk: number): Promise<SampleView[]> {
    return this.load<SampleView[]>(`${index.key}:${chunk}`, index.chunkFiles[chunk]);
  }

  async samples(id: string, task: string, query: SampleQuery): Promise<SamplesPage> {
    const file = this.site.sampleIndexFiles[`${id}/${task}`];
    if (!file) throw new Error(`run ${id} has no sample log for ${task}`);
    const index = await this.load<StaticSampleIndex>(`index:${id}/${task}`, file);
    let lines: number[] = [];
    for (let line = 0; line < index.docIds.length; line++) lines.push(line);
    if (isFilteredQuery(query)) {
      const filterId = query.filter ? index.filters.indexOf(query.filter) : -1;
      const metricId = query.metric ? index.metrics.indexOf(query.metric) : 0;
      const ranged = query.min !== undefined || query.max !== undefined;
      lines = lines.filter((line) => {
        if (query.doc !== undefined && index.docIds[line] !== query.doc) return false;
        if (query.filter && index.filterIds[line] !== filterId) return false;
        if (query.correct === 'correct' && index.correct[line] !== 1) return false;
        if (query.correct === 'incorrect' && index.correct[line] !== 0) return false;
        if (ranged) {
          const value = index.metricValues[metricId]?.[line];
          if (value === null || value === undefined) return false;
          if (query.min !== undefined && value < query.min) return false;
          if (query.max !== undefined && value > query.max) return false;
        }
        return true;
      });
      if (query.text) {
        const needle = query.text.toLowerCase();
        const kept: number[] = [];
        for (const line of lines) {
          const view = (await this.chunk(index, Math.floor(line / index.chunkSize)))[line % index.chunkSize];
          if (searchableText(view).includes(needle)) kept.push(line);
        }
        lines = kept;
      }
    }
    const pageLines = lines.slice(query.offset, query.offset + query.limit);
    const items: SampleView[] = [];
    for (const line of pageLines)
      items.push((await this.chunk(index, Math.floor(line / index.chunkSize)))[line % index.chunkSize]);
    return {
      task,
      total: index.docIds.length,
      matched: lines.length,
      complete: true,
      offset: query.offset,
      items,
      metrics: index.metrics,
      filters: index.filters,
    };
  }

  /**
   * Pairwise comparisons were computed at export by `assay compare`'s engine; each candidate is its own
   * family (as `assay compare BASELINE CANDIDATE` adjusts it), so several candidates are shown side by side.
   */
  async compare(ids: string[]): Promise<CompareResponse> {
    const [baseline, ...candidates] = ids;
    const parts: CompareResponse[] = [];
    for (const candidate of candidates) {
      const key: StaticCompareKey = `${baseline}..${candidate}`;
      const file = this.site.compareFiles[key];
      if (!file) throw new Error(`this export has no comparison of ${baseline} with ${candidate}`);
      parts.push(await this.load<CompareResponse>(`compare:${key}`, file));
    }
    const rows = parts.flatMap((part) => part.rows);
    const runs = ids
      .map((id) => this.site.runs.runs.find((run) => run.id === id))
      .filter((run) => run !== undefined);
    return {
      runs,
      baseline,
      rows,
      skipped: parts.flatMap((part) => part.skipped),
    };
  }
}

export function createClient(): ApiClient {
  return window.__ASSAY_STATIC__ ? new StaticClient(window.__ASSAY_STATIC__) : new HttpClient();
}
