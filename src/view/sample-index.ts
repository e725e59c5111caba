import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { checkSampleLine } from '../results/read-samples.js';
import { indexedSampleSchema, type ReadSampleLine, sampleLineSchema } from '../results/schema.js';
import { isFilteredQuery, type SampleQuery, type SamplesPage } from './api.js';
import { correctness, sampleView } from './sample-view.js';
import { searchableText } from './search-text.js';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1 << 20;
const TEXT_CACHE_SIZE = 8;

/** What a bad line shows as: no doc, no scores, its problem as the error. */
function invalidSample(problem: string): ReadSampleLine {
  return {
    doc_id: -1,
    doc: null,
    target: '',
    resps: [],
    filtered_resps: [],
    filter: '',
    metrics: [],
    error: problem,
  } as ReadSampleLine;
}

/**
 * A sample log indexed by byte offset, so a page of a 200 MB log costs a few small reads instead of a
 * parse of the whole file. Indexing streams the file in the background; unfiltered pages are served as
 * soon as their lines are indexed, which is what makes the first page of a huge log fast.
 */
export class SampleIndex {
  readonly offsets: number[] = [];
  readonly lengths: number[] = [];
  readonly docIds: number[] = [];
  readonly filterIds: number[] = [];
  /** 1 correct, 0 incorrect, -1 neither (see `correctness`). */
  readonly correct: number[] = [];
  /** metric position → per-line value (NaN where the line has none or it isn't a number). */
  readonly metricValues: number[][] = [];
  readonly metrics: string[] = [];
  readonly filters: string[] = [];
  /** Lines that are not sample lines (bad JSON, missing fields): line → what is wrong. */
  readonly invalid = new Map<number, string>();
  complete = false;
  failure: Error | null = null;
  private readonly waiters: { lines: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private readonly textMatches = new Map<string, Uint8Array>();

  private constructor(readonly file: string) {}

  static open(file: string): SampleIndex {
    const index = new SampleIndex(file);
    index.build().catch((error: Error) => index.fail(error));
    return index;
  }

  get lineCount(): number {
    return this.offsets.length;
  }

  private fail(error: Error): void {
    this.failure = error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  private settle(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (this.complete || this.lineCount >= waiter.lines) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  /** Resolves once `lines` lines are indexed, or the whole file is. */
  waitFor(lines: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.complete || this.lineCount >= lines) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ lines, resolve, reject }));
  }

  private idOf(list: string[], name: string): number {
    let id = list.indexOf(name);
    if (id < 0) {
      id = list.length;
      list.push(name);
    }
    return id;
  }

  private addLine(offset: number, bytes: Buffer): void {
    const line = this.lineCount;
    this.offsets.push(offset);
    this.lengths.push(bytes.length);
    const parsed = checkSampleLine(bytes.toString('utf8'), line, indexedSampleSchema);
    if (!parsed.ok) {
      // Kept as a line of its own, so it is shown where it is and every other line stays viewable.
      this.invalid.set(line, parsed.problem);
      this.docIds.push(-1);
      this.filterIds.push(-1);
      this.correct.push(-1);
      return;
    }
    // The checked fields (with their defaults), and the metric values as the line holds them.
    const sample = parsed.sample;
    const values = parsed.raw;
    this.docIds.push(sample.doc_id);
    this.filterIds.push(this.idOf(this.filters, sample.filter));
    const first = sample.metrics[0];
    const verdict = first === undefined ? null : correctness(values[first], first, values.judge);
    this.correct.push(verdict === null ? -1 : verdict ? 1 : 0);
    for (const name of sample.metrics) {
      const id = this.idOf(this.metrics, name);
      if (!this.metricValues[id]) this.metricValues[id] = [];
    }
    for (const [id, name] of this.metrics.entries()) {
      const value = values[name];
      this.metricValues[id][line] =
        typeof value === 'number' ? value : typeof value === 'boolean' ? Number(value) : Number.NaN;
    }
  }

  private async build(): Promise<void> {
    let position = 0;
    let carry: Buffer | null = null;
    let carryStart = 0;
    for await (const chunk of createReadStream(this.file, { highWaterMark: CHUNK_BYTES })) {
      const buffer = chunk as Buffer;
      let start = 0;
      let newline = buffer.indexOf(NEWLINE, start);
      while (newline >= 0) {
        const piece = buffer.subarray(start, newline);
        const line = carry ? Buffer.concat([carry, piece]) : piece;
        const lineStart = carry ? carryStart : position + start;
        carry = null;
        if (line.length > 0) this.addLine(lineStart, line);
        start = newline + 1;
        newline = buffer.indexOf(NEWLINE, start);
      }
      if (start < buffer.length) {
        if (!carry) carryStart = position + start;
        carry = carry ? Buffer.concat([carry, buffer.subarray(start)]) : Buffer.from(buffer.subarray(start));
      }
      position += buffer.length;
      this.settle();
      // Cached file data arrives without a trip through the event loop; yield so that page reads and
      // other requests run between chunks instead of after the whole log.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (carry && carry.length > 0) this.addLine(carryStart, carry);
    // Metrics first seen late leave holes in earlier lines' arrays.
    for (const values of this.metricValues) for (let i = 0; i < this.lineCount; i++) values[i] ??= Number.NaN;
    this.complete = true;
    this.settle();
  }

  /**
   * Reads and validates the given lines (any order). Synchronous on purpose: a page is at most a few
   * hundred small reads from the page cache, and async reads would each wait a turn behind the
   * background indexing of a big log, so the first page would arrive only after the whole index.
   */
  async readLines(lines: number[]): Promise<ReadSampleLine[]> {
    const descriptor = openSync(this.file, 'r');
    try {
      return lines.map((line) => {
        const known = this.invalid.get(line);
        if (known !== undefined) return invalidSample(known);
        const buffer = Buffer.alloc(this.lengths[line]);
        readSync(descriptor, buffer, 0, buffer.length, this.offsets[line]);
        const parsed = checkSampleLine(buffer.toString('utf8'), line, sampleLineSchema);
        return parsed.ok ? parsed.sample : invalidSample(parsed.problem);
      });
    } finally {
      closeSync(descriptor);
    }
  }

  /** One streaming pass deciding, per line, whether it contains `text`; cached per query text. */
  private async textMatch(text: string): Promise<Uint8Array> {
    const needle = text.toLowerCase();
    const cached = this.textMatches.get(needle);
    if (cached) return cached;
    // Raw JSON escapes quotes, newlines and backslashes: look for the escaped needle first, cheaply,
    // then confirm on the text a reader sees.
    const escaped = JSON.stringify(needle).slice(1, -1);
    const matches = new Uint8Array(this.lineCount);
    let line = 0;
    let carry = '';
    for await (const chunk of createReadStream(this.file, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
      const parts = (carry + chunk).split('\n');
      carry = parts.pop() ?? '';
      for (const raw of parts) {
        if (!raw) continue;
        if (raw.toLowerCase().includes(escaped)) matches[line] = this.confirm(raw, line, needle);
        line++;
      }
    }
    if (carry && carry.toLowerCase().includes(escaped)) matches[line] = this.confirm(carry, line, needle);
    if (this.textMatches.size >= TEXT_CACHE_SIZE)
      this.textMatches.delete(this.textMatches.keys().next().value as string);
    this.textMatches.set(needle, matches);
    return matches;
  }

  private confirm(raw: string, line: number, needle: string): number {
    const parsed = checkSampleLine(raw, line, sampleLineSchema);
    if (!parsed.ok) return 0;
    return searchableText(sampleView(parsed.sample, line)).includes(needle) ? 1 : 0;
  }

  async matchingLines(query: SampleQuery): Promise<number[]> {
    await this.waitFor(Number.POSITIVE_INFINITY);
    const filterId = query.filter ? this.filters.indexOf(query.filter) : -1;
    if (query.filter && filterId < 0) return [];
    const metricId =
      query.min !== undefined || query.max !== undefined
        ? query.metric
          ? this.metrics.indexOf(query.metric)
          : 0
        : -1;
    if (metricId < 0 && (query.min !== undefined || query.max !== undefined)) return [];
    const text = query.text ? await this.textMatch(query.text) : null;
    const lines: number[] = [];
    for (let line = 0; line < this.lineCount; line++) {
      if (query.doc !== undefined && this.docIds[line] !== query.doc) continue;
      if (filterId >= 0 && this.filterIds[line] !== filterId) continue;
      if (query.correct === 'correct' && this.correct[line] !== 1) continue;
      if (query.correct === 'incorrect' && this.correct[line] !== 0) continue;
      if (metricId >= 0) {
        const value = this.metricValues[metricId]?.[line] ?? Number.NaN;
        if (Number.isNaN(value)) continue;
        if (query.min !== undefined && value < query.min) continue;
        if (query.max !== undefined && value > query.max) continue;
      }
      if (text && !text[line]) continue;
      lines.push(line);
    }
    return lines;
  }

  async page(task: string, query: SampleQuery): Promise<SamplesPage> {
    let lines: number[];
    let matched: number;
    if (isFilteredQuery(query)) {
      const all = await this.matchingLines(query);
      matched = all.length;
      lines = all.slice(query.offset, query.offset + query.limit);
    } else {
      await this.waitFor(query.offset + query.limit);
      const end = Math.min(this.lineCount, query.offset + query.limit);
      lines = [];
      for (let line = query.offset; line < end; line++) lines.push(line);
      matched = this.lineCount;
    }
    const samples = await this.readLines(lines);
    return {
      task,
      total: this.lineCount,
      matched,
      complete: this.complete,
      offset: query.offset,
      items: samples.map((sample, i) => sampleView(sample, lines[i])),
      metrics: [...this.metrics],
      filters: [...this.filters],
    };
  }
}
