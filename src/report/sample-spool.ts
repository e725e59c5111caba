/**
 * A chunked task's sample log, written as its chunks are scored (evaluate/chunked-task.ts): each chunk's
 * lines are built, serialized and appended to a spool file, and only what the results and the leaderboard
 * read of them is kept (the running task hash, each line's leaderboard fields). The spool files live in a
 * staging folder of the output folder, made when the first chunk arrives (a run that chunks nothing makes
 * none) and removed when the process exits, however it exits (Ctrl-C included); a run killed outright
 * leaves nothing a later writer does not remove (staged-write.ts). They are renamed into the run's staged
 * outputs when they are published, so the sample logs still appear together with the results, atomically.
 */
import { createHash, type Hash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writevSync } from 'node:fs';
import path from 'node:path';
import type { EvaluatedChunk } from '../evaluate/run-evaluation.js';
import { parseJsonKeepingFloats } from '../python/semantics/json-floats.js';
import type { LeaderboardLine } from '../results/leaderboard.js';
import { STAGING_PREFIX } from '../results/run-files.js';
import type { SampleLine } from '../results/sample-line.js';
import { leaderboardLine } from './leaderboard-line.js';
import { sampleLine, sampleLineJson } from './samples.js';
import { holdStaging } from './staged-write.js';

/** What is kept of a spooled task's sample log. */
export interface SpooledTask {
  /** Where its lines are: the spool file, and once published the sample log. */
  file: string;
  /**
   * Each line's leaderboard fields, in log order: kept as the lines are written when the leaderboard
   * lists examples, otherwise read from the task's scored docs when it is built (runOutput sets it).
   */
  leaderboard: LeaderboardLine[] | (() => LeaderboardLine[]);
  /** lm-eval's task hash over the lines (samples.ts taskHash), once the spool is closed. */
  taskHash?: string;
}

interface OpenTask {
  spooled: SpooledTask;
  fd: number;
  hash: Hash;
}

// Pieces per writev, below every platform's IOV_MAX (1,024 on Linux and macOS).
const PIECES_PER_WRITE = 512;

function writeAll(fd: number, buffers: Buffer[]): void {
  for (let start = 0; start < buffers.length; start += PIECES_PER_WRITE) {
    let pending = buffers.slice(start, start + PIECES_PER_WRITE);
    let size = pending.reduce((sum, buffer) => sum + buffer.length, 0);
    while (size > 0) {
      const written = writevSync(fd, pending);
      if (written >= size) break;
      pending = [Buffer.concat(pending).subarray(written)];
      size -= written;
    }
  }
}

export class SampleSpool {
  readonly tasks = new Map<string, SpooledTask>();
  private readonly open = new Map<string, OpenTask>();

  private held: { release: () => void } | undefined;
  private readonly removeOnExit = () => this.remove();

  private constructor(
    private readonly folder: string,
    readonly includePerExample: boolean,
  ) {}

  /** A spool in a staging folder of `directory` (the run's output folder), made when first written to. */
  static create(directory: string, includePerExample: boolean): SampleSpool {
    const folder = path.join(
      directory,
      `${STAGING_PREFIX}spool-${process.pid}-${randomBytes(4).toString('hex')}`,
    );
    return new SampleSpool(folder, includePerExample);
  }

  private ensureFolder(): void {
    if (this.held) return;
    mkdirSync(this.folder);
    // The run's writer clears stale staging folders of the output folder first: not this one.
    this.held = holdStaging(this.folder);
    process.on('exit', this.removeOnExit);
  }

  /** A chunk's lines appended to its task's spool, in log order (docs by id; a chunked task has one filter). */
  readonly onChunk = (chunk: EvaluatedChunk): void => {
    const { plan, responses, scored } = chunk;
    const name = plan.task.name;
    if (scored.filters.length !== 1) {
      throw new Error(`internal: chunked task ${name} has ${scored.filters.length} filters, not one`);
    }
    let task = this.open.get(name);
    if (!task) {
      this.ensureFolder();
      const file = path.join(this.folder, `${this.tasks.size}.jsonl`);
      const spooled: SpooledTask = { file, leaderboard: [] };
      task = { spooled, fd: openSync(file, 'wx'), hash: createHash('sha256') };
      this.open.set(name, task);
      this.tasks.set(name, spooled);
    }
    const docs = scored.byFilter.get(scored.filters[0]) ?? [];
    const buffers: Buffer[] = [];
    for (const [position, doc] of docs.entries()) {
      const planned = plan.docs[position];
      if (planned?.docId !== doc.docId) throw new Error(`internal: chunk of ${name} out of plan order`);
      const line: SampleLine = sampleLine(planned, responses, doc);
      task.hash.update(line.doc_hash + line.prompt_hash + line.target_hash);
      if (this.includePerExample)
        (task.spooled.leaderboard as LeaderboardLine[]).push(leaderboardLine(line, true));
      buffers.push(Buffer.from(`${sampleLineJson(line)}\n`, 'utf8'));
    }
    writeAll(task.fd, buffers);
  };

  /** Every spool file synced and closed (before its rename into the staged outputs), each task hash known. */
  close(): void {
    for (const task of this.open.values()) {
      fsyncSync(task.fd);
      closeSync(task.fd);
      task.spooled.taskHash = task.hash.digest('hex');
    }
    this.open.clear();
  }

  /**
   * Removes the spool folder (empty once its files are published), if one was made: at the run's end, or
   * when the process exits first.
   */
  remove(): void {
    for (const task of this.open.values()) closeSync(task.fd);
    this.open.clear();
    if (!this.held) return;
    rmSync(this.folder, { recursive: true, force: true });
    this.held.release();
    this.held = undefined;
    process.off('exit', this.removeOnExit);
  }
}

/**
 * A spooled task's lines, read back from its file (the library's `samples` record, when read): a doc's
 * integral floats (written `18.0`) come back as the PythonFloat they were.
 */
export function readSpooledLines(spooled: SpooledTask): SampleLine[] {
  const text = readFileSync(spooled.file, 'utf8');
  const lines: SampleLine[] = [];
  for (const line of text.split('\n')) if (line) lines.push(parseJsonKeepingFloats(line) as SampleLine);
  return lines;
}
