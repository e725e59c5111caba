/**
 * Few-shot example selection, as lm-eval's samplers do it (lm_eval/api/samplers.py at 4e7e0d47):
 *
 * - `default`: `random.Random(seed).sample(pool, n)`, one generator per task consumed in doc order, so
 *   doc i's shots depend on every draw before it. When the few-shot split is the eval split (which includes
 *   neither being set), it draws n + 1, drops docs equal to the eval doc and keeps the first n; the extra
 *   draw happens even when the eval doc is not in the pool.
 * - `first_n`: the first n pool docs, without the eval doc when the splits are the same.
 *
 * `sample` also returns where each shot sits in the pool, so sample logs can record the few-shot ids.
 */
import { AssayError } from '../errors.js';
import { PythonRandom } from '../python/semantics/random.js';
import { pythonEquals } from '../python/semantics/values.js';
import type { Doc } from '../task-config/doc.js';
import type { TaskConfig } from '../task-config/task-config.js';

export type SamplerName = 'default' | 'first_n';

export interface FewshotSamplerOptions {
  /** The few-shot pool, after process_docs, in dataset order. */
  pool: readonly Doc[];
  sampler?: SamplerName;
  /**
   * lm-eval's `--seed` fewshot value (default 1234). `null` is `random.Random(None)`: seeded from the
   * system, so the shots are not reproducible.
   */
  seed: number | null;
  /** True when lm-eval would pass the eval doc to the sampler; see `isSameSplit`. */
  sameSplit: boolean;
  /**
   * Restricts the default sampler's pool to these positions (ContextSampler's `fewshot_indices`). Note that
   * lm-eval at 4e7e0d47 never passes `fewshot_config.fewshot_indices` to its sampler, so a YAML value has
   * no effect there; pass it only to deliberately differ from lm-eval.
   */
  fewshotIndices?: readonly number[];
  /** For error messages. */
  task?: string;
}

export interface FewshotDraw {
  docs: Doc[];
  /** Position of each shot in `pool`. */
  indices: number[];
}

/**
 * lm-eval passes the eval doc to the sampler when `fewshot_config.split` (inheriting `fewshot_split`)
 * equals `test_split`, comparing None with None as equal. Note: the test split, not the eval split, so a
 * task evaluated on `validation_split` without a `test_split` and without a few-shot split excludes the eval
 * doc, and one with `fewshot_split: validation` and no test split does not.
 */
export function isSameSplit(
  config: Pick<TaskConfig, 'fewshot_split' | 'test_split' | 'fewshot_config'>,
): boolean {
  const fewshotSplit = config.fewshot_config?.split ?? config.fewshot_split;
  return (fewshotSplit ?? null) === (config.test_split ?? null);
}

export class FewshotSampler {
  private readonly pool: readonly Doc[];
  private readonly positions: number[];
  private readonly kind: SamplerName;
  private readonly random: PythonRandom;
  private readonly sameSplit: boolean;
  private readonly task: string | undefined;

  constructor(options: FewshotSamplerOptions) {
    this.pool = options.pool;
    this.kind = options.sampler ?? 'default';
    this.sameSplit = options.sameSplit;
    this.task = options.task;
    const indices = options.fewshotIndices;
    // ContextSampler applies fewshot_indices only when non-empty (`if self.fewshot_indices and ...`).
    this.positions =
      this.kind === 'default' && indices && indices.length > 0
        ? indices.map((index) => this.checkIndex(index))
        : options.pool.map((_, index) => index);
    this.random = new PythonRandom(options.seed ?? systemSeed());
  }

  private checkIndex(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.pool.length) {
      throw this.error(`fewshot_indices has ${index}, but the few-shot pool has ${this.pool.length} docs`);
    }
    return index;
  }

  private error(message: string): AssayError {
    return new AssayError('invalid_config', this.task ? `task ${this.task}: ${message}` : message, {
      location: { task: this.task, field: 'fewshot_config' },
    });
  }

  /** The shots for one eval doc. Call once per eval doc, in doc order: the default sampler is stateful. */
  sample(evalDoc: Doc, n: number): FewshotDraw {
    if (!Number.isInteger(n) || n < 0) throw this.error(`number of few-shot samples must be >= 0, got ${n}`);
    if (n === 0) return { docs: [], indices: [] };
    return this.kind === 'first_n' ? this.firstN(evalDoc, n) : this.drawRandom(evalDoc, n);
  }

  private drawRandom(evalDoc: Doc, n: number): FewshotDraw {
    if (this.positions.length === 0) throw this.error('no documents available for few-shot sampling');
    // `if not eval_doc`: an empty dict is falsy in Python, so it is treated as "no eval doc" too.
    const exclude = this.sameSplit && Object.keys(evalDoc).length > 0;
    const k = exclude ? n + 1 : n;
    if (k > this.positions.length) {
      throw this.error(
        `cannot draw ${k} few-shot docs from a pool of ${this.positions.length}` +
          (exclude ? ' (one extra is drawn because the few-shot split is the eval split)' : ''),
      );
    }
    // Sampling positions consumes the generator exactly as sampling the docs would: random.sample only
    // looks at the population's length.
    let drawn = this.random.sample(this.positions, k);
    if (exclude) drawn = drawn.filter((index) => !pythonEquals(this.pool[index], evalDoc)).slice(0, n);
    if (drawn.length !== n) {
      throw this.error(
        `number of few-shot samples returned (${drawn.length}) is not the number requested (${n})`,
      );
    }
    return { docs: drawn.map((index) => this.pool[index]), indices: drawn };
  }

  /** first_n's draw of `n` when no eval doc is excluded: the same for every doc, so made once. */
  private firstNDraw: { n: number; draw: FewshotDraw } | undefined;

  private firstN(evalDoc: Doc, n: number): FewshotDraw {
    if (!this.sameSplit) {
      if (this.firstNDraw?.n !== n) this.firstNDraw = { n, draw: this.firstNFrom(evalDoc, n) };
      return this.firstNDraw.draw;
    }
    return this.firstNFrom(evalDoc, n);
  }

  private firstNFrom(evalDoc: Doc, n: number): FewshotDraw {
    const indices: number[] = [];
    for (let index = 0; index < this.pool.length && indices.length < n; index++) {
      if (this.sameSplit && pythonEquals(this.pool[index], evalDoc)) continue;
      indices.push(index);
    }
    if (indices.length < n) {
      throw this.error(`${n} few-shot samples requested, but only ${indices.length} are available`);
    }
    // Frozen: a shared draw is read by every doc it was given to, and written by none.
    return Object.freeze({
      docs: Object.freeze(indices.map((index) => this.pool[index])) as Doc[],
      indices: Object.freeze(indices) as number[],
    });
  }
}

function systemSeed(): bigint {
  // random.Random(None) seeds from os.urandom; any unpredictable seed is equivalent.
  const words = new Uint32Array(4);
  crypto.getRandomValues(words);
  return words.reduce((seed, word) => (seed << 32n) | BigInt(word), 0n);
}
