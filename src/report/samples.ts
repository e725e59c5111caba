/**
 * The sample log's writer: a planned and scored doc as its line (lm-eval's fields, hashes and sanitized
 * responses; the line's type is the contract's SampleLine), and lm-eval's task hash over a task's lines.
 */
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import type { ExecutedDoc } from '../evaluate/code-stage.js';
import type { JudgedDoc } from '../evaluate/judge-stage.js';
import type { PlannedDoc } from '../evaluate/plan.js';
import { instanceArguments } from '../evaluate/requests.js';
import { respsOf, type TaskResponses } from '../evaluate/responses.js';
import type { ScoredDoc } from '../evaluate/score.js';
import { pythonScalarStr } from '../python/semantics/format.js';
import { needsPythonJson, pythonJsonDumps } from '../python/semantics/json-values.js';
import { pythonStr } from '../python/semantics/literal.js';
import type { SampleLine } from '../results/sample-line.js';

/** One-shot crypto.hash where Node has it (≥ 20.12; about twice as fast on short strings), else a Hash. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function sha256(text: string): string {
  return oneShot ? oneShot('sha256', text, 'hex') : createHash('sha256').update(text).digest('hex');
}

/**
 * A doc as lm-eval's json.dumps writes it (`indent` 2 for doc_hash, compact in the sample log): floats
 * as Python writes them (`18.0`). JSON.stringify where that gives the same text (almost every doc).
 */
function docJson(doc: unknown, indent?: number): string {
  return needsPythonJson(doc) ? pythonJsonDumps(doc, indent) : JSON.stringify(doc, null, indent);
}

/** A sample log line as written: JSON, with the doc's floats as lm-eval writes them. */
export function sampleLineJson(line: SampleLine): string {
  return needsPythonJson(line.doc) ? pythonJsonDumps(line) : JSON.stringify(line);
}

/**
 * Per planned doc, its doc, prompt and target hashes as one string (3 × 64 hex digits, the text the
 * task hash reads), computed once however many filters (sample lines) it has. One string, not an object
 * of three: a run keeps one per doc until its results are written.
 */
const docHashesCache = new WeakMap<PlannedDoc, string>();

const HASH_LENGTH = 64;

function docHashes(planned: PlannedDoc, target = pythonStr(planned.target)): string {
  let hashes = docHashesCache.get(planned);
  if (hashes === undefined) {
    const first = planned.instances[0];
    const prompt = first ? String(instanceArguments(first.args).arg_0) : '';
    // Joined, not `+`: a rope would keep its three parts beside the flat copy hashing makes.
    hashes = [sha256(docJson(planned.doc, 2)), sha256(prompt), sha256(target)].join('');
    docHashesCache.set(planned, hashes);
  }
  return hashes;
}

/**
 * lm-eval's sanitize_list: every leaf of a response becomes its Python str(), so a log-likelihood
 * answer (logprob, is_greedy) is written as ["-1.23", "False"].
 */
export function sanitizeResponse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sanitizeResponse);
  if (value && typeof value === 'object') {
    if ('logprob' in value && 'isGreedy' in value) {
      const result = value as { logprob: number; isGreedy: boolean };
      return [pythonScalarStr(result.logprob), pythonScalarStr(result.isGreedy)];
    }
    return JSON.stringify(value);
  }
  return pythonScalarStr(value);
}

/** A doc's sample line under one filter; `answers` are its task's (execute's output, by request id). */
export function sampleLine(planned: PlannedDoc, answers: TaskResponses, scored: ScoredDoc): SampleLine {
  const { instances } = planned;
  const resps = respsOf(answers, instances);
  const target = pythonStr(planned.target);
  const argumentsByRequest: Record<string, Record<string, unknown>> = {};
  planned.instances.forEach((instance, i) => {
    argumentsByRequest[`gen_args_${i}`] = instanceArguments(instance.args);
  });
  const hashes = docHashes(planned, target);
  const line: SampleLine = {
    doc_id: planned.docId,
    doc: planned.doc,
    target,
    arguments: argumentsByRequest,
    resps: resps.map(sanitizeResponse),
    filtered_resps: scored.filtered.map(sanitizeResponse),
    filter: scored.filter,
    metrics: Object.keys(scored.metrics),
    doc_hash: hashes.slice(0, HASH_LENGTH),
    prompt_hash: hashes.slice(HASH_LENGTH, 2 * HASH_LENGTH),
    target_hash: hashes.slice(2 * HASH_LENGTH),
    fewshot_ids: planned.fewshotIds,
  };
  if (scored.error !== undefined) line.error = scored.error;
  if (scored.timedOut) line.timed_out = true;
  const { genLogprobs, genThinking } = answers;
  if (genLogprobs && instances.some(({ id }) => genLogprobs[id]?.some((tokens) => tokens !== null))) {
    line.gen_logprobs = instances.map(({ id }) => genLogprobs[id] ?? []);
  }
  if (genThinking && instances.some(({ id }) => genThinking[id])) {
    line.reasoning = instances.map(({ id }, i) => genThinking[id] ?? resps[i].map(() => null));
  }
  // Code metrics: passed / failed / timed_out / error, with the reason, for each program that ran.
  const execution = (scored as ExecutedDoc).execution;
  if (execution) line.execution = execution;
  // llm_judge metrics: the judge's prompt, raw answer and parsed verdict for each call.
  const judge = (scored as JudgedDoc).judge;
  if (judge) line.judge = judge;
  // Per-doc token and window counts, so `assay merge` can rebuild the perplexity block from the logs.
  if (scored.ppl) line.ppl_doc = scored.ppl;
  // assay's additive keys: what aggregation reads besides the metric values, so a merge aggregates the
  // logged values without scoring again.
  if (scored.repeatScores) line.repeat_scores = scored.repeatScores;
  if (scored.clusterKey !== undefined) line.cluster_key = scored.clusterKey;
  for (const [name, value] of Object.entries(scored.metrics)) line[name] = value;
  return line;
}

/** lm-eval's task hash: sha256 over the concatenated per-sample doc, prompt and target hashes. */
export function taskHash(lines: SampleLine[]): string {
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line.doc_hash + line.prompt_hash + line.target_hash);
  return hash.digest('hex');
}

/** taskHash of the sample lines of these docs (in sample-log order), without building the lines. */
export function taskHashOfDocs(docs: PlannedDoc[]): string {
  const hash = createHash('sha256');
  for (const planned of docs) hash.update(docHashes(planned));
  return hash.digest('hex');
}
