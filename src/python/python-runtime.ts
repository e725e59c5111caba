/**
 * The bridge to lm-eval's Python task code for one run: one persistent worker (worker-process.ts), the
 * functions bound in it, and one method per way lm-eval calls a task function, each batched: a split
 * through process_docs in one call, every doc function of a task over all its docs in one call,
 * process_results and metric functions in batches of BATCH docs. Python exceptions become AssayErrors
 * naming the task, the doc, the function and the innermost frame of task code.
 */
import path from 'node:path';
import { AssayError, type ErrorLocation } from '../errors.js';
import type { Doc } from '../task-config/doc.js';
import type { WorkerRef } from './codec.js';
import { chooseInterpreter } from './interpreter.js';
import { moduleDigests } from './module-digests.js';
import {
  type DocsContext,
  keyLabel,
  needsInterpreter,
  type PythonBinding,
  type PythonFunctionRef,
} from './python-ref.js';
import {
  PythonCallError,
  type PythonFailure,
  type PythonInfo,
  startError,
  WorkerExitError,
} from './worker-messages.js';
import type { PythonWorker } from './worker-process.js';

/** Docs per process_results / metric request: large enough to amortise a frame, small enough to stream. */
const BATCH = 2048;

export interface PythonRuntimeOptions {
  /** `--python`; else ASSAY_PYTHON, else python3 on PATH. */
  python?: string;
  env?: NodeJS.ProcessEnv;
  /** Lines task code writes to stderr. */
  onStderr?: (line: string) => void;
  /** lm-eval seeds `random` (and numpy, torch when loaded) before it builds tasks; so does the worker. */
  seeds?: { random: number | null; numpy: number | null; torch: number | null };
}

/** What the manifest records about the interpreter. */
export interface PythonDescription {
  path: string;
  version: string;
  implementation: string;
  packages: { datasets: string | null; numpy: string | null; lm_eval: string | null };
  stand_ins: string[];
}

/** A per-doc metric value computed in Python, by reference: the worker keeps the original object. */
export interface PythonValueRef {
  store: number;
  index: number;
}

export interface PythonScores {
  /** Per item, the metric dict as JSON carries it (tuples as marked arrays, other objects as PyHandles). */
  values: Array<Record<string, unknown> | undefined>;
  refs: PythonValueRef[];
  /** Per item, the exception it raised (then its value is undefined): an errored sample, not a failed run. */
  errors: Array<AssayError | undefined>;
}

/** Where one item of a batch came from, for error messages. */
export interface ItemLocation {
  task: string;
  docId?: number | string;
  /** "doc 3" / "few-shot doc 2" when docId alone would mislead. */
  label?: string;
}

function frameLocation(failure: PythonFailure): Pick<ErrorLocation, 'file' | 'line'> {
  const match = failure.frame?.match(/^(.*):(\d+) in /);
  return match ? { file: match[1], line: Number(match[2]) } : {};
}

/** `KeyError: 'q' at utils.py:3 in doc_to_text: return doc['q']`; without the file when the location has it. */
function describeFailure(failure: PythonFailure, withFile = true): string {
  const match = failure.frame?.match(/^(.*):(\d+) in ([\s\S]*)$/);
  const frame = match
    ? withFile
      ? ` at ${path.basename(match[1])}:${match[2]} in ${match[3]}`
      : ` in ${match[3]}`
    : '';
  return `${failure.type}: ${failure.message}${frame}`;
}

/** What the worker answers for each function of a `load` request. */
interface LoadReply {
  id?: number;
  error?: PythonFailure;
  /** `file:line in name` of the function's definition. */
  defined?: string;
  /** The task-code modules the function's module imports (itself included), by path. */
  modules?: string[];
}

export class PythonRuntime implements PythonBinding {
  /** Function id → `file:line in name` of its definition, for errors about what it returned. */
  private readonly definitions = new Map<number, string>();

  private constructor(
    private readonly worker: PythonWorker,
    private readonly seeds: PythonRuntimeOptions['seeds'],
  ) {}

  /** Starts the interpreter the options choose; a missing one is an AssayError naming `ref` when given. */
  static async start(options: PythonRuntimeOptions = {}, ref?: PythonFunctionRef): Promise<PythonRuntime> {
    const choice = chooseInterpreter(options.python, options.env ?? process.env);
    if (!choice.found) {
      if (ref?.hfEvaluate) throw ref.hfEvaluate.unavailable;
      if (ref) throw needsInterpreter(ref, choice.reason);
      throw new AssayError('needs_python', `no Python interpreter: ${choice.reason}`);
    }
    // The process code loads with the first worker: a run without Python task code never loads it.
    const { PythonWorker } = await import('./worker-process.js');
    let worker: PythonWorker;
    try {
      worker = await PythonWorker.start({ python: choice.path, onStderr: options.onStderr });
    } catch (error) {
      throw startError(choice.path, error);
    }
    return new PythonRuntime(worker, options.seeds);
  }

  get info(): PythonInfo {
    return this.worker.info;
  }

  describe(): PythonDescription {
    const { python, version, implementation, packages, stand_ins } = this.worker.info;
    return {
      path: python,
      version,
      implementation,
      packages: { datasets: packages.datasets, numpy: packages.numpy, lm_eval: packages.lm_eval },
      stand_ins,
    };
  }

  close(): Promise<void> {
    return this.worker.close();
  }

  /** Ends the worker at once (a call that never returns); pending calls reject. */
  kill(): void {
    this.worker.kill();
  }

  /**
   * Imports the modules and checks the functions, in one call; binds each ref to this runtime. `taskOf`
   * names the task of a ref, for the errors of a module that ends the worker.
   */
  async bind(
    refs: readonly PythonFunctionRef[],
    taskOf?: (ref: PythonFunctionRef) => string | undefined,
  ): Promise<void> {
    const unbound = refs.filter((ref) => ref.binding?.runtime !== this);
    if (unbound.length === 0) return;
    const replies = await this.load(unbound, taskOf);
    for (const [index, ref] of unbound.entries()) {
      const reply = replies[index];
      if (reply.error) throw await bindError(ref, reply.error, taskOf?.(ref));
      await this.bindReply(ref, reply);
    }
  }

  /**
   * Like bind, but returns each ref's failure instead of throwing (the census, `validate`). A module that
   * ends the worker still throws (the worker is gone: the caller starts another).
   */
  async tryBind(refs: readonly PythonFunctionRef[]): Promise<Array<AssayError | undefined>> {
    const out: Array<AssayError | undefined> = [];
    const replies = await this.load(refs);
    for (const [index, ref] of refs.entries()) {
      const reply = replies[index];
      if (reply.error) out.push(await bindError(ref, reply.error));
      else {
        await this.bindReply(ref, reply);
        out.push(undefined);
      }
    }
    return out;
  }

  private async load(
    refs: readonly PythonFunctionRef[],
    taskOf?: (ref: PythonFunctionRef) => string | undefined,
  ): Promise<LoadReply[]> {
    try {
      return await this.worker.request<LoadReply[]>('load', {
        functions: refs.map(loadSpec),
        seeds: this.seeds ?? null,
      });
    } catch (error) {
      if (!(error instanceof WorkerExitError)) throw error;
      // The worker says which function it is importing before each: that module ended it.
      const ref = refs[error.at ?? 0];
      const task = taskOf?.(ref);
      const what =
        error.at === undefined
          ? `while starting to import ${[...new Set(refs.map((each) => path.basename(each.module)))].join(', ')}`
          : `while importing ${path.basename(ref.module)} (${ref.module})`;
      throw new AssayError(
        'python_error',
        `${task ? `task ${task}: ` : ''}${keyLabel(ref.keyPath)}: !function ${ref.ref}: ${error.message} ${what}`,
        {
          location: { ...(await ref.locate()), task, field: keyLabel(ref.keyPath) },
          cause: error,
          exitCode: 1,
        },
      );
    }
  }

  private async bindReply(ref: PythonFunctionRef, reply: LoadReply): Promise<void> {
    const id = reply.id as number;
    if (reply.defined) this.definitions.set(id, reply.defined);
    ref.binding = {
      runtime: this,
      id,
      modules: reply.modules ? await moduleDigests(reply.modules) : undefined,
    };
  }

  private id(ref: PythonFunctionRef): number {
    if (ref.binding?.runtime !== this) throw needsInterpreter(ref);
    return ref.binding.id;
  }

  /**
   * One request calling `ref`. `where` locates a failure: the item it names, else what the request was
   * about (also for a worker that exited: the task and the docs it was running on).
   */
  private async invoke<T>(
    ref: PythonFunctionRef,
    op: string,
    payload: Record<string, unknown>,
    where: (failure?: PythonFailure) => ItemLocation,
    parts?: { key: string; items: readonly unknown[] },
  ): Promise<T> {
    try {
      return await this.worker.request<T>(op, { fn: this.id(ref), ...payload }, parts);
    } catch (error) {
      if (!(error instanceof PythonCallError)) throw workerError(ref, error, where());
      throw callError(ref, error.failure, where(error.failure));
    }
  }

  private remember(docs: Doc[], handle: number): void {
    for (const [index, doc] of docs.entries()) this.worker.refs.set(doc, { h: handle, i: index });
  }

  /** lm-eval's `process_docs(dataset)`: the split as a `datasets.Dataset` (real or stand-in), once. */
  async processDocs(ref: PythonFunctionRef, docs: Doc[], context: DocsContext): Promise<Doc[]> {
    const reply = await this.invoke<{ handle: number; docs: Doc[] }>(
      ref,
      'process_docs',
      {},
      (failure) => ({
        task: context.task,
        label:
          failure?.row !== undefined
            ? `row ${failure.row} of split ${context.split ?? '?'}`
            : `split ${context.split ?? '?'}`,
      }),
      { key: 'docs', items: docs },
    );
    this.remember(reply.docs, reply.handle);
    return reply.docs;
  }

  /** `fewshot_config.samples: !function ...`: called without arguments, returns the few-shot docs. */
  async samples(ref: PythonFunctionRef): Promise<Doc[]> {
    const reply = await this.invoke<{ handle: number; docs: Doc[] }>(ref, 'samples', {}, () => ({
      task: '?',
    }));
    this.remember(reply.docs, reply.handle);
    return reply.docs;
  }

  /**
   * Doc functions (doc_to_text, doc_to_target, doc_to_choice, their few-shot overrides) over their docs,
   * all in one request; the results land in each ref's `prepared` map.
   */
  async prepareDocFunctions(
    calls: ReadonlyArray<{ ref: PythonFunctionRef; docs: readonly Doc[] }>,
    locate: (doc: Doc) => ItemLocation,
  ): Promise<void> {
    if (calls.length === 0) return;
    const positions = new Map<Doc, number>();
    const docs: Doc[] = [];
    const handle = this.heldInOrder(calls);
    let payload: Record<string, unknown>;
    if (handle !== undefined) {
      // The usual case (a split the worker produced, read from its start): the worker's own rows, by
      // count. Doc position p is the handle's row p, so the error path below finds the same doc.
      const longest = calls.reduce((a, b) => (b.docs.length > a.docs.length ? b : a));
      longest.docs.forEach((doc, position) => {
        positions.set(doc, position);
        docs.push(doc);
      });
      payload = {
        handle,
        calls: calls.map(({ ref, docs: callDocs }) => ({ fn: this.id(ref), count: callDocs.length })),
      };
    } else {
      const plan = calls.map(({ ref, docs: callDocs }) => ({
        fn: this.id(ref),
        items: callDocs.map((doc) => {
          let position = positions.get(doc);
          if (position === undefined) {
            position = docs.length;
            positions.set(doc, position);
            docs.push(doc);
          }
          return position;
        }),
      }));
      payload = { ...this.docPayload(docs), calls: plan };
    }
    const values: unknown[][] = [];
    try {
      // One list for every call, in the calls' order (the worker sends it in parts as it computes it).
      const reply = await this.worker.request<{ counts: number[]; values: unknown[] }>('apply', payload);
      let start = 0;
      for (const count of reply.counts) {
        values.push(reply.values.slice(start, start + count));
        start += count;
      }
    } catch (error) {
      if (!(error instanceof PythonCallError)) throw workerError(calls[0].ref, error, span(docs.map(locate)));
      // The worker stops at the first failure; find which call it was in from the position reported.
      const position = error.failure.index ?? -1;
      const failed =
        calls[error.failure.call ?? -1] ??
        calls.find((call) => call.docs.some((doc) => positions.get(doc) === position)) ??
        calls[0];
      throw callError(
        failed.ref,
        error.failure,
        docs[position] ? locate(docs[position]) : span(docs.map(locate)),
      );
    }
    for (const [index, { ref, docs: callDocs }] of calls.entries()) {
      const results = values[index];
      for (const [position, doc] of callDocs.entries()) ref.prepared.set(doc, results[position]);
    }
  }

  /** The handle whose rows 0, 1, 2, … every call's docs are, in that order; undefined when there is none. */
  private heldInOrder(calls: ReadonlyArray<{ docs: readonly Doc[] }>): number | undefined {
    let handle: number | undefined;
    for (const { docs } of calls) {
      for (let index = 0; index < docs.length; index++) {
        const ref = this.worker.refs.get(docs[index]);
        if (ref?.i !== index || (handle !== undefined && ref.h !== handle)) return undefined;
        handle = ref.h;
      }
    }
    return handle;
  }

  /** Docs as the worker receives them: those it holds by reference, out of band, the rest as values. */
  private docPayload(docs: readonly Doc[]): {
    docs: Array<Doc | null>;
    refs: Array<[number, number[], number[]]>;
  } {
    const values: Array<Doc | null> = [];
    // Per handle: positions in `docs` and indices into the handle's list (two flat lists parse fastest).
    const byHandle = new Map<number, [number, number[], number[]]>();
    for (const [position, doc] of docs.entries()) {
      const ref = this.worker.refs.get(doc);
      if (ref?.i !== undefined) {
        values.push(null);
        let group = byHandle.get(ref.h);
        if (!group) {
          group = [ref.h, [], []];
          byHandle.set(ref.h, group);
        }
        group[1].push(position);
        group[2].push(ref.i);
      } else values.push(doc);
    }
    return { docs: values, refs: [...byHandle.values()] };
  }

  /**
   * lm-eval's `process_results(doc, results)` for every item, in batches. With `loglikelihood`, each
   * result is a `[logprob, is_greedy]` pair the worker turns into lm-eval's `(float, bool)` tuple
   * (cheaper than tagging every tuple); otherwise results go as they are (see responses.ts).
   *
   * `metrics` names the metrics the task aggregates. One of them that some item returns and another does
   * not makes the other an errored sample: lm-eval would average over the docs that have it, and the doc
   * would vanish from the metric without a word. (A metric no item returns is absent, as in lm-eval.)
   * A value that is NaN or infinite is an errored sample too (assay_worker/failures.py).
   */
  async processResults(
    ref: PythonFunctionRef,
    items: ReadonlyArray<{ doc: Doc; results: unknown[]; location: ItemLocation }>,
    options: { loglikelihood?: boolean; metrics?: readonly string[] } = {},
  ): Promise<PythonScores> {
    const scores = await this.batched(ref, 'process_results', items, (slice) => ({
      ...this.docPayload(slice.map((item) => item.doc)),
      results: slice.map((item) => item.results),
      loglikelihood: options.loglikelihood ?? false,
    }));
    const returned = (options.metrics ?? []).filter((name) =>
      scores.values.some((value) => value !== undefined && name in value),
    );
    if (returned.length === 0) return scores;
    for (const [index, value] of scores.values.entries()) {
      if (value === undefined || scores.errors[index]) continue;
      const missing = returned.filter((name) => !(name in value));
      if (missing.length === 0) continue;
      const others = missing.map(
        (name) => scores.values.filter((other) => other !== undefined && name in other).length,
      );
      const keys = Object.keys(value);
      scores.values[index] = undefined;
      scores.errors[index] = this.returnedError(
        ref,
        `returned no ${missing.join(', ')} for this doc (it returned ${keys.length ? `only ${keys.join(', ')}` : 'an empty dict'}; ${missing
          .map((name, at) => `${others[at]} other doc${others[at] === 1 ? '' : 's'} gave ${name}`)
          .join(', ')}): every doc must give every metric, or it would be left out of it`,
        items[index].location,
      );
    }
    return scores;
  }

  /** An errored sample for what a function returned (not what it raised): located at its definition. */
  private returnedError(ref: PythonFunctionRef, what: string, where: ItemLocation): AssayError {
    return callError(
      ref,
      {
        type: 'ValueError',
        message: what,
        frame: this.definitions.get(this.id(ref)) ?? null,
        traceback: '',
        returned: true,
      },
      where,
    );
  }

  /**
   * A metric_list function on generated answers: `fn(references=[gold], predictions=[result], **kwargs)`,
   * falling back to `fn([gold, result])` on TypeError, as lm-eval's generate_until scoring does.
   */
  metric(
    ref: PythonFunctionRef,
    name: string,
    kwargs: Record<string, unknown>,
    items: ReadonlyArray<{ gold: unknown; result: unknown; multipleTarget: boolean; location: ItemLocation }>,
  ): Promise<PythonScores> {
    return this.batched(ref, 'metric', items, (slice) => ({
      name,
      kwargs,
      items: slice.map((item) => [item.gold, item.result, item.multipleTarget]),
    }));
  }

  private async batched<T extends { location: ItemLocation }>(
    ref: PythonFunctionRef,
    op: string,
    items: readonly T[],
    payload: (slice: T[]) => Record<string, unknown>,
  ): Promise<PythonScores> {
    type Reply = {
      store: number;
      values: Array<Record<string, unknown> | null>;
      errors: Record<string, PythonFailure>;
    };
    const requests: Promise<Reply>[] = [];
    const slices: T[][] = [];
    for (let start = 0; start < items.length; start += BATCH) {
      const slice = items.slice(start, start + BATCH);
      slices.push(slice);
      requests.push(
        this.invoke(ref, op, payload(slice), (failure) =>
          failure?.index !== undefined && slice[failure.index]
            ? slice[failure.index].location
            : span(slice.map((item) => item.location)),
        ),
      );
    }
    const replies = await Promise.all(requests);
    const scores: PythonScores = { values: [], refs: [], errors: [] };
    for (const [batch, reply] of replies.entries()) {
      for (const [index, value] of reply.values.entries()) {
        const failure = reply.errors[String(index)];
        scores.values.push(value ?? undefined);
        scores.refs.push({ store: reply.store, index });
        scores.errors.push(failure ? callError(ref, failure, slices[batch][index].location) : undefined);
      }
    }
    return scores;
  }

  /**
   * A filter step over every instance of a task at once, as lm-eval applies filters: a filter class
   * (`function: !function utils.MyFilter`) is built with the step's other keys and its `apply(resps, docs)`
   * called; `custom`'s `filter_fn` is called as `filter_fn(resps, docs)`.
   */
  filter(
    ref: PythonFunctionRef,
    mode: 'class' | 'custom',
    kwargs: Record<string, unknown>,
    resps: unknown[],
    docs: Doc[],
    task: string,
  ): Promise<unknown[]> {
    return this.invoke(ref, 'filter', { mode, kwargs, resps, docs }, () => ({ task }));
  }

  /**
   * A task's `aggregation: !function` over its items (values or references to values the worker
   * holds), with lm-eval's bootstrap replicates (`bootstrap_stderr`: chunks seeded Random(0), Random(1)…).
   */
  async aggregate(
    ref: PythonFunctionRef,
    items: ReadonlyArray<(PythonValueRef & { key: string }) | { value: unknown }>,
    iterations: number,
    task: string,
  ): Promise<{
    value: unknown;
    replicates: number[];
    /** Set when a resample raised: which one (1-based) and the error; `replicates` is then empty. */
    bootstrap_error?: { resample: number; error: { type: string; message: string; frame?: string | null } };
  }> {
    const encoded = items.map((item) =>
      'store' in item ? [item.store, item.index, item.key] : { v: item.value },
    );
    return this.invoke(ref, 'aggregate', { items: encoded, iters: iterations }, () => ({ task }));
  }

  /** A group's `aggregate_metric_list` function: `fn(values, sizes, weight_by_size)`. */
  groupAggregate(
    ref: PythonFunctionRef,
    values: number[],
    sizes: number[],
    weightBySize: boolean,
    group: string,
  ): Promise<unknown> {
    return this.invoke(ref, 'group_aggregate', { values, sizes, weight_by_size: weightBySize }, () => ({
      task: group,
    }));
  }

  /** Calls the function with positional arguments (for tools and tests; the evaluator uses the methods above). */
  call(ref: PythonFunctionRef, ...args: unknown[]): Promise<unknown> {
    return this.invoke(ref, 'call', { args }, () => ({ task: '?' }));
  }

  /** Drops objects the worker keeps for a finished task. */
  async release(handles: number[]): Promise<void> {
    if (handles.length) await this.worker.request('release', { handles });
  }

  /** The reference the worker would receive for `value` (tests). */
  refOf(value: object): WorkerRef | undefined {
    return this.worker.refs.get(value);
  }
}

/** The runtime a ref is bound to; an unbound ref needs an interpreter, and the error says how to give one. */
export function boundRuntime(ref: PythonFunctionRef): PythonRuntime {
  if (!ref.binding) throw needsInterpreter(ref);
  return ref.binding.runtime as PythonRuntime;
}

function loadSpec(ref: PythonFunctionRef): Record<string, unknown> {
  if (ref.hfEvaluate) return { builtin: { kind: 'hf_evaluate', name: ref.hfEvaluate.name } };
  if (ref.registeredFilter) {
    const { name, modules } = ref.registeredFilter;
    return { builtin: { kind: 'registered_filter', name, modules } };
  }
  return { module: ref.module, name: ref.name };
}

/** Exceptions that are task code trying to end the process (the worker turns os._exit into ProcessExit). */
const EXITS = new Set(['SystemExit', 'ProcessExit']);

async function bindError(ref: PythonFunctionRef, failure: PythonFailure, task?: string): Promise<AssayError> {
  // `evaluate` missing (or without this metric): the unknown-metric error the task would have had anyway.
  if (ref.hfEvaluate) return ref.hfEvaluate.unavailable;
  if (ref.registeredFilter && failure.type === 'KeyError') return ref.registeredFilter.unknown;
  if (failure.needs) {
    // The module imported with a placeholder for a missing package, and this function reaches it.
    return new AssayError(
      'python_package_missing',
      `${keyLabel(ref.keyPath)}: !function ${ref.ref} ${failure.message}`,
      {
        location: { ...(await ref.locate()), field: keyLabel(ref.keyPath) },
        cause: new PythonCallError(failure),
      },
    );
  }
  if (EXITS.has(failure.type)) {
    // Module code that ends the process: not a missing function, and the task is named.
    return new AssayError(
      'python_error',
      `${task ? `task ${task}: ` : ''}${keyLabel(ref.keyPath)}: !function ${ref.ref}: importing ${path.basename(ref.module)} failed: ${describeFailure(failure)}`,
      {
        location: { ...(await ref.locate()), task, field: keyLabel(ref.keyPath) },
        cause: new PythonCallError(failure),
      },
    );
  }
  const importing = failure.type !== 'AttributeError' || !/has no function/.test(failure.message);
  const what = importing
    ? `importing ${path.basename(ref.module)} failed: ${describeFailure(failure)}`
    : failure.message;
  return new AssayError('function_not_found', `${keyLabel(ref.keyPath)}: !function ${ref.ref}: ${what}`, {
    location: { ...(await ref.locate()), field: keyLabel(ref.keyPath) },
    cause: new PythonCallError(failure),
  });
}

/** `def name at utils.py:3`, from a definition's `file:line in name`. */
function describeDefinition(frame: string): string {
  const match = frame.match(/^(.*):(\d+) in (.*)$/);
  return match ? `def ${match[3]} at ${path.basename(match[1])}:${match[2]}` : frame;
}

/** The worker itself failed (it exited, or broke the protocol): the run cannot go on. */
function workerError(ref: PythonFunctionRef, error: unknown, where: ItemLocation | undefined): AssayError {
  const task = where?.task && where.task !== '?' ? `task ${where.task}: ` : '';
  const on = where?.label ?? (where?.docId !== undefined ? `doc ${where.docId}` : undefined);
  return new AssayError(
    'python_error',
    `${task}${keyLabel(ref.keyPath)} ${ref.ref}: ${(error as Error).message}${on ? ` (running on ${on})` : ''}`,
    {
      location: { file: ref.yamlFile, task: where?.task, field: keyLabel(ref.keyPath) },
      cause: error,
      exitCode: 1,
    },
  );
}

/** The items of a request as one location: their task, and "doc 3" or "docs 0–29 (30 items)". */
function span(locations: readonly ItemLocation[]): ItemLocation {
  const task = locations[0]?.task ?? '?';
  if (locations.length === 1) return locations[0];
  const first = locations[0]?.docId;
  const last = locations[locations.length - 1]?.docId;
  if (first === undefined || last === undefined) return { task };
  return { task, label: `docs ${first}–${last} (${locations.length} items)` };
}

function callError(ref: PythonFunctionRef, failure: PythonFailure, where: ItemLocation): AssayError {
  const on = where.label ?? (where.docId !== undefined ? `doc ${where.docId}` : undefined);
  // What the function returned is told as such; what it raised, with the frame that raised it.
  const what = failure.returned
    ? `returned ${failure.message.replace(/^returned /, '')}${failure.frame ? ` (${describeDefinition(failure.frame)})` : ''}`
    : `raised ${describeFailure(failure, false)}`;
  return new AssayError(
    'python_error',
    `task ${where.task}: ${keyLabel(ref.keyPath)} ${ref.ref} ${what}${on ? ` (on ${on})` : ''}`,
    {
      location: {
        ...frameLocation(failure),
        task: where.task,
        docId: where.docId,
        field: keyLabel(ref.keyPath),
      },
      cause: new PythonCallError(failure),
    },
  );
}
